// Sign-up that a script cannot repeat cheaply, over real HTTP (docs/dashboard.md, "Sign-up"):
// a client address may sign up MAX_SIGNUPS_PER_ADDRESS times an hour (25 at once from one
// address make 5 accounts, not 25); an account makes no key until its email address is
// confirmed by the mailed link; a sign-up with the email of an existing account answers
// exactly as a new one does and mails the owner a note instead. And the account page says
// that the plan's allowances are the account's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openAccounts } from '../src/access';
import { hashesAtOnce, setHashesAtOnce } from '../src/access/passwords';
import { MAX_SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW_MS } from '../src/dashboard/routes/signup';
import { Client, outboxMailbox, startDashboard, type DashboardServer } from './support/dashboard';
import { productId } from './support/fixture';

const PASSWORD = 'a fine password';
let d: DashboardServer;
before(async () => {
  d = await startDashboard({ signup: 'open', signupPlan: 'sandbox' });
});
after(() => d?.close());

const api = (key: string) => fetch(`${d.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } });
/** The page without its form tokens (each form has its own). */
const strip = (html: string) => html.replace(/name="_csrf" value="[^"]*"/g, '');

async function storeView<T>(look: (a: Awaited<ReturnType<typeof openAccounts>>) => Promise<T>): Promise<T> {
  const accounts = await openAccounts(d.store, { purpose: 'admin' });
  try {
    return await look(accounts);
  } finally {
    await accounts.close();
  }
}

test('a key works only once the address is confirmed by the mailed link', async () => {
  const c = new Client(d.url);
  const res = await c.signUpOnly('new@example.com', PASSWORD);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Check your mail/);
  assert.equal(c.cookies.get('catalogue_session'), undefined, 'a sign-up signs nobody in');
  assert.equal((await c.signIn('new@example.com', PASSWORD)).status, 303, 'an unconfirmed account may sign in');
  const keys = await c.page('/dashboard/keys');
  assert.match(keys.html, /Confirm your email address to make keys/);
  assert.doesNotMatch(keys.html, /class="create"/, 'no key form before the address is confirmed');
  const refused = await c.submit('/dashboard/keys', '/dashboard/keys', { name: 'early' });
  assert.equal(refused.status, 403, 'a key asked for anyway is refused');
  assert.doesNotMatch(await refused.text(), /secret-value/);
  const user = (await storeView((a) => a.userByEmail('new@example.com')))!;
  assert.deepEqual(await storeView((a) => a.keys(user.name)), [], 'no key was made');

  const resent = await c.submit('/dashboard/keys', '/dashboard/confirm', {});
  assert.equal(resent.status, 200, 'a new link may be asked for');
  const link = await outboxMailbox(d.store)('new@example.com');
  assert.ok(link.startsWith(d.server.dashboardUrl!), 'the link starts at the dashboard address');
  const confirmed = await c.get(new URL(link).pathname);
  assert.equal(confirmed.status, 200);
  assert.match(await confirmed.text(), /Address confirmed/);
  assert.equal((await c.get(new URL(link).pathname)).status, 400, 'the link works once');
  const { key } = await c.createKey('production');
  assert.match(key, /^ck_/);
  assert.equal((await api(key)).status, 200);

  const account = await c.page('/dashboard/account');
  assert.match(account.html, /100 calls a month for the account/, 'the sandbox cap is the account’s');
  assert.match(account.html, /5 requests a second for the account/);
  assert.doesNotMatch(account.html, /per key/);
});

test('a sign-up with the email of an existing account answers as a new one and mails the owner', async () => {
  const owner = new Client(d.url);
  assert.equal((await owner.signUp('owner@example.com', PASSWORD)).status, 303);
  const mailsBefore = await storeView(async (a) => (await a.outbox.mails(0, 1000)).total);

  const fresh = await new Client(d.url).signUpOnly('someone-new@example.com', PASSWORD);
  const again = await new Client(d.url).signUpOnly('Owner@Example.com', 'another fine password');
  assert.equal(again.status, fresh.status);
  const [freshHtml, againHtml] = [await fresh.text(), await again.text()];
  assert.equal(
    strip(againHtml).replace(/Owner@Example\.com/g, 'X'),
    strip(freshHtml).replace(/someone-new@example\.com/g, 'X'),
    'the page does not say whether the email has an account',
  );
  assert.deepEqual(
    again.headers.getSetCookie().map((c) => c.split('=')[0]),
    fresh.headers.getSetCookie().map((c) => c.split('=')[0]),
  );
  await new Promise((r) => setTimeout(r, 300)); // the mails are made after the answers
  const mails = await storeView(async (a) => (await a.outbox.mails(0, 1000)).mails);
  assert.equal(mails.length, mailsBefore + 2, 'one mail each');
  const toOwner = mails.find((m) => m.to === 'owner@example.com' && /already has an account/.test(m.text))!;
  assert.ok(toOwner, 'the owner is told someone tried');
  assert.doesNotMatch(toOwner.text, /\/dashboard\/confirm\//, 'with no confirmation link');
  assert.match(toOwner.text, /\/dashboard\/forgot/);
  assert.ok(mails.some((m) => m.to === 'someone-new@example.com' && /\/dashboard\/confirm\//.test(m.text)));
  assert.equal((await new Client(d.url).signIn('owner@example.com', 'another fine password')).status, 401);
  assert.equal((await new Client(d.url).signIn('owner@example.com', PASSWORD)).status, 303, 'the owner’s password');
});

test(`25 sign-ups at once from one address make ${MAX_SIGNUPS_PER_ADDRESS} accounts, the rest refused`, async () => {
  const own = await startDashboard({ signup: 'open' });
  own.clock.startWindow(SIGNUP_WINDOW_MS);
  const previous = hashesAtOnce();
  setHashesAtOnce(Infinity); // only the sign-up limit decides here (the hashing bound has its own test)
  try {
    const clients = Array.from({ length: 25 }, () => new Client(own.url));
    const tokens = await Promise.all(clients.map(async (c) => (await c.page('/dashboard/sign-up')).csrf));
    const answers = await Promise.all(
      clients.map((c, i) =>
        c.post('/dashboard/sign-up', {
          _csrf: tokens[i],
          email: `script${i}@example.com`,
          password: PASSWORD,
          confirm: PASSWORD,
          invite: '',
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 429).length, 25 - MAX_SIGNUPS_PER_ADDRESS, statuses.join(' '));
    assert.match(await answers[statuses.indexOf(429)].text(), /Too many sign-ups from your network/);
    const accounts = await openAccounts(own.store, { purpose: 'admin' });
    try {
      const made = (await accounts.snapshot()).accounts.filter((a) => a.email?.startsWith('script'));
      assert.equal(made.length, statuses.filter((s) => s === 200).length);
      assert.ok(made.length <= MAX_SIGNUPS_PER_ADDRESS);
    } finally {
      await accounts.close();
    }
  } finally {
    setHashesAtOnce(previous);
    await own.close();
  }
});
