// Usage alerts over a real SMTP server, two instances on one store: 80 % and 100 % of the
// sandbox cap (per account, whichever key made the calls), a trial with 10 requests or 3 days
// left, each mailed once however many instances check; an account with alerts off gets none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAccounts } from '../src/access';
import { Client, startDashboard, type DashboardServer, smtpMailbox, useMailbox } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';
import { startSmtp, type TestSmtp } from './support/smtp';

const PLANS = [
  {
    name: 'trial',
    trial: { requests: 20, days: 14 },
    monthlyIncluded: null,
    monthlyCeiling: null,
    ratePerSecond: 100,
    barcode: true,
  },
  {
    name: 'sandbox',
    trial: null,
    monthlyIncluded: 10,
    monthlyCeiling: 10,
    ratePerSecond: 100,
    barcode: false,
    choice: 'free',
  },
];
let a: DashboardServer;
let b: DashboardServer;
let smtp: TestSmtp;
let dir = '';

before(async () => {
  smtp = await startSmtp();
  const fixture = await buildFixture();
  dir = fixture.dir;
  const plans = path.join(dir, 'plans.json');
  fs.writeFileSync(plans, JSON.stringify(PLANS));
  const opts = { catalogue: fixture.file, dir, plans, store: `sqlite:${path.join(dir, 'a.sqlite')}` };
  const settings = { signup: 'open' as const, mail: { smtpUrl: smtp.url, from: 'alerts@example.com' } };
  a = await startDashboard(settings, opts);
  b = await startDashboard(settings, opts);
  useMailbox(a.url, smtpMailbox(smtp));
});
after(async () => {
  await a?.server.close();
  await b?.server.close();
  await smtp?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const call = (key: string) => fetch(`${b.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } });
/** The last charge is counted in the store's next group commit, just after its answer. */
const settle = () => new Promise((r) => setTimeout(r, 300));
const checkBoth = async () => (await a.server.alerts!.check()) + (await b.server.alerts!.check());

async function developer(email: string, plan: string): Promise<{ c: Client; keys: string[] }> {
  const c = new Client(a.url);
  assert.equal((await c.signUp(email, 'a fine password')).status, 303);
  const accounts = await openAccounts(a.store, { purpose: 'admin', plansFile: path.join(dir, 'plans.json') });
  const user = (await accounts.snapshot()).accounts.find((x) => x.email === email)!;
  await accounts.updateAccount(user.name, { plan });
  await accounts.close();
  return { c, keys: [(await c.createKey('one')).key, (await c.createKey('two')).key] };
}

test('80 % and 100 % of the cap, and a trial near its end, each mailed once; alerts off: none', async () => {
  const capped = await developer('capped@example.com', 'sandbox');
  const quiet = await developer('quiet@example.com', 'sandbox');
  const trial = await developer('trying@example.com', 'trial');
  const { csrf } = await quiet.c.page('/dashboard/account');
  assert.equal((await quiet.c.post('/dashboard/account/alerts', { _csrf: csrf, on: '0' })).status, 303);
  assert.match((await quiet.c.page('/dashboard/account')).html, /Usage alerts by mail<\/strong> are <strong>off/);

  for (let i = 0; i < 8; i++) await call(capped.keys[i % 2]); // 8 of 10, across both keys
  for (let i = 0; i < 9; i++) await call(quiet.keys[0]);
  for (let i = 0; i < 11; i++) await call(trial.keys[0]); // 9 of 20 left
  await settle();
  // The mails are counted, not check()'s results: the plugin's own first check (10 s after
  // start) may come first while the sign-ups (confirmed by mail) take their time.
  await checkBoth();
  assert.equal(await checkBoth(), 0, 'nothing twice');
  await smtp.waitFor(2);
  const subjects = smtp.mails.map((m) => `${(m.to as { text: string }).text}: ${m.subject}`).sort();
  assert.deepEqual(subjects, [
    "capped@example.com: 80 % of your sandbox plan's monthly cap used",
    'trying@example.com: Your Cosmetics Catalogue API trial has 9 requests left',
  ]);
  const capMail = smtp.mails.find((m) => /capped/.test((m.to as { text: string }).text))!;
  assert.match(capMail.text ?? '', /8 calls this month \(UTC\), 80 % of the 10 calls a month \(its cap\)/);
  assert.match(capMail.text ?? '', /turn them off on your account page/);

  for (let i = 0; i < 2; i++) await call(capped.keys[0]);
  await settle();
  await checkBoth();
  a.clock.offset = b.clock.offset = 12 * 86_400_000; // the trial has 2 days left
  await checkBoth();
  assert.equal(await checkBoth(), 0, 'nothing twice');
  await smtp.waitFor(4);
  await settle();
  assert.equal(smtp.mails.length, 4);
  const later = smtp.mails
    .slice(2)
    .map((m) => m.subject)
    .sort();
  assert.deepEqual(later, [
    "100 % of your sandbox plan's monthly cap used",
    'Your Cosmetics Catalogue API trial has 2 days left',
  ]);
  assert.ok(!smtp.mails.some((m) => /quiet/.test((m.to as { text: string }).text)), 'alerts off: no mail');
});
