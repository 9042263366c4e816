// Dashboard passwords, hashed with scrypt (memory-hard). Guarantees: a per-password random
// salt; the parameters are stored with each hash (so they can be raised later without breaking
// old hashes); verification compares in constant time; hashing runs on worker threads of the
// lowest CPU priority (hash-worker.ts), never on the event loop or libuv's thread pool, so it
// only takes CPU time the API does not want; checking a password against no account
// (dummyCheck) costs the same as against one, so the time of a sign-in does not tell whether
// an email has an account. At most hashesAtOnce() hashes run at a time in this process, and
// one more for the owner of an account from a browser it signed in with (`known`), so that
// strangers who take every slot do not keep the owner out; one more is refused at once with
// ApiError('unavailable', BUSY), never queued.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Piscina } from 'piscina';
import { ApiError } from '../shared/errors';
import type { HashTask } from './hash-worker';

/** N = 2^15, r = 8: 32 MiB and about 0.1–0.25 s per hash on the 2-core development machine. */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const MAX_MEM = 128 * 1024 * 1024;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The message of the refusal when every hashing slot is taken. */
export const BUSY = 'Too many sign-ins right now. Try again in a moment.';
/** Seconds a refused client is asked to wait (Retry-After). */
export const BUSY_RETRY_S = 1;

/**
 * Resolves when a refusal's Retry-After has passed. The dashboard sends its BUSY refusals then
 * (a timer: no CPU meanwhile), so that a client that tries again as soon as it is answered makes
 * one attempt a second per connection, not thousands that would take the request thread.
 */
export function retryAfterPassed(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_S * 1000));
}

/** Half the cores, at least 1 and at most 2: 1 on a 2-core machine. */
let slots = Math.min(2, Math.max(1, Math.floor(availableParallelism() / 2)));
let running = 0;
/** The most hashes that ran at once, and the hashes refused, since the process started (or resetHashStats). */
const stats = { peak: 0, refused: 0 };

/** Hashes allowed to run at once in this process. */
export function hashesAtOnce(): number {
  return slots;
}

/** Sets the bound (tests, benchmarks); Infinity lifts it. */
export function setHashesAtOnce(n: number): void {
  if (!(n >= 1)) throw new Error('at least one hash must be allowed at a time');
  slots = n;
}

export function hashStats(): { running: number; peak: number; refused: number } {
  return { running, ...stats };
}

export function resetHashStats(): void {
  stats.peak = running;
  stats.refused = 0;
}

/** The slot kept for an account's own browser (`known`), beyond hashesAtOnce(). */
const OWNERS = 1;

function free(known: boolean): boolean {
  return running < slots + (known ? OWNERS : 0);
}

/** True when a hash started now would run (`known`: for an account's own browser). */
export function hashesFree(known = false): boolean {
  return free(known);
}

/** Counts a refusal made without calling in here (the dashboard's early answer). */
export function noteBusyRefusal(): void {
  stats.refused++;
}

/** Throws the BUSY refusal when a hash started now would be refused (a later one may still lose the slot to another). */
export function refuseIfBusy(known = false): void {
  if (!free(known)) throw busy();
}

export function isBusy(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'unavailable' && err.message === BUSY;
}

function busy(): ApiError {
  stats.refused++;
  return new ApiError('unavailable', BUSY);
}

let pool: Piscina | undefined;

/**
 * The hash threads: up to as many as the machine has cores (the slots bound what runs), each
 * started when a hash needs it and ended after a minute without one (a thread costs its own heap).
 */
function threads(): Piscina {
  return (pool ??= new Piscina({
    filename: join(__dirname, 'hash-worker.js'),
    minThreads: 0,
    maxThreads: availableParallelism(),
    idleTimeout: 60_000,
  }));
}

async function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  const task: HashTask = {
    password: password.normalize('NFC'),
    salt,
    keyBytes: KEY_BYTES,
    cost: { ...cost, maxmem: MAX_MEM },
  };
  const key = (await threads().run(task)) as Uint8Array;
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
}

/** derive() in one of the slots; refused at once when none is free. */
async function gated(password: string, salt: Buffer, cost: ScryptOptions, known = false): Promise<Buffer> {
  refuseIfBusy(known);
  running++;
  stats.peak = Math.max(stats.peak, running);
  try {
    return await derive(password, salt, cost);
  } finally {
    running--;
  }
}

function encode(salt: Buffer, key: Buffer): string {
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** `scrypt$N$r$p$SALT$HASH` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encode(salt, await gated(password, salt, COST));
}

/** `known`: the check is the account owner's, from a browser it signed in with (the kept slot may be used). */
export async function verifyPassword(password: string, stored: string, known = false): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  const key = await gated(password, Buffer.from(salt, 'base64url'), cost, known);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/** The dummy hash, made once (outside the slots: at start, before any sign-in). */
export function prepareDummy(): Promise<string> {
  return (dummy ??= (async () => {
    const salt = randomBytes(16);
    return encode(salt, await derive(randomBytes(16).toString('hex'), salt, COST));
  })());
}

/** The work of verifyPassword against a hash nobody has; always false. */
export async function dummyCheck(password: string): Promise<false> {
  await verifyPassword(password, await prepareDummy());
  return false;
}
