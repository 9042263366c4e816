// One password hash per task, on a worker thread of the hash pool (passwords.ts, piscina).
// Guarantees: the hash is scrypt's, computed on this thread (not libuv's thread pool, which
// file reads share); on Linux this thread runs at the lowest CPU priority (nice 19), so that
// hashing only uses CPU time the request thread does not want.
import { scryptSync, type ScryptOptions } from 'node:crypto';
import { lowerThisThread } from '../shared/thread-priority';

export interface HashTask {
  password: string;
  salt: Uint8Array;
  keyBytes: number;
  cost: ScryptOptions;
}

lowerThisThread(19);

export default function hash(t: HashTask): Uint8Array {
  return scryptSync(t.password, t.salt, t.keyBytes, t.cost);
}
