// The access layer against real stores (SQLite file and Redis): exact admission under
// concurrency from several processes, all-or-nothing batches, month rollover, trial
// expiry, changes seen by running instances, and store outages answered 503 then recovered.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { default as Redis, RedisOptions } from 'ioredis';
import { openAccess, openAdmin, type AccessAdmin } from '../src/access';
import { ApiError, MESSAGES } from '../src/shared/errors';
import { ManualClock, outcome as refusal } from './support/access';
import { PLANS } from './support/plans';
import { REDIS as REDIS_URL, redisUp } from './support/redis';

const TEST_PLANS = [PLANS.trialFree, PLANS.capped, PLANS.paid, PLANS.unlimited];
const JAN_31_LAST_MS = Date.UTC(2025, 0, 31, 23, 59, 59, 999);
const DAY = 86_400_000;

interface WorkerJob {
  spec: string;
  plans: string;
  key: string;
  now: number;
  concurrent: number;
  units: number;
  admitOnly: boolean;
}

if (process.env.ACCESS_TEST_WORKER) void worker(JSON.parse(process.env.ACCESS_TEST_WORKER) as WorkerJob);
else suites();

/** A child process: opens its own AccessControl on the shared store, waits for "go", fires requests at once. */
async function worker(job: WorkerJob): Promise<void> {
  // A generous store timeout: these tests prove exactness, and a loaded machine must not turn into 503s.
  const access = await openAccess(job.spec, { clock: { now: () => job.now }, plansFile: job.plans, timeoutMs: 5000 });
  while (
    !(await access.refresh().then(
      () => true,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 20)); // connected
  process.send!('ready');
  await new Promise((resolve) => process.once('message', resolve));
  const outcomes = await Promise.all(
    Array.from({ length: job.concurrent }, async () => {
      try {
        const grant = await access.admit(job.key);
        if (job.admitOnly) return 'ok';
        const c = await access.charge(grant, job.units);
        return `ok:${c.trialRemaining}`;
      } catch (err) {
        return err instanceof ApiError ? `${err.statusCode} ${err.message}` : `crash ${err}`;
      }
    }),
  );
  await access.close();
  process.send!(outcomes, () => process.disconnect());
}

/** Runs `processes` workers on one store simultaneously; every outcome of every request. */
async function race(processes: number, job: WorkerJob): Promise<string[]> {
  const children = Array.from({ length: processes }, () =>
    fork(__filename, [], { env: { ...process.env, ACCESS_TEST_WORKER: JSON.stringify(job) }, stdio: 'inherit' }),
  );
  await Promise.all(children.map((c) => new Promise((resolve) => c.once('message', resolve))));
  const results = children.map(
    (c) => new Promise<string[]>((resolve) => c.once('message', (m) => resolve(m as string[]))),
  );
  for (const c of children) c.send('go');
  return (await Promise.all(results)).flat();
}

function tally(outcomes: string[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o.startsWith('ok') ? 'ok' : o;
    t[k] = (t[k] ?? 0) + 1;
  }
  return t;
}

/** ioredis, loaded only where needed so that worker processes start fast. */
async function newRedis(url: string, opts: RedisOptions = {}): Promise<Redis> {
  const { default: RedisClient } = await import('ioredis');
  return new RedisClient(url, opts);
}

interface StoreKind {
  name: string;
  /** A fresh, empty store spec; cleaned up by `cleanup`. */
  fresh(): string;
  cleanup(): Promise<void>;
}

function sqliteKind(dir: string): StoreKind {
  let n = 0;
  return { name: 'sqlite', fresh: () => `sqlite:${join(dir, `access-${++n}.sqlite`)}`, cleanup: async () => {} };
}

function redisKind(): StoreKind {
  const prefixes: string[] = [];
  return {
    name: 'redis',
    fresh() {
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      prefixes.push(prefix);
      return `${REDIS_URL}?prefix=${prefix}`;
    },
    async cleanup() {
      const r = await newRedis(REDIS_URL);
      for (const prefix of prefixes) {
        const keys: string[] = [];
        for await (const batch of r.scanStream({ match: `${prefix}*`, count: 1000 })) keys.push(...(batch as string[]));
        if (keys.length > 0) await r.del(...keys);
      }
      r.disconnect();
    },
  };
}

/** A fresh Redis store spec reached through a TcpProxy in front of Redis (to cut or hold its traffic). */
async function proxiedRedis(): Promise<{ kind: StoreKind; proxy: TcpProxy; port: number; spec: string }> {
  const kind = redisKind();
  const proxy = new TcpProxy(6379);
  const port = await proxy.start(0);
  return { kind, proxy, port, spec: kind.fresh().replace(':6379/', `:${port}/`) };
}

function suites(): void {
  const dir = mkdtempSync(join(tmpdir(), 'access-test-'));
  const plans = join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify(TEST_PLANS));
  after(() => rmSync(dir, { recursive: true, force: true }));

  storeSuite(sqliteKind(dir), plans, async () => true);
  let reachable: Promise<boolean> | undefined;
  storeSuite(redisKind(), plans, () => (reachable ??= redisUp()));

  describe('sqlite store outage', () => {
    test('a database locked by another process answers 503 and recovers when the lock is released', async () => {
      const spec = `sqlite:${join(dir, 'locked.sqlite')}`;
      const admin = await openAdmin(spec, { plansFile: plans });
      const k = await admin.createKey('capped');
      const access = await openAccess(spec, { plansFile: plans });
      const grant = await access.admit(k.key);
      const Database = (await import('better-sqlite3')).default;
      const holder = new Database(join(dir, 'locked.sqlite'));
      holder.exec('BEGIN IMMEDIATE');
      assert.equal(await refusal(access.charge(grant, 1)), `503 ${MESSAGES.unavailable}`);
      holder.exec('COMMIT');
      holder.close();
      assert.equal(await eventually(() => access.charge(grant, 1)), 'ok');
      await access.close();
      await admin.close();
    });
  });

  describe('sqlite store log', () => {
    test("commits are not checkpointed every 1000 log pages (SQLite's default) but every 8000", async () => {
      const file = join(dir, 'log.sqlite');
      const admin = await openAdmin(`sqlite:${file}`, { plansFile: plans });
      const k = await admin.createKey(PLANS.unlimited.name);
      await admin.close();
      const access = await openAccess(`sqlite:${file}`, { plansFile: plans });
      const grant = await access.admit(k.key);
      for (let i = 0; i < 1500; i++) await access.charge(grant, 1); // one commit each, a page or more each
      const pages = statSync(`${file}-wal`).size / (4096 + 24);
      await access.close();
      assert.ok(pages > 1500, `the log holds ${pages.toFixed(0)} pages: it was checkpointed and reused`);
    });
  });

  describe('redis store outage', () => {
    test('a redis where nothing listens answers 503, never a pass', async () => {
      const access = await openAccess('redis://127.0.0.1:1', {});
      assert.equal(await refusal(access.admit(`ck_${'A'.repeat(43)}`)), `503 ${MESSAGES.unavailable}`);
      await access.close();
    });

    test('losing redis mid-service answers 503 and recovers by itself when it is back', async (t) => {
      if (!(await (reachable ??= redisUp()))) return skipRedis(t);
      const { kind, proxy, port, spec } = await proxiedRedis();
      const admin = await openAdmin(spec, { plansFile: plans });
      const k = await admin.createKey('sandbox');
      const access = await openAccess(spec, { plansFile: plans });
      assert.equal(await refusal(access.admit(k.key)), 'ok');
      await proxy.stop();
      assert.equal(await refusal(access.admit(k.key)), `503 ${MESSAGES.unavailable}`);
      await proxy.start(port);
      assert.equal(await eventually(() => access.admit(k.key)), 'ok');
      await access.close();
      await admin.close();
      await proxy.stop();
      await kind.cleanup();
    });
  });

  describe('redis meter calls', () => {
    test('a turn that finds a call out waits one turn: three charges a turn apart make two calls, all counted', async (t) => {
      if (!(await (reachable ??= redisUp()))) return skipRedis(t);
      const { kind, proxy, spec } = await proxiedRedis();
      const clock = new ManualClock(JAN_31_LAST_MS);
      const admin = await openAdmin(spec, { plansFile: plans, clock });
      const access = await openAccess(spec, { plansFile: plans, clock, timeoutMs: 5000 });
      try {
        const k = await admin.createKey('unlimited');
        const grant = await access.admit(k.key);
        await access.charge(grant, 1); // the script is loaded and called once before counting
        const before = proxy.scriptCalls();
        proxy.holdReplies(); // the first call stays out until every charge is queued
        const charged = [access.charge(grant, 1)];
        await new Promise((r) => setImmediate(r)); // after the first turn's call is sent
        charged.push(access.charge(grant, 2)); // the next turn: a call is out
        await new Promise((r) => setImmediate(r)); // after the end of that turn
        charged.push(access.charge(grant, 3)); // the turn after
        await new Promise((r) => setTimeout(r, 50)); // every call written and read by the relay
        const calls = proxy.scriptCalls() - before;
        proxy.releaseReplies();
        assert.deepEqual(await Promise.all(charged), [
          { trialRemaining: null },
          { trialRemaining: null },
          { trialRemaining: null },
        ]);
        assert.equal(calls, 2, "the second turn's charge waits for the third turn and goes in its call");
        assert.deepEqual(
          (await admin.usage('2025-01')).keys.map((r) => [r.calls, r.refused]),
          [[7, 0]],
        );
      } finally {
        proxy.releaseReplies();
        await access.close();
        await admin.close();
        await proxy.stop();
        await kind.cleanup();
      }
    });
  });
}

