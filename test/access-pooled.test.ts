// Allowances of dashboard accounts belong to the account, not to each key, over real HTTP on
// SQLite and on Redis (two servers sharing the store, requests at once on both): an account on
// sandbox with 3 keys is served 100 calls in all (300 before), shares one rate window, and its
// paid included calls and ceiling are the account's (the usage report's included and overage
// too); keys an operator makes with the CLI (no dashboard account) keep their own allowances.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino from 'pino';
import { openAccounts, openAdmin, monthOf, type AccessAccounts } from '../src/access';
import { startServer, type RunningServer } from '../src/server';
import { MESSAGES } from '../src/shared/errors';
import { buildFixture, productId } from './support/fixture';
import { ManualClock } from './support/access';
import { PLANS } from './support/plans';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

/** The built-in sandbox without its rate limit, so that 300 requests at once meet only the cap. */
const SANDBOX_NO_RATE = { ...PLANS.capped, name: 'sandbox-no-rate' };
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0, 0);

interface Setup {
  store: string;
  plans: string;
  servers: RunningServer[];
  clock: ManualClock;
  accounts: AccessAccounts;
}

async function setUp(store: string, catalogue: string, plans: string): Promise<Setup> {
  const clock = new ManualClock(NOW);
  const start = () =>
    startServer({
      catalogue,
      host: '127.0.0.1',
      port: 0,
      access: store,
      plans,
      clock,
      logger: pino({ level: 'silent' }),
    });
  const servers = [await start(), await start()];
  const accounts = await openAccounts(store, { purpose: 'admin', plansFile: plans, clock });
  return { store, plans, servers, clock, accounts };
}

/** A dashboard account on `plan` with `n` keys made as the dashboard makes them. */
async function dashboardKeys(s: Setup, plan: string, n: number): Promise<{ account: string; keys: string[] }> {
  const user = (await s.accounts.signUp(`${randomBytes(4).toString('hex')}@example.com`, 'a fine password', plan))!;
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push((await s.accounts.createKey(user, `key ${i}`)).key);
  return { account: user.name, keys };
}

/** `n` CLI keys of one operator-made account. */
async function cliKeys(s: Setup, plan: string, n: number): Promise<{ account: string; keys: string[] }> {
  const admin = await openAdmin(s.store, { plansFile: s.plans });
  const account = `ops-${randomBytes(4).toString('hex')}`;
  const keys: string[] = [];
  try {
    for (let i = 0; i < n; i++) keys.push((await admin.createKey(plan, account)).key);
  } finally {
    await admin.close();
  }
  return { account, keys };
}

/**
 * `each` requests per key, all at once, spread over both servers; the answers' statuses and 429
 * messages. (The Redis store is given a 5 s bound on a command: these tests prove exactness, and a
 * loaded machine must not turn into 503s.)
 */
