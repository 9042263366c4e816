// The dashboard's mail pages over real HTTP: without SMTP, a mail waits in the outbox and an
// admin reads it (escaped) on /dashboard/admin/mail; developers get 403; the list pages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, Client, startDashboard, type DashboardServer } from './support/dashboard';

let d: DashboardServer;
before(async () => {
  d = await startDashboard({ signup: 'open' });
});
after(async () => {
  await d?.close();
});

test('an admin reads the outbox; a developer is refused', async () => {
  const mailer = d.server.mailer!;
  assert.equal(mailer.mode, 'outbox');
  const link = mailer.link('/reset/tok<en>');
  assert.equal(link, `${d.server.dashboardUrl}/reset/tok<en>`, 'links start at the dashboard address');
  assert.equal(await mailer.send('reset:1', 'dev"<x>@example.com', 'reset', { link, hours: 24 }), 'outbox');
  for (let i = 0; i < 30; i++) await mailer.send(`bulk:${i}`, `n${i}@example.com`, 'reset', { link, hours: 24 });

  const admin = new Client(d.url);
  assert.equal((await admin.signIn(ADMIN.email, ADMIN.password)).status, 303);
  const list = await admin.page('/dashboard/admin/mail');
  assert.equal(list.status, 200);
  assert.match(list.html, /No SMTP server is set/);
  assert.match(list.html, /Page 1 of 2/);
  assert.equal((list.html.match(/<td>in the outbox<\/td>/g) ?? []).length, 25, '25 a page');
  const second = await admin.page('/dashboard/admin/mail?page=2');
  assert.match(second.html, /dev&quot;&lt;x&gt;@example.com/, 'the oldest mail is on the last page, escaped');
  const id =
    /href="\/dashboard\/admin\/mail\/([0-9a-f]{32})">Choose a new password[^<]*<\/a><\/td>\s*<td>in the outbox<\/td>\s*<\/tr><\/tbody>/.exec(
      second.html,
    )?.[1];
  assert.ok(id, 'the list links each mail');
  const one = await admin.page(`/dashboard/admin/mail/${id}`);
  assert.equal(one.status, 200);
  assert.match(one.html, /<pre class="mail-text">[^]*\/reset\/tok&lt;en&gt;/);
  assert.equal((await admin.get('/dashboard/admin/mail/nothex')).status, 404);

  const dev = new Client(d.url);
  assert.equal((await dev.signUp('plain@example.com', 'a fine password')).status, 303);
  assert.equal((await dev.get('/dashboard/admin/mail')).status, 403);
  assert.equal((await dev.get(`/dashboard/admin/mail/${id}`)).status, 403);
});