function skipRedis(t: { skip(msg: string): void }): void {
  if (process.env.CI) throw new Error(`no Redis reachable at ${REDIS_URL}, and CI is set: Redis tests must run`);
  t.skip(`SKIPPED: no Redis reachable at ${REDIS_URL}`);
}

/** Retries until the store answers again (polls; no timing is asserted). */
async function eventually(op: () => Promise<unknown>, tries = 100): Promise<string> {
  let last = '';
  for (let i = 0; i < tries; i++) {
    last = await refusal(op());
    if (last === 'ok') return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

/**
 * A TCP relay to a real Redis that can be cut and restored, to simulate an outage; it counts
 * the script calls sent through it and can hold Redis's replies back.
 */
class TcpProxy {
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private sent = '';
  private held: [Socket, Buffer][] | null = null;
  constructor(private readonly target: number) {}
  /** EVALSHA and EVAL commands sent so far (RESP: the command name is a bulk string). */
  scriptCalls(): number {
    return (this.sent.match(/\r\n\$(7\r\nevalsha|4\r\neval)\r\n/gi) ?? []).length;
  }
  holdReplies(): void {
    this.held ??= [];
  }
  releaseReplies(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const [client, chunk] of held) client.write(chunk);
  }
  async start(port: number): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => this.sockets.delete(s));
      }
      client.on('data', (d: Buffer) => {
        this.sent += d.toString('latin1');
        upstream.write(d);
      });
      upstream.on('data', (d: Buffer) => (this.held ? this.held.push([client, d]) : client.write(d)));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    return (server.address() as { port: number }).port;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function storeSuite(kind: StoreKind, plans: string, available: () => Promise<boolean>): void {
  describe(`access on ${kind.name}`, () => {
    let up = false;
    before(async () => {
      up = await available();
    });
    after(() => kind.cleanup());

    /** A test with a fresh store, an admin on it and a clock. */
    const storeTest = (
      name: string,
      body: (spec: string, admin: AccessAdmin, clock: ManualClock) => Promise<void>,
    ): void =>
      void test(name, async (t) => {
        if (!up) return skipRedis(t);
        const spec = kind.fresh();
        const clock = new ManualClock(JAN_31_LAST_MS - 10 * DAY);
        const admin = await openAdmin(spec, { plansFile: plans, clock });
        try {
          await body(spec, admin, clock);
        } finally {
          await admin.close();
        }
      });

    storeTest(
      '4 processes × 50 concurrent requests on a trial account admit exactly 100, each remaining count once',
      async (spec, admin, clock) => {
        const k = await admin.createKey('trial-free');
        const out = await race(4, {
          spec,
          plans,
          key: k.key,
          now: clock.ms,
          concurrent: 50,
          units: 1,
          admitOnly: false,
        });
        assert.deepEqual(tally(out), { ok: 100, [`429 ${MESSAGES.trialUsed}`]: 100 });
        const remaining = out
          .filter((o) => o.startsWith('ok:'))
          .map((o) => Number(o.slice(3)))
          .sort((a, b) => a - b);
        assert.deepEqual(
          remaining,
          Array.from({ length: 100 }, (_, i) => i),
        );
        const usage = await admin.usage('2025-01');
        assert.deepEqual(
          usage.keys.map((r) => [r.calls, r.refused]),
          [[100, 100]],
        );
      },
    );

    storeTest(
      '4 processes × 50 concurrent charges of 3 calls on a plan without limits count exactly 600 calls',
      async (spec, admin, clock) => {
        const k = await admin.createKey('unlimited');
        const out = await race(4, {
          spec,
          plans,
          key: k.key,
          now: clock.ms,
          concurrent: 50,
          units: 3,
          admitOnly: false,
        });
        assert.deepEqual(tally(out), { ok: 200 });
        assert.ok(out.every((o) => o === 'ok:null'));
        const usage = await admin.usage('2025-01');
        assert.deepEqual(
          usage.keys.map((r) => [r.calls, r.refused]),
          [[600, 0]],
        );
      },
    );

    storeTest(
      '4 processes × 50 concurrent requests on a monthly hard cap of 100 admit exactly 100',
      async (spec, admin, clock) => {
        const k = await admin.createKey('capped');
        const out = await race(4, {
          spec,
          plans,
          key: k.key,
          now: clock.ms,
          concurrent: 50,
          units: 1,
          admitOnly: false,
        });
        assert.deepEqual(tally(out), { ok: 100, [`429 ${MESSAGES.monthlyCap}`]: 100 });
      },
    );

    storeTest('keys of one account share the trial allowance across processes', async (spec, admin, clock) => {
      const a = await admin.createKey('trial-free', 'shared-acct');
      const b = await admin.createKey('trial-free', 'shared-acct');
      const job = { spec, plans, now: clock.ms, concurrent: 40, units: 1, admitOnly: false };
      const out = await Promise.all([race(2, { ...job, key: a.key }), race(2, { ...job, key: b.key })]);
      assert.equal(tally(out.flat()).ok, 100);
    });

    storeTest(
      'the sandbox rate of 5 per second admits exactly 5 of 200 requests from 4 processes in one second',
      async (spec, admin, clock) => {
        const k = await admin.createKey('sandbox');
        const out = await race(4, {
          spec,
          plans,
          key: k.key,
          now: clock.ms,
          concurrent: 50,
          units: 1,
          admitOnly: true,
        });
        assert.deepEqual(tally(out), { ok: 5, [`429 ${MESSAGES.rateLimited}`]: 195 });
        const access = await openAccess(spec, { plansFile: plans, clock });
        clock.ms += 1000;
        assert.equal(await refusal(access.admit(k.key)), 'ok', 'the next second opens a new window');
        await access.close();
      },
    );

    storeTest('a batch that would cross a limit is refused whole and counts nothing', async (spec, admin, clock) => {
      const access = await openAccess(spec, { plansFile: plans, clock });
      const capped = await access.admit((await admin.createKey('capped')).key);
      assert.equal(await refusal(access.charge(capped, 50)), 'ok');
      assert.equal(await refusal(access.charge(capped, 30)), 'ok');
      assert.equal(await refusal(access.charge(capped, 21)), `429 ${MESSAGES.monthlyCap}`);
      assert.equal(await refusal(access.charge(capped, 20)), 'ok');
      assert.equal(await refusal(access.charge(capped, 1)), `429 ${MESSAGES.monthlyCap}`);
      const trial = await access.admit((await admin.createKey('trial-free')).key);
      assert.deepEqual(await access.charge(trial, 50), { trialRemaining: 50 });
      assert.equal(await refusal(access.charge(trial, 51)), `429 ${MESSAGES.trialUsed}`);
      assert.deepEqual(await access.charge(trial, 50), { trialRemaining: 0 });
      const usage = await admin.usage('2025-01');
      const figures = usage.keys.map((r) => [r.plan, r.calls, r.refused]).sort();
      assert.deepEqual(figures, [
        ['capped', 100, 2],
        ['trial-free', 100, 1],
      ]);
      await access.close();
    });

    storeTest(
      'paid plans count overage past the included calls and refuse at the ceiling',
      async (spec, admin, clock) => {
        const access = await openAccess(spec, { plansFile: plans, clock });
        const k = await admin.createKey('paid', 'acme');
        const grant = await access.admit(k.key);
        for (let i = 0; i < 5; i++) assert.deepEqual(await access.charge(grant, 10), { trialRemaining: null });
        assert.equal(await refusal(access.charge(grant, 1)), `429 ${MESSAGES.monthlyCap}`);
        const usage = await admin.usage('2025-01');
        assert.deepEqual(
          usage.keys.map(({ calls, included, overage, refused }) => ({ calls, included, overage, refused })),
          [{ calls: 50, included: 10, overage: 40, refused: 1 }],
        );
        assert.deepEqual(usage.accounts, [{ account: 'acme', calls: 50, included: 10, overage: 40, refused: 1 }]);
        await access.close();
      },
    );

    storeTest('monthly allowances reset at the first instant of the next UTC month', async (spec, admin, clock) => {
      const access = await openAccess(spec, { plansFile: plans, clock });
      const grant = await access.admit((await admin.createKey('capped')).key);
      clock.ms = JAN_31_LAST_MS;
      assert.equal(await refusal(access.charge(grant, 100)), 'ok');
      assert.equal(await refusal(access.charge(grant, 1)), `429 ${MESSAGES.monthlyCap}`);
      clock.ms += 1;
      assert.equal(await refusal(access.charge(grant, 100)), 'ok');
      assert.deepEqual(
        (await admin.usage('2025-01')).keys.map((r) => [r.calls, r.refused]),
        [[100, 1]],
      );
      assert.deepEqual(
        (await admin.usage('2025-02')).keys.map((r) => [r.calls, r.refused]),
        [[100, 0]],
      );
      await access.close();
    });

    storeTest(
      "a trial expires 14 days after the account's first key, for every key of the account",
      async (spec, admin, clock) => {
        const start = clock.ms;
        const first = await admin.createKey('trial', 'trying');
        clock.ms = start + 13 * DAY;
        const second = await admin.createKey('trial', 'trying');
        const access = await openAccess(spec, { plansFile: plans, clock });
        clock.ms = start + 14 * DAY - 1;
        assert.equal(await refusal(access.admit(second.key)), 'ok');
        clock.ms = start + 14 * DAY;
        assert.equal(await refusal(access.admit(first.key)), `402 ${MESSAGES.trialExpired}`);
        assert.equal(await refusal(access.admit(second.key)), `402 ${MESSAGES.trialExpired}`);
        await access.close();
      },
    );

    storeTest(
      'disable and payment-required reach a running instance without restarting it',
      async (spec, admin, clock) => {
        const access = await openAccess(spec, { plansFile: plans, clock });
        const a = await admin.createKey('starter', 'billing');
        const b = await admin.createKey('pro', 'billing');
        assert.equal(await refusal(access.admit(a.key)), 'ok', 'a key created after start-up is found at once');
        await admin.setPaymentRequired(a.id, true);
        assert.equal(await eventuallyRefused(() => access.admit(b.key)), `402 ${MESSAGES.paymentRequired}`);
        await admin.setPaymentRequired(a.id, false);
        assert.equal(await eventually(() => access.admit(b.key)), 'ok');
        await admin.disableKey(a.id);
        assert.equal(await eventuallyRefused(() => access.admit(a.key)), `403 ${MESSAGES.invalidKey}`);
        assert.equal(await refusal(access.admit(b.key)), 'ok', 'other keys of the account stay valid');
        await access.close();
      },
    );

    storeTest('missing, malformed and unknown keys are refused 403', async (spec, _admin, clock) => {
      const access = await openAccess(spec, { plansFile: plans, clock });
      for (const key of [undefined, '', 'nonsense', `ck_${'x'.repeat(43)}`]) {
        assert.equal(await refusal(access.admit(key)), `403 ${MESSAGES.invalidKey}`);
      }
      await access.close();
    });
  });
}

/** Polls (the instance's own refresh timer does the work) until the operation is refused. */
async function eventuallyRefused(op: () => Promise<unknown>): Promise<string> {
  let last = 'ok';
  for (let i = 0; i < 100 && last === 'ok'; i++) {
    last = await refusal(op());
    if (last === 'ok') await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}
