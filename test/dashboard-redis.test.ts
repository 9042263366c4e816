// The dashboard on Redis with two API instances sharing one store (db 14, a random prefix): a
// session made on one instance is valid on the other; a key made on one works on both at
// once; a roll and a disable made on one are refused by the other within a second; an admin's
// payment-required and plan change on one reach the API on the other.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { ADMIN, Client, startDashboard, type DashboardServer } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

const prefix = `dash-test-${randomBytes(4).toString('hex')}:`;
let skip: string | false = false;
let a: DashboardServer;
let b: DashboardServer;
let dir = '';

before(async () => {
  if (!(await redisUp())) {
    if (process.env.CI) throw new Error(`no Redis reachable at ${REDIS}, and CI is set: Redis tests must run`);
    skip = `SKIPPED: no Redis reachable at ${REDIS}`;
    return;
  }
  const fixture = await buildFixture();
  dir = fixture.dir;
  const store = `${REDIS}?prefix=${prefix}`;
  const shared = { store, catalogue: fixture.file, dir };
  a = await startDashboard({ signup: 'open' }, shared);
  b = await startDashboard({ signup: 'open' }, shared);
});

after(async () => {
  await a?.server.close();
  await b?.server.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (skip) return;
  await dropPrefixes([prefix]);
});

const call = (s: DashboardServer, key: string) =>
  fetch(`${s.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

/** The status `s` gives `key` once it has settled on `want` (polled for up to 1.5 s). */
async function within(s: DashboardServer, key: string, want: number): Promise<{ status: number; ms: number }> {
  const start = Date.now();
  let status = 0;
  while (Date.now() - start < 1500 && (status = await call(s, key)) !== want)
    await new Promise((r) => setTimeout(r, 25));
  return { status, ms: Date.now() - start };
}

test('two instances on one Redis: sessions, key create, roll, disable and payment-required cross over', async (t) => {
  if (skip) return t.skip(skip);
  const dev = new Client(a.url);
  assert.equal((await dev.signUp('two@example.com', 'a fine password')).status, 303);
  const onB = new Client(b.url);
  onB.cookies = dev.cookies; // the same browser, its requests balanced to the other instance
  assert.equal((await onB.get('/dashboard/keys')).status, 200, 'the session is valid on the other instance');

  const k = await onB.createKey('balanced');
  assert.equal(await call(a, k.key), 200, 'a key made on B works on A at once');
  assert.equal(await call(b, k.key), 200);

  const rolled = await (await dev.submit('/dashboard/keys', `/dashboard/keys/${k.id}/roll`, { grace: 'none' })).text();
  const fresh = /id="secret-value">([^<]+)</.exec(rolled)![1];
  assert.equal(await call(b, fresh), 200, 'the new secret works on the other instance at once');
  const old = await within(b, k.key, 403);
  assert.equal(old.status, 403, 'the old secret is refused by the other instance');
  assert.ok(old.ms < 1000, `within a second (${old.ms} ms)`);

  const second = await dev.createKey('second');
  const admin = new Client(b.url);
  assert.equal((await admin.signIn(ADMIN.email, ADMIN.password)).status, 303);
  const accounts = await (await admin.get('/dashboard/admin/accounts')).text();
  const name = /href="\/dashboard\/admin\/accounts\/(acct_[^"]+)" class="wrap">two@example.com/.exec(accounts)![1];
  await admin.submit(`/dashboard/admin/accounts/${name}`, `/dashboard/admin/accounts/${name}/payment`, { on: '1' });
  const paying = await within(a, second.key, 402);
  assert.equal(paying.status, 402);
  assert.ok(paying.ms < 1000, `within a second (${paying.ms} ms)`);
  await admin.submit(`/dashboard/admin/accounts/${name}`, `/dashboard/admin/accounts/${name}/payment`, { on: '0' });
  assert.equal((await within(a, second.key, 200)).status, 200);
  await admin.submit(`/dashboard/admin/accounts/${name}`, `/dashboard/admin/accounts/${name}/plan`, {
    plan: 'sandbox',
  });
  let status = 0;
  for (let i = 0; i < 40 && status !== 403; i++) {
    status = (await fetch(`${a.url}/v1/products/barcode/12345678`, { headers: { 'x-api-key': second.key } })).status;
    if (status !== 403) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(status, 403, 'sandbox has no barcode lookup: the plan change reached the other instance');

  await onB.submit('/dashboard/keys', `/dashboard/keys/${second.id}/disable`, {});
  const off = await within(a, second.key, 403);
  assert.equal(off.status, 403);
  assert.ok(off.ms < 1000, `within a second (${off.ms} ms)`);
  assert.match(await (await dev.get('/dashboard/keys')).text(), /state-disabled/);
});
