// The admin pages for a real incident over real HTTP, two instances on one store: find a leaked
// key by its whole secret, the start of its secret or its id, disable it after a confirmation
// (the other instance refuses it within a second, the audit log says who); accounts searched
// and paged; usage by email; invitations mailed, listed and revoked; admins made and removed;
// the settings changed on the page and obeyed by the other instance.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { openAccounts } from '../src/access';
import { ADMIN, Client, startDashboard, type DashboardServer } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';

let a: DashboardServer;
let b: DashboardServer;
let dir = '';

before(async () => {
  const fixture = await buildFixture();
  dir = fixture.dir;
  const opts = { catalogue: fixture.file, dir, store: `sqlite:${dir}/admin.sqlite` };
  a = await startDashboard({ signup: 'open' }, opts);
  b = await startDashboard({ signup: 'open' }, opts);
});
after(async () => {
  await a?.server.close();
  await b?.server.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const call = (s: DashboardServer, key: string) =>
  fetch(`${s.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

async function within(s: DashboardServer, key: string, want: number): Promise<number> {
  const start = Date.now();
  let status = 0;
  while (Date.now() - start < 1500 && (status = await call(s, key)) !== want)
    await new Promise((r) => setTimeout(r, 25));
  return status;
}

async function admin(s: DashboardServer): Promise<Client> {
  const c = new Client(s.url);
  assert.equal((await c.signIn(ADMIN.email, ADMIN.password)).status, 303);
  return c;
}

test('a leaked key found by its secret or id and disabled after a confirmation, on every instance', async () => {
  const dev = new Client(a.url);
  assert.equal((await dev.signUp('leaky@example.com', 'a fine password')).status, 303);
  const { id, key } = await dev.createKey('production');
  assert.equal(await call(b, key), 200);
  const ops = await admin(a);
  for (const q of [key, key.slice(0, 11), id, id.slice(0, 8)]) {
    const found = await ops.page(`/dashboard/admin/keys?q=${encodeURIComponent(q)}`);
    assert.match(found.html, new RegExp(`<code>${id}</code>`), `found by ${q.slice(0, 4)}…`);
    assert.match(found.html, /leaky@example\.com/);
    assert.ok(!found.html.includes(key), 'a whole secret is never shown back');
  }
  assert.match((await ops.page('/dashboard/admin/keys?q=ck_')).html, /at least 6 characters/);
  const confirm = await ops.page(`/dashboard/admin/keys/${id}/disable`);
  assert.match(confirm.html, /Disable this key\?[^]*cannot be undone/);
  assert.equal(await call(b, key), 200, 'the confirmation page changes nothing');
  const res = await ops.post(`/dashboard/admin/keys/${id}/disable`, { _csrf: confirm.csrf });
  assert.equal(res.status, 303);
  assert.equal(await within(b, key, 403), 403, 'refused by the other instance');
  const accountUrl = /href="(\/dashboard\/admin\/accounts\/[^"]+)"/.exec(confirm.html)![1];
  const page = await ops.page(accountUrl);
  assert.match(page.html, /<strong>ops@example\.com<\/strong>: disabled key key_[^ ]+ \(production\)/, 'the audit log');
  assert.match(page.html, /Last used \(UTC\)[^]*\d{4}-\d{2}-\d{2}/, 'keys with their last use');
  const dev2 = new Client(b.url);
  dev2.cookies = dev.cookies;
  assert.equal((await dev2.get(`/dashboard/admin/keys?q=${id}`)).status, 403, 'developers: 403');
});

test('accounts searched and paged; usage by email; admins made and removed', async () => {
  const accounts = await openAccounts(a.store, { purpose: 'admin' });
  for (let i = 0; i < 47; i++)
    await accounts.signUp(`user${String(i).padStart(2, '0')}@example.org`, 'a fine password', 'trial');
  await accounts.close();
  const ops = await admin(b);
  const first = await ops.page('/dashboard/admin/accounts');
  assert.match(first.html, /Page 1 of \d/);
  assert.equal((first.html.match(/<tr>\s*<td data-label="Account">/g) ?? []).length, 25);
  const found = await ops.page('/dashboard/admin/accounts?q=USER4');
  assert.match(found.html, /7 accounts matching/);
  assert.doesNotMatch(found.html, /user39@/);
  assert.match((await ops.page('/dashboard/admin/usage')).html, /leaky@example\.com/, 'usage by email');

  const target = /href="(\/dashboard\/admin\/accounts\/acct_[^"]+)"[^>]*>user40@example\.org/.exec(found.html)![1];
  const p = await ops.page(target);
  assert.equal((await ops.post(`${target}/role`, { _csrf: p.csrf, role: 'admin' })).status, 200);
  const promoted = new Client(a.url);
  assert.equal((await promoted.signIn('user40@example.org', 'a fine password')).status, 303);
  assert.equal((await promoted.get('/dashboard/admin/accounts')).status, 200, 'an admin now');
  const q = await ops.page(target);
  assert.equal((await ops.post(`${target}/role`, { _csrf: q.csrf, role: 'developer' })).status, 200);
  assert.equal((await promoted.get('/dashboard/admin/accounts')).status, 403, 'a developer again');
  const self = /href="(\/dashboard\/admin\/accounts\/acct_[^"]+)"[^>]*>ops@example\.com/.exec(first.html)![1];
  const me = await ops.page(self);
  const refused = await ops.post(`${self}/role`, { _csrf: me.csrf, role: 'developer' });
  assert.match(await refused.text(), /cannot remove your own admin role/);
});

test('invitations mailed, listed and revoked; settings changed on the page reach the other instance', async () => {
  const ops = await admin(a);
  const list = await ops.page('/dashboard/admin/accounts');
  const made = await ops.post('/dashboard/admin/invites', { _csrf: list.csrf, plan: 'starter', email: "o'neil@x.io" });
  const link = /id="secret-value">([^<]+)</.exec(await made.text())![1].replace(/&amp;/g, '&');
  const invites = await ops.page('/dashboard/admin/accounts');
  assert.match(invites.html, /o&#39;neil@x\.io/);
  const store = await openAccounts(a.store, { purpose: 'admin' });
  const { mails } = await store.outbox.mails(0, 5);
  await store.close();
  const invite = mails.find((m) => m.to === "o'neil@x.io")!;
  assert.match(invite.text, /on the starter plan/);
  assert.doesNotMatch(invite.text, /no card/, 'a paid plan is not a trial');
  const revoke = /action="(\/dashboard\/admin\/invites\/[0-9a-f]{64}\/revoke)"/.exec(invites.html)![1];
  assert.equal((await ops.post(revoke, { _csrf: invites.csrf })).status, 303);
  const stranger = new Client(b.url);
  const signUp = await stranger.page(new URL(link).pathname + new URL(link).search);
  assert.match(signUp.html, /not valid|no longer|expired/i, 'a revoked invitation makes no account');

  const settings = await ops.page('/dashboard/admin/settings');
  const saved = await ops.post('/dashboard/admin/settings', {
    _csrf: settings.csrf,
    signup: 'invite',
    signupPlan: 'sandbox',
    billingText: 'Pay to IBAN ZZ99 <b>now</b>',
  });
  assert.match(await saved.text(), /every instance uses it within a second/);
  await new Promise((r) => setTimeout(r, 1200));
  const closed = await new Client(b.url).page('/dashboard/sign-up');
  assert.match(closed.html, /invitation/i, 'sign-up is by invitation on the other instance');
  const onB = await (await admin(b)).page('/dashboard/admin/settings');
  assert.match(onB.html, /Pay to IBAN ZZ99 &lt;b&gt;now&lt;\/b&gt;/);
  assert.match(onB.html, /<option value="sandbox" selected>/);
});
