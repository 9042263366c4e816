// The dashboard's password checks under attack (issue 31, items 3, 4, 5, 6 and 8), over real
// HTTP, on SQLite and on Redis (db 14, a random prefix): concurrent guesses are counted before
// they are checked; the client address behind a proxy is the right-most untrusted one; a
// stranger guessing from many addresses does not keep the owner out; password hashing is
// bounded, on threads of the lowest priority, and the rest refused without waiting for a hash
// (the refusal held for its Retry-After second), except the owner's browser, which has a slot
// kept for it; the change-password form has an attempt limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { LIMITS } from '../src/access';
import { hashesAtOnce, hashStats, resetHashStats, setHashesAtOnce, verifyPassword } from '../src/access/passwords';
import { parseTrustProxy } from '../src/http/trust-proxy';
import { Client, startDashboard, type DashboardServer } from './support/dashboard';
import type { DashboardSettings } from '../src/dashboard';
import { buildFixture } from './support/fixture';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

const PASSWORD = 'the right password';
const WRONG = 'a wrong password';
const BUSY = /Too many sign-ins right now\. Try again in a moment\./;

const prefixes: string[] = [];
const STORES = [
  { name: 'sqlite', spec: (dir: string) => `sqlite:${dir}/signin-${randomBytes(3).toString('hex')}.sqlite` },
  {
    name: 'redis',
    spec: () => {
      const prefix = `signin-${randomBytes(4).toString('hex')}:`;
      prefixes.push(prefix);
      return `${REDIS}?prefix=${prefix}`;
    },
  },
];

let dir = '';
let catalogue = '';
let redisSkip: string | false = false;

before(async () => {
  ({ dir, file: catalogue } = await buildFixture());
  if (!(await redisUp())) {
    if (process.env.CI) throw new Error(`no Redis reachable at ${REDIS}, and CI is set: Redis tests must run`);
    redisSkip = `SKIPPED: no Redis reachable at ${REDIS}`;
  }
});

after(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (!redisSkip) await dropPrefixes(prefixes);
});

/** Counts of each status, e.g. { 401: 5, 429: 195 }. */
function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

let seq = 0;

