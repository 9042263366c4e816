// Dashboard passwords, hashed with scrypt from node:crypto (memory-hard). Guarantees: a
// per-password random salt; the parameters are stored with each hash (so they can be raised
// later without breaking old hashes); verification compares in constant time; hashing runs
// on libuv's thread pool, never on the event loop; checking a password against no account
// (dummyCheck) costs the same as against one, so the time of a sign-in does not tell whether
// an email has an account.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** N = 2^15, r = 8: 32 MiB and about 0.1–0.25 s per hash on the 2-core development machine. */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const MAX_MEM = 128 * 1024 * 1024;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...cost, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$SALT$HASH` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/** The work of verifyPassword against a hash nobody has; always false. */
export async function dummyCheck(password: string): Promise<false> {
  await verifyPassword(password, await (dummy ??= hashPassword(randomBytes(16).toString('hex'))));
  return false;
}