async function burst(s: Setup, keys: string[], each: number): Promise<{ ok: number; refused: Map<string, number> }> {
  const calls = keys.flatMap((key, k) =>
    Array.from({ length: each }, async (_, i) => {
      const url = s.servers[(k + i) % 2].url;
      const res = await fetch(`${url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } });
      const body = (await res.json()) as { message?: string };
      return res.status === 200 ? 'ok' : `${res.status} ${body.message}`;
    }),
  );
  const outcomes = await Promise.all(calls);
  const refused = new Map<string, number>();
  for (const o of outcomes) if (o !== 'ok') refused.set(o, (refused.get(o) ?? 0) + 1);
  return { ok: outcomes.filter((o) => o === 'ok').length, refused };
}

function suite(kind: 'sqlite' | 'redis'): void {
  describe(`allowances per account (${kind})`, () => {
    let dir: string;
    let s: Setup;
    let plans: string;
    const prefix = `test-pooled-${randomBytes(4).toString('hex')}:`;
    before(async () => {
      if (kind === 'redis' && !(await redisUp())) return; // each test then skips
      const fixture = await buildFixture();
      dir = fixture.dir;
      plans = path.join(dir, 'plans.json');
      fs.writeFileSync(plans, JSON.stringify([SANDBOX_NO_RATE, PLANS.paid]));
      const store =
        kind === 'sqlite' ? `sqlite:${path.join(dir, 'access.sqlite')}` : `${REDIS}?prefix=${prefix}&timeout_ms=5000`;
      s = await setUp(store, fixture.file, plans);
    });
    after(async () => {
      await s?.accounts.close();
      for (const server of s?.servers ?? []) await server.close();
      if (kind === 'redis') await dropPrefixes([prefix]);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    test('a sandbox account with 3 dashboard keys is served 100 calls in all, not 300', async (t) => {
      if (s === undefined) return t.skip(`SKIPPED: no Redis reachable at ${REDIS}`);
      const { account, keys } = await dashboardKeys(s, SANDBOX_NO_RATE.name, 3);
      const { ok, refused } = await burst(s, keys, 110);
      assert.equal(ok, 100, 'the cap is the account’s');
      assert.deepEqual([...refused], [[`429 ${MESSAGES.monthlyCap}`, 230]], 'the spec’s 429 message, unchanged');
      assert.equal(await s.accounts.accountCalls(account, monthOf(NOW)), 100);
      const report = await s.accounts.admin.usage(monthOf(NOW));
      const acc = report.accounts.find((a) => a.account === account)!;
      assert.equal(acc.calls, 100, 'the keys’ counts add up to the account’s');
      assert.equal(acc.refused, 230);
      const ownKeys = await s.accounts.keys(account);
      const perKey = await s.accounts.daily(account, monthOf(NOW), ownKeys);
      assert.equal(
        perKey.reduce((n, d) => n + d.calls, 0),
        100,
        'the usage chart reads the same calls',
      );
    });

    test('the account’s keys share one rate window (sandbox: 5 a second)', async (t) => {
      if (s === undefined) return t.skip(`SKIPPED: no Redis reachable at ${REDIS}`);
      const { keys } = await dashboardKeys(s, 'sandbox', 3);
      s.clock.ms = NOW + 10_000;
      assert.equal((await burst(s, keys, 10)).ok, 5, '5 in one second for the account, not 5 per key');
      s.clock.ms = NOW + 11_000;
      const next = await burst(s, keys, 10);
      assert.equal(next.ok, 5, 'the next second, 5 more');
      assert.deepEqual([...next.refused], [[`429 ${MESSAGES.rateLimited}`, 25]]);
      s.clock.ms = NOW;
    });

    test('a paid account’s included calls and ceiling are the account’s, in the usage report too', async (t) => {
      if (s === undefined) return t.skip(`SKIPPED: no Redis reachable at ${REDIS}`);
      const { account, keys } = await dashboardKeys(s, PLANS.paid.name, 3);
      const { ok } = await burst(s, keys, 30);
      assert.equal(ok, 50, 'the ceiling of 50 for the account, not 50 per key');
      const report = await s.accounts.admin.usage(monthOf(NOW));
      const acc = report.accounts.find((a) => a.account === account)!;
      assert.deepEqual(
        { calls: acc.calls, included: acc.included, overage: acc.overage },
        { calls: 50, included: 10, overage: 40 },
        'included 10 for the account, not 10 per key',
      );
      const rows = report.keys.filter((k) => k.account === account);
      assert.equal(
        rows.reduce((n, k) => n + k.included, 0),
        10,
        'the keys’ included calls add up to the account’s',
      );
    });

    test('CLI keys of an operator-made account keep their own allowances', async (t) => {
      if (s === undefined) return t.skip(`SKIPPED: no Redis reachable at ${REDIS}`);
      const { account, keys } = await cliKeys(s, SANDBOX_NO_RATE.name, 3);
      const { ok, refused } = await burst(s, keys, 110);
      assert.equal(ok, 300, `100 per key, as operator-cli.md says (${JSON.stringify([...refused])})`);
      const report = await s.accounts.admin.usage(monthOf(NOW));
      assert.deepEqual(
        report.keys.filter((k) => k.account === account).map((k) => k.calls),
        [100, 100, 100],
      );
      const rate = await cliKeys(s, 'sandbox', 2);
      s.clock.ms = NOW + 20_000;
      assert.equal((await burst(s, rate.keys, 10)).ok, 10, '5 a second per CLI key');
      s.clock.ms = NOW;
    });
  });
}

suite('sqlite');
suite('redis');
