// The dashboard's security rules over real HTTP (docs/dashboard.md, "Security"), each with a
// test: the session cookie's flags, a new session id at sign-in, sessions ended at sign-out,
// at a password change and by the idle and absolute timeouts (on the server's injected clock),
// CSRF on every state-changing form, the CSP and the API's headers, one answer for an unknown
// email and a wrong password, attempt limits, authorization between accounts and for admin
// pages, escaping and length limits of every field, and a store outage answered by a plain
// 503 page while /v1 keeps its 503.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { IDLE_MS, ABSOLUTE_MS } from '../src/dashboard/settings';
import { COOKIE, CSP, CSRF_COOKIE } from '../src/dashboard';
import { LIMITS } from '../src/access';
import { ADMIN, Client, startDashboard, type DashboardServer } from './support/dashboard';
import { productId } from './support/fixture';

const PASSWORD = 'a fine password';
let t: DashboardServer;
let n = 0;
/** A new developer account, signed in. */
async function developer(): Promise<{ c: Client; email: string }> {
  const email = `dev${++n}@example.com`;
  const c = new Client(t.url, { 'x-forwarded-for': `10.1.0.${n}` });
  const res = await c.signUp(email, PASSWORD);
  assert.equal(res.status, 303, await res.text());
  return { c, email };
}
const api = (key: string) => fetch(`${t.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } });

before(async () => {
  t = await startDashboard({ signup: 'open', trustProxy: true });
});
after(() => t?.close());

describe('sessions', () => {
  test('the cookies are HttpOnly, SameSite=Lax, on /dashboard, Secure only over HTTPS behind the proxy', async () => {
    const { email } = await developer();
    for (const proto of ['http', 'https']) {
      const c = new Client(t.url, { 'x-forwarded-proto': proto, 'x-forwarded-for': '10.1.9.9' });
      const visit = await c.get('/dashboard/sign-in');
      assert.equal(visit.headers.getSetCookie().filter((k) => k.startsWith(`${COOKIE}=`)).length, 0, 'no session yet');
      const form = visit.headers.getSetCookie().find((k) => k.startsWith(`${CSRF_COOKIE}=`))!;
      const signedIn = await c.post('/dashboard/sign-in', {
        _csrf: /name="_csrf" value="([^"]+)"/.exec(await visit.text())![1],
        email,
        password: PASSWORD,
      });
      assert.equal(signedIn.status, 303);
      const session = signedIn.headers.getSetCookie().find((k) => k.startsWith(`${COOKIE}=`))!;
      for (const cookie of [form, session]) {
        assert.match(cookie, /; HttpOnly/);
        assert.match(cookie, /; SameSite=Lax/);
        assert.match(cookie, /; Path=\/dashboard/);
        if (proto === 'https') assert.match(cookie, /; Secure/);
        else assert.doesNotMatch(cookie, /; Secure/);
      }
    }
  });

  test('behind no trusted proxy, X-Forwarded-Proto is ignored', async () => {
    const own = await startDashboard(
      { trustProxy: false },
      { catalogue: t.catalogue, dir: t.dir, store: `sqlite:${t.dir}/other.sqlite` },
    );
    try {
      const res = await new Client(own.url, { 'x-forwarded-proto': 'https' }).get('/dashboard/sign-in');
      assert.doesNotMatch(res.headers.getSetCookie().join('\n'), /; Secure/);
    } finally {
      await own.server.close();
    }
  });

  test('the session id changes at sign-in; the one before gives no access', async () => {
    const { email } = await developer();
    const c = new Client(t.url);
    const { csrf } = await c.page('/dashboard/sign-in');
    const before = c.cookies.get(COOKIE)!;
    const res = await c.post('/dashboard/sign-in', { _csrf: csrf, email, password: PASSWORD });
    assert.equal(res.status, 303);
    assert.notEqual(c.cookies.get(COOKIE), before);
    const stale = new Client(t.url);
    stale.cookies.set(COOKIE, before);
    assert.equal((await stale.get('/dashboard/keys')).status, 303);
    assert.equal((await c.get('/dashboard/keys')).status, 200);
  });

  test('sign-out ends the session in the store: its cookie replayed gives no access', async () => {
    const { c } = await developer();
    const saved = c.cookies.get(COOKIE)!;
    assert.equal((await c.submit('/dashboard/account', '/dashboard/sign-out', {})).status, 303);
    const replay = new Client(t.url);
    replay.cookies.set(COOKIE, saved);
    const res = await replay.get('/dashboard/keys');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/sign-in');
  });

  test("a password change ends the account's other sessions, and keeps the one that made it", async () => {
    const { c, email } = await developer();
    const other = new Client(t.url);
    await other.signIn(email, PASSWORD);
    assert.equal((await other.get('/dashboard/keys')).status, 200);
    const res = await c.submit('/dashboard/password', '/dashboard/password', {
      current: PASSWORD,
      password: 'the next password',
      confirm: 'the next password',
    });
    assert.equal(res.status, 200);
    assert.equal((await other.get('/dashboard/keys')).status, 303, 'the other session ended');
    assert.equal((await c.get('/dashboard/keys')).status, 200, 'this one goes on');
  });

  test('a session unused for the idle time ends; one in use ends at the absolute time', async () => {
    const { c } = await developer();
    t.clock.offset += IDLE_MS - 1000;
    assert.equal((await c.get('/dashboard/keys')).status, 200);
    t.clock.offset += IDLE_MS;
    assert.equal((await c.get('/dashboard/keys')).status, 303, 'idle');
    const { c: busy } = await developer();
    const step = IDLE_MS / 2;
    let used = 0;
    for (; used + step < ABSOLUTE_MS; used += step) {
      t.clock.offset += step;
      assert.equal((await busy.get('/dashboard/account')).status, 200, `after ${used + step} ms`);
    }
    t.clock.offset += step;
    assert.equal((await busy.get('/dashboard/account')).status, 303, 'absolute');
  });
});

describe('CSRF', () => {
  test('every state-changing form is refused without the session token, or with another session’s', async () => {
    const { c } = await developer();
    const { id } = await c.createKey('mine');
    const anon = new Client(t.url);
    const { csrf: strangers } = await anon.page('/dashboard/sign-in');
    const forms: [Client, string, Record<string, string>][] = [
      [anon, '/dashboard/sign-in', { email: 'x@example.com', password: PASSWORD }],
      [anon, '/dashboard/sign-up', { email: 'y@example.com', password: PASSWORD, confirm: PASSWORD }],
      [c, '/dashboard/keys', { name: 'csrf' }],
      [c, `/dashboard/keys/${id}/roll`, { grace: 'none' }],
      [c, `/dashboard/keys/${id}/disable`, {}],
      [c, '/dashboard/password', { current: PASSWORD, password: 'x'.repeat(12), confirm: 'x'.repeat(12) }],
      [c, '/dashboard/playground', { text: 'Water', key: id }],
      [c, '/dashboard/sign-out', {}],
      [anon, '/dashboard/reset/abc', { password: 'x'.repeat(12), confirm: 'x'.repeat(12) }],
    ];
    for (const [client, action, fields] of forms) {
      for (const token of [undefined, 'not-a-token', strangers]) {
        const body = token === undefined ? fields : { ...fields, _csrf: token };
        if (client === anon && token === strangers) continue; // that one is anon's own
        const res = await client.post(action, body);
        assert.equal(res.status, 403, `${action} with ${token ?? 'no token'}`);
        assert.match(await res.text(), /This form has expired/);
      }
    }
    assert.equal(
      (await api((await c.createKey('still')).key)).status,
      200,
      'nothing changed: the key was not disabled',
    );
  });

  test('admin forms too', async () => {
    const admin = new Client(t.url, { 'x-forwarded-for': '10.9.9.9' });
    await admin.signIn(ADMIN.email, ADMIN.password);
    for (const action of [
      '/dashboard/admin/invites',
      '/dashboard/admin/accounts/x/plan',
      '/dashboard/admin/accounts/x/payment',
    ])
      assert.equal((await admin.post(action, { plan: 'pro', on: '1' })).status, 403, action);
  });
});

describe('headers', () => {
  test('pages carry the dashboard CSP (no inline script) beside the API’s headers; /v1 is unchanged', async () => {
    const { c } = await developer();
    for (const p of ['/dashboard/sign-in', '/dashboard/keys', '/dashboard/usage', '/dashboard/assets/dashboard.js']) {
      const res = await c.get(p);
      assert.equal(res.headers.get('content-security-policy'), CSP, p);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', p);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', p);
      if (p.includes('/assets/'))
        assert.equal(res.headers.get('set-cookie'), null, 'files are served without a session');
      const html = await res.text();
      for (const m of html.matchAll(/<script\b([^>]*)>/g))
        assert.match(m[1], /\bsrc=|type="application\/json"/, `an inline script in ${p}`);
      assert.doesNotMatch(html, /\son[a-z]+=/i, `an inline handler in ${p}`);
    }
    const v1 = await fetch(`${t.url}/v1/products/${productId(0)}`);
    assert.equal(v1.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
    assert.equal(v1.headers.get('set-cookie'), null);
    assert.equal(v1.headers.get('cross-origin-opener-policy'), null, 'no dashboard header on /v1');
  });
});

describe('sign-in', () => {
  test('an unknown email and a wrong password get the same answer after the same work', async () => {
    const { email } = await developer();
    const attempt = async (e: string) => {
      const c = new Client(t.url, { 'x-forwarded-for': '10.2.0.1' });
      const { csrf } = await c.page('/dashboard/sign-in');
      const start = process.hrtime.bigint();
      const res = await c.post('/dashboard/sign-in', { _csrf: csrf, email: e, password: 'wrong password' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const html = (await res.text()).replace(/value="[^"]*"/g, '');
      return { status: res.status, html, ms };
    };
    const known = await attempt(email);
    const unknown = await attempt('nobody@example.com');
    assert.equal(unknown.status, known.status);
    assert.equal(unknown.html, known.html);
    assert.match(known.html, /do not match an account/);
    // Both pay for one scrypt hash (about 0.1–0.25 s here); without the dummy hash an unknown email takes ~1 ms.
    assert.ok(unknown.ms > known.ms / 4, `unknown ${unknown.ms} ms, known ${known.ms} ms`);
  });

  test(`failures are limited per email and address (${LIMITS.pair.max}) and per address (${LIMITS.address.max}) for minutes`, async () => {
    t.clock.startWindow(LIMITS.pair.windowMs); // no count starts again mid-test
    const { email } = await developer();
    const from = (addr: string) => new Client(t.url, { 'x-forwarded-for': addr });
    for (let i = 0; i < LIMITS.pair.max; i++)
      assert.equal((await from('10.3.0.1').signIn(email, 'wrong password')).status, 401);
    const limited = await from('10.3.0.1').signIn(email, PASSWORD);
    assert.equal(limited.status, 429, 'even the right password, from that address');
    assert.match(
      await limited.text(),
      /Too many failed sign-ins for this account from your network\. Wait five minutes/,
    );
    assert.equal((await from('10.3.1.1').signIn(email, PASSWORD)).status, 303, 'the owner, elsewhere, signs in');
    for (let i = 0; i < LIMITS.address.max; i++)
      assert.equal((await from('10.4.4.4').signIn(`stranger${i}@example.com`, 'wrong password')).status, 401);
    const other = await developer();
    const byAddress = await from('10.4.4.4').signIn(other.email, PASSWORD);
    assert.equal(byAddress.status, 429);
    assert.match(await byAddress.text(), /Too many failed sign-ins from your network/);
    assert.equal((await from('10.4.4.5').signIn(other.email, PASSWORD)).status, 303, 'another address is not limited');
    t.clock.offset += LIMITS.pair.windowMs;
    assert.equal((await from('10.3.0.1').signIn(email, PASSWORD)).status, 303, 'the next window');
  });
});

describe('authorization', () => {
  test("a developer can neither see nor change another account's keys or usage", async () => {
    const a = await developer();
    const b = await developer();
    const key = await a.c.createKey('private name');
    assert.match(key.id, /^key_[A-Za-z0-9_-]{12}$/, 'ids carry 72 random bits');
    for (const action of [`/dashboard/keys/${key.id}/roll`, `/dashboard/keys/${key.id}/disable`]) {
      const res = await b.c.submit('/dashboard/keys', action, { grace: 'none' });
      assert.equal(res.status, 404, action);
    }
    await b.c.createKey('b has a key');
    const play = await b.c.submit('/dashboard/playground', '/dashboard/playground', { text: 'Water', key: key.id });
    assert.equal(play.status, 400);
    assert.match(await play.text(), /Choose one of your keys/);
    for (const p of [
      '/dashboard/keys',
      '/dashboard/usage',
      '/dashboard/usage.csv',
      '/dashboard/account',
      '/dashboard/playground',
    ]) {
      const text = await (await b.c.get(p)).text();
      assert.ok(!text.includes(key.id) && !text.includes('private name'), p);
    }
    assert.equal((await api(key.key)).status, 200, "a's key still works");
  });

  test('admin pages and forms refuse developers with 403', async () => {
    const { c } = await developer();
    for (const p of [
      '/dashboard/admin',
      '/dashboard/admin/accounts',
      '/dashboard/admin/accounts/x',
      '/dashboard/admin/usage',
      '/dashboard/admin/usage.csv',
      '/dashboard/admin/settings',
    ])
      assert.equal((await c.get(p)).status, 403, p);
    for (const p of [
      '/dashboard/admin/invites',
      '/dashboard/admin/accounts/x/plan',
      '/dashboard/admin/accounts/x/disabled',
    ])
      assert.equal((await c.submit('/dashboard/keys', p, { plan: 'pro', on: '1' })).status, 403, p);
  });

  test('signed-out visitors are sent to sign in from every page', async () => {
    const anon = new Client(t.url);
    for (const p of [
      '/dashboard/account',
      '/dashboard/keys',
      '/dashboard/usage',
      '/dashboard/playground',
      '/dashboard/admin/accounts',
    ])
      assert.equal((await anon.get(p)).headers.get('location'), '/dashboard/sign-in', p);
  });
});

describe('input', () => {
  test('key names: markup, quotes, 10,000 characters, invalid UTF-8 and empty', async () => {
    const { c } = await developer();
    const nasty = `<script>alert(1)</script>"'&`;
    const made = await c.createKey(nasty);
    assert.ok(
      made.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;'),
      'escaped on the secret page',
    );
    const list = await (await c.get('/dashboard/keys')).text();
    assert.ok(!list.includes('<script>alert(1)'), 'escaped in the list');
    for (const [name, message] of [
      ['x'.repeat(10_000), 'A key name has at most 60 characters.'],
      ['', 'Give the key a name'],
      ['   ', 'Give the key a name'],
    ]) {
      const res = await c.submit('/dashboard/keys', '/dashboard/keys', { name });
      assert.equal(res.status, 400);
      const html = await res.text();
      assert.match(html, new RegExp(`<small id="e-name" class="error">${message}`));
    }
    const { csrf } = await c.page('/dashboard/keys');
    const res = await c.request('/dashboard/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${encodeURIComponent(csrf)}&name=%ff%fe%3Cb%3E`,
    });
    assert.equal(res.status, 200);
    // The form parser keeps a field that is not valid percent-encoded UTF-8 as it was sent: shown as text.
    assert.match(await res.text(), /<strong>%ff%fe%3Cb%3E<\/strong>/);
  });

  test('the playground takes a label as long as the API does (100,000 characters), not one more', async () => {
    const { c } = await developer();
    const { id } = await c.createKey('long labels');
    const label = 'Aqua, Glycerin, '.repeat(6_250); // 100,000 characters
    const accepted = await c.submit('/dashboard/playground', '/dashboard/playground', { text: label, key: id });
    assert.equal(accepted.status, 200);
    assert.match(await accepted.text(), /12500 entries/);
    const refused = await c.submit('/dashboard/playground', '/dashboard/playground', { text: label + 'x', key: id });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /<small id="e-text" class="error">A label has at most 100,000 characters/);
  });

  test('emails and passwords: each message next to its field', async () => {
    const c = new Client(t.url);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ email: '', password: PASSWORD, confirm: PASSWORD }, 'email', /Enter your email address/],
      [{ email: `${'a'.repeat(250)}@example.com`, password: PASSWORD, confirm: PASSWORD }, 'email', /at most 254/],
      [{ email: '"<script>"@example.com', password: PASSWORD, confirm: PASSWORD }, 'email', /like name@example.com/],
      [{ email: 'ok@example.com', password: 'short', confirm: 'short' }, 'password', /at least 10/],
      [
        { email: 'ok@example.com', password: 'p'.repeat(10_000), confirm: 'p'.repeat(10_000) },
        'password',
        /at most 200/,
      ],
      [{ email: 'ok@example.com', password: PASSWORD, confirm: 'other' }, 'confirm', /differ/],
    ];
    for (const [fields, field, message] of cases) {
      const res = await c.submit('/dashboard/sign-up', '/dashboard/sign-up', fields);
      assert.equal(res.status, 400);
      const html = await res.text();
      assert.match(html, new RegExp(`<small id="e-${field}" class="error">`));
      assert.match(html, message);
      assert.ok(!html.includes('<script>"@'), 'the email is escaped when shown again');
    }
  });

  test('a form body above the limit is a plain 413 page', async () => {
    const { c } = await developer();
    const { csrf } = await c.page('/dashboard/keys');
    const res = await c.post('/dashboard/keys', { _csrf: csrf, name: 'x'.repeat(300 * 1024) });
    assert.equal(res.status, 413);
    assert.match(await res.text(), /Too much text/);
  });
});

