// Password hashing (src/access/passwords.ts): a hash verifies and a wrong password does not;
// hashes made before this release (scrypt on libuv's pool) still verify; the hashing runs on a
// thread of its own at the lowest CPU priority (Linux), not on the event loop's thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { hashPassword, verifyPassword } from '../src/access/passwords';

test('a hash verifies its password and no other; a hash of an earlier release still verifies', async () => {
  const h = await hashPassword('correct horse battery staple');
  assert.match(h, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.equal(await verifyPassword('correct horse battery staple', h), true);
  assert.equal(await verifyPassword('correct horse battery stapler', h), false);
  // made as the earlier release made it: scrypt of node:crypto, N = 2^15, r = 8, p = 1
  const salt = randomBytes(16);
  const key = scryptSync('an older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 128 * 2 ** 20 });
  const old = ['scrypt', 32768, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  assert.equal(await verifyPassword('an older password', old), true);
});

test('hashing runs on a thread of nice 19, the event loop thread keeps its priority (Linux)', async (ctx) => {
  if (process.platform !== 'linux') return ctx.skip('thread priorities are read from /proc');
  const nice = (tid: string) =>
    Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
  await hashPassword('a password to hash');
  const lowest = readdirSync('/proc/self/task').filter((t) => nice(t) === 19);
  assert.ok(lowest.length >= 1, 'a thread of nice 19 hashes');
  assert.equal(nice(String(process.pid)), 0, 'the event loop thread is not lowered');
});