for (const store of STORES) {
  describe(store.name, () => {
    const skip = () => (store.name === 'redis' ? redisSkip : false);
    const servers: DashboardServer[] = [];
    /** A server of its own for one test (limits are per store); `true`: one proxy in front, as `--trust-proxy` alone. */
    async function server(trustProxy: DashboardSettings['trustProxy'] = true): Promise<DashboardServer> {
      const t = await startDashboard({ signup: 'open', trustProxy }, { catalogue, dir, store: store.spec(dir) });
      servers.push(t);
      t.clock.startWindow(LIMITS.email.windowMs); // every limit's window starts a second ago
      return t;
    }
    after(async () => {
      for (const t of servers) await t.server.close();
    });

    /** A new account (made from an address of its own); its email. */
    async function account(t: DashboardServer): Promise<string> {
      const email = `${store.name}-${++seq}@example.com`;
      const res = await new Client(t.url, { 'x-forwarded-for': `10.99.${seq >> 8}.${seq & 255}` }).signUp(
        email,
        PASSWORD,
      );
      assert.ok(res.status < 400, `sign-up: ${res.status}`);
      return email;
    }

    /** One sign-in from `address` (X-Forwarded-For), with a new browser unless `c` is given. */
    async function signIn(t: DashboardServer, address: string, email: string, password: string, c?: Client) {
      const client = c ?? new Client(t.url, { 'x-forwarded-for': address });
      const res = await client.signIn(email, password);
      return { status: res.status, html: await res.text() };
    }

    test('200 concurrent guesses from one address: at most the limit are checked; the right one at 151 is refused (item 3)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const t = await server();
      const email = await account(t);
      const previous = hashesAtOnce();
      setHashesAtOnce(Infinity); // only the attempt limit decides here (the hashing bound is item 6's test)
      try {
        const c = new Client(t.url, { 'x-forwarded-for': '10.31.0.1' });
        const { csrf } = await c.page('/dashboard/sign-in');
        const sent = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            c.post('/dashboard/sign-in', { _csrf: csrf, email, password: i === 150 ? PASSWORD : WRONG }),
          ),
        );
        const statuses = sent.map((r) => r.status);
        await Promise.all(sent.map((r) => r.text()));
        const counts = tally(statuses);
        ctx.diagnostic(`200 concurrent sign-ins: ${JSON.stringify(counts)}`);
        assert.ok((counts[401] ?? 0) <= LIMITS.pair.max, `checked: ${counts[401]}`);
        assert.notEqual(statuses[150], 303, 'the right password at guess 151 does not sign in');
        assert.equal((counts[401] ?? 0) + (counts[429] ?? 0), 200);
      } finally {
        setHashesAtOnce(previous);
      }
    });

    test('behind one proxy that appends the client, a forged X-Forwarded-For does not escape the limits (item 4)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      for (const [trust, real] of [
        [true, '127.0.0.1'], // `--trust-proxy` alone: one proxy; the client as it appends it
        [['127.0.0.1'], '10.40.0.9'], // `--trust-proxy 127.0.0.1`: the proxy's address
      ] as const) {
        const t = await server(trust as DashboardSettings['trustProxy']);
        const email = await account(t);
        // one email: the per email-and-address limit; 30 emails: the per-address limit (no per-email one applies)
        for (const [emails, limit] of [
          [() => email, LIMITS.pair.max],
          [(i: number) => `nobody-${i}@example.com`, LIMITS.address.max - LIMITS.pair.max],
        ] as const) {
          const statuses: number[] = [];
          for (let i = 0; i < 30; i++)
            statuses.push((await signIn(t, `10.41.${i}.${i}, ${real}`, emails(i), WRONG)).status);
          ctx.diagnostic(
            `${JSON.stringify(trust)}: 30 sign-ins with a rotating forged address: ${JSON.stringify(tally(statuses))}`,
          );
          assert.deepEqual(tally(statuses), { 401: limit, 429: 30 - limit });
        }
      }
    });

    test('guesses from 5 addresses do not keep the owner out; one address is refused; many are slowed (item 5)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const t = await server();
      const email = await account(t);
      const owner = new Client(t.url, { 'x-forwarded-for': '10.51.0.1' });
      for (let i = 1; i <= 5; i++) assert.equal((await signIn(t, `10.52.0.${i}`, email, WRONG)).status, 401);
      assert.equal((await signIn(t, '', email, PASSWORD, owner)).status, 303, 'the owner signs in from their address');

      for (let i = 0; i < LIMITS.pair.max; i++) assert.equal((await signIn(t, '10.53.0.1', email, WRONG)).status, 401);
      const one = await signIn(t, '10.53.0.1', email, PASSWORD);
      assert.equal(one.status, 429, 'one address guessing one email is refused, the right password too');
      assert.match(one.html, /from your network/);

      // a guess spread over many addresses: the per-email limit counts every address together
      const statuses: number[] = [];
      for (let i = 1; i <= LIMITS.email.max; i++) statuses.push((await signIn(t, `10.54.0.${i}`, email, WRONG)).status);
      const spread = await signIn(t, '10.54.1.1', email, PASSWORD);
      ctx.diagnostic(
        `a guess from ${LIMITS.email.max + 1} addresses: ${JSON.stringify(tally(statuses))}, then ${spread.status}`,
      );
      assert.ok(statuses.includes(429), 'the spread guess is refused once the per-email limit is reached');
      assert.equal(spread.status, 429);
      assert.match(spread.html, /from many networks/);
      const back = new Client(t.url, { 'x-forwarded-for': '10.51.0.2' });
      back.cookies = new Map(owner.cookies); // the owner's browser, on another network now
      back.cookies.delete('catalogue_session');
      assert.equal(
        (await signIn(t, '', email, PASSWORD, back)).status,
        303,
        'a browser the owner signed in with is not refused',
      );
    });

    test('password hashing is bounded: concurrent sign-ins beyond it are refused, never queued, with a clear answer held for its Retry-After (item 6)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const t = await server();
      const n = 12;
      const clients = Array.from({ length: n }, (_, i) => new Client(t.url, { 'x-forwarded-for': `10.61.0.${i}` }));
      const tokens = await Promise.all(clients.map((c) => c.page('/dashboard/sign-in')));
      resetHashStats();
      const sentAt = performance.now();
      const sent = await Promise.all(
        clients.map(async (c, i) => {
          const res = await c.post('/dashboard/sign-in', {
            _csrf: tokens[i].csrf,
            email: `nobody${i}@example.com`,
            password: WRONG,
          });
          return Object.assign(res, { ms: performance.now() - sentAt });
        }),
      );
      const answers = await Promise.all(
        sent.map(async (r) => ({
          status: r.status,
          retry: r.headers.get('retry-after'),
          html: await r.text(),
          ms: r.ms,
        })),
      );
      const stats = hashStats();
      ctx.diagnostic(
        `bound ${hashesAtOnce()}: ${JSON.stringify(tally(answers.map((a) => a.status)))}, peak ${stats.peak}, refused ${stats.refused}`,
      );
      assert.ok(stats.peak <= hashesAtOnce(), `at most ${hashesAtOnce()} hashing at once (peak ${stats.peak})`);
      const refused = answers.filter((a) => a.status === 503);
      assert.ok(refused.length > 0, 'the rest are refused');
      for (const a of refused) {
        assert.equal(a.retry, '1');
        assert.ok(a.ms >= 950, `a refusal is sent when its Retry-After second has passed (${a.ms.toFixed(0)} ms)`);
        assert.match(a.html, BUSY);
        assert.match(a.html, /href="\/dashboard(\/sign-in)?"/, 'a way back to the form');
      }
      for (const a of answers) assert.ok(a.status === 401 || a.status === 503, String(a.status));

      // every other scrypt too: sign-up
      const ups = Array.from({ length: 6 }, (_, i) => new Client(t.url, { 'x-forwarded-for': `10.62.0.${i}` }));
      const upTokens = await Promise.all(ups.map((c) => c.page('/dashboard/sign-up')));
      const made = await Promise.all(
        ups.map((c, i) =>
          c.post('/dashboard/sign-up', {
            _csrf: upTokens[i].csrf,
            email: `${store.name}-flood-${i}-${seq++}@example.com`,
            password: PASSWORD,
            confirm: PASSWORD,
          }),
        ),
      );
      const upAnswers = await Promise.all(made.map(async (r) => ({ status: r.status, html: await r.text() })));
      const busy = upAnswers.filter((a) => a.status === 503);
      ctx.diagnostic(`6 concurrent sign-ups: ${JSON.stringify(tally(upAnswers.map((a) => a.status)))}`);
      assert.ok(busy.length > 0 && busy.every((a) => BUSY.test(a.html)));
      assert.ok(hashStats().peak <= hashesAtOnce());
    });

    test("with every hashing slot taken, the owner's browser still signs in; a stranger is refused (items 5 and 6)", async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const t = await server();
      const email = await account(t);
      const owner = new Client(t.url, { 'x-forwarded-for': '10.63.0.1' });
      assert.equal((await signIn(t, '', email, PASSWORD, owner)).status, 303);
      const previous = hashesAtOnce();
      setHashesAtOnce(1);
      try {
        // the one slot is held by a slow hash (N = 2^16, p = 4: about a second) for the test's span
        let held = true;
        const hold = verifyPassword(WRONG, `scrypt$65536$8$4$${'A'.repeat(22)}$${'A'.repeat(43)}`).finally(
          () => (held = false),
        );
        owner.cookies.delete('catalogue_session'); // signed out; the browser is still known
        const stranger = new Client(t.url, { 'x-forwarded-for': '10.63.0.2' });
        const [mine, theirs] = await Promise.all([
          signIn(t, '', email, PASSWORD, owner).then((r) => ({ ...r, held })),
          signIn(t, '', email, PASSWORD, stranger),
        ]);
        await hold;
        assert.ok(mine.held, "the slot was still held when the owner's answer came");
        assert.equal(mine.status, 303, "the owner's browser uses the slot kept for it");
        assert.equal(theirs.status, 503, 'a browser the account never signed in with is refused');
        assert.match(theirs.html, BUSY);
      } finally {
        setHashesAtOnce(previous);
      }
    });

    test('the change-password form limits wrong current passwords per account (item 8)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const t = await server();
      const email = await account(t);
      const c = new Client(t.url, { 'x-forwarded-for': '10.81.0.1' });
      assert.equal((await c.signIn(email, PASSWORD)).status, 303);
      const change = (current: string) =>
        c.submit('/dashboard/password', '/dashboard/password', {
          current,
          password: 'a new password 1',
          confirm: 'a new password 1',
        });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await change(WRONG)).status);
      ctx.diagnostic(`8 wrong current passwords: ${JSON.stringify(tally(statuses))}`);
      assert.deepEqual(tally(statuses), { 400: LIMITS.password.max, 429: 8 - LIMITS.password.max });
      const right = await change(PASSWORD);
      assert.equal(right.status, 429, 'refused without being checked, the right one too');
      assert.match(await right.text(), /Too many wrong current passwords/);
      t.clock.offset += LIMITS.password.windowMs;
      assert.equal((await change(PASSWORD)).status, 200, 'the next window');
    });
  });
}

test('--trust-proxy forms: alone one proxy, a number of proxies, or their addresses', () => {
  assert.equal(parseTrustProxy(undefined), false);
  assert.equal(parseTrustProxy(true), 1);
  assert.equal(parseTrustProxy(''), 1);
  assert.equal(parseTrustProxy('2'), 2);
  assert.equal(parseTrustProxy('0'), false);
  assert.deepEqual(parseTrustProxy('10.0.0.1, 10.0.0.0/8,loopback,::1,fd00::/8'), [
    '10.0.0.1',
    '10.0.0.0/8',
    'loopback',
    '::1',
    'fd00::/8',
  ]);
  for (const bad of ['10.0.0.0/33', 'proxy.example.com', '99'])
    assert.throws(() => parseTrustProxy(bad), /--trust-proxy/);
});
