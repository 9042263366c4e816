// Forgot password over real HTTP with a real SMTP server: the mail arrives with a one-time link
// that sets a new password; an unknown address gets the same answer and no mail; a second ask
// within 15 minutes sends nothing more; a client address is limited.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, startDashboard, type DashboardServer, smtpMailbox, useMailbox } from './support/dashboard';
import { startSmtp, type TestSmtp } from './support/smtp';
import { MAX_PER_ADDRESS, RESEND_MS } from '../src/dashboard/routes/forgot';

let d: DashboardServer;
let smtp: TestSmtp;
before(async () => {
  smtp = await startSmtp();
  d = await startDashboard({ signup: 'open', mail: { smtpUrl: smtp.url, from: 'no-reply@example.com' } });
  useMailbox(d.url, smtpMailbox(smtp));
  d.clock.startWindow(RESEND_MS); // the resend and per-address windows (15 minutes) outlast this file
});
after(async () => {
  await d?.close();
  await smtp?.close();
});

const ask = (c: Client, email: string) => c.submit('/dashboard/forgot', '/dashboard/forgot', { email });
const quiet = () => new Promise((r) => setTimeout(r, 400));

test('a reset link by mail, once per 15 minutes, with the same answer for an unknown address', async () => {
  const dev = new Client(d.url);
  assert.equal((await dev.signUp('forgetful@example.com', 'the old password')).status, 303);
  const stranger = new Client(d.url);
  const known = await ask(stranger, 'Forgetful@Example.com');
  const knownHtml = await known.text();
  const unknown = await ask(stranger, 'nobody@example.com');
  const unknownHtml = await unknown.text();
  assert.equal(known.status, 200);
  assert.equal(unknown.status, 200);
  const strip = (h: string) => h.replace(/value="[^"]*"/g, '').replace(/<strong>[^<]*<\/strong>/g, '');
  assert.equal(strip(knownHtml), strip(unknownHtml), 'the page does not say whether the account exists');
  const [mail] = await smtp.waitFor(1);
  await quiet();
  assert.equal(smtp.mails.length, 1, 'no mail for the unknown address');
  assert.equal((mail.to as { text: string }).text, 'forgetful@example.com');
  const link = /(http:\/\/\S+\/dashboard\/reset\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  assert.ok(link?.startsWith(d.server.dashboardUrl!), 'the link points at the dashboard address, not the Host header');

  assert.equal((await ask(stranger, 'forgetful@example.com')).status, 200);
  await quiet();
  assert.equal(smtp.mails.length, 1, 'a second ask within 15 minutes sends nothing more');

  const path = new URL(link!).pathname;
  const r = await stranger.submit(path, path, { password: 'a brand new password', confirm: 'a brand new password' });
  assert.equal(r.status, 200);
  assert.equal((await new Client(d.url).signIn('forgetful@example.com', 'a brand new password')).status, 303);
  assert.equal((await new Client(d.url).signIn('forgetful@example.com', 'the old password')).status, 401);
  assert.match((await stranger.page(path)).html, /This reset link is not valid/, 'the link works once');
});

test('a Host header cannot put another address into the mail; one client address is limited', async () => {
  const dev = new Client(d.url);
  assert.equal((await dev.signUp('host@example.com', 'the old password')).status, 303);
  const evil = new Client(d.url, { host: 'evil.example' });
  const before = smtp.mails.length;
  assert.equal((await ask(evil, 'host@example.com')).status, 200);
  const mails = await smtp.waitFor(before + 1);
  assert.doesNotMatch(mails[before].text ?? '', /evil\.example/);
  const flood = new Client(d.url);
  let last = 0;
  for (let i = 0; i <= MAX_PER_ADDRESS; i++) last = (await ask(flood, `n${i}@example.com`)).status;
  assert.equal(last, 429);
  assert.equal((await ask(flood, '')).status, 400);
});