describe('invitations', () => {
  test('with sign-up by invitation, only an invitation link makes an account, once', async () => {
    const own = await startDashboard(
      { signup: 'invite' },
      { catalogue: t.catalogue, dir: t.dir, store: `sqlite:${t.dir}/invite.sqlite` },
    );
    try {
      const closed = await new Client(own.url).signUp('x@example.com', PASSWORD);
      assert.equal(closed.status, 403);
      const admin = new Client(own.url);
      await admin.signIn(ADMIN.email, ADMIN.password);
      const made = await (
        await admin.submit('/dashboard/admin/accounts', '/dashboard/admin/invites', { plan: 'starter' })
      ).text();
      const token = /invite=([A-Za-z0-9_-]+)/.exec(made)![1];
      const invited = new Client(own.url);
      assert.equal((await invited.signUp('invited@example.com', PASSWORD, token)).status, 303);
      assert.match(await (await invited.get('/dashboard/account')).text(), /starter/);
      assert.equal((await new Client(own.url).signUp('again@example.com', PASSWORD, token)).status, 403, 'once');
    } finally {
      await own.server.close();
    }
  });
});

describe('store outage', () => {
  test('an unreadable store: a plain 503 page on the dashboard, the 503 rule on /v1', async () => {
    const own = await startDashboard(
      {},
      { catalogue: t.catalogue, dir: t.dir, store: `sqlite:${t.dir}/outage.sqlite` },
    );
    try {
      const c = new Client(own.url);
      await c.signIn(ADMIN.email, ADMIN.password);
      fs.writeFileSync(`${t.dir}/outage.sqlite`, 'this is not a database\n'.repeat(400));
      for (const p of ['/dashboard/keys', '/dashboard/sign-in', '/dashboard/admin/accounts']) {
        const res = await c.get(p);
        assert.equal(res.status, 503, p);
        const html = await res.text();
        assert.match(html, /Service unavailable/);
        assert.match(html, /retry/);
      }
      const v1 = await fetch(`${own.url}/v1/products/${productId(0)}`, {
        headers: { 'x-api-key': `ck_${'a'.repeat(43)}` },
      });
      assert.equal(v1.status, 503);
      assert.match(await v1.text(), /Unable to verify API access, retry shortly/);
    } finally {
      await own.server.close();
    }
  });
});
