// The access store on a real Redis Cluster (3 primaries, 3 replicas) and a real Sentinel setup
// (primary, replica, 3 sentinels), each shared by two API server processes: trial and sandbox
// allowances admit exactly their allowance across instances, per-second rates hold across
// instances, a disabled key is refused by every instance within a second, and a forced
// failover or a killed primary under load answers only 200 or 503 (fail-closed), recovers
// (a killed primary: within MAX_OUTAGE_MS), and loses at most the few counts docs/metering.md
// states.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openAccounts, openAdmin, monthOf, type AccessAdmin } from '../src/access';
import { buildFixture } from './support/fixture';
import { serveProcess, type ServeProcess } from './support/serve-process';
import { uuid } from './support/source';
import {
  redisBinariesPresent,
  replicaOf,
  replicated,
  startCluster,
  startSentinel,
  type Topology,
} from './support/redis-topology';

const PLANS = [
  {
    name: 'trial-x',
    trial: { requests: 100, days: 14 },
    monthlyIncluded: null,
    monthlyCeiling: null,
    ratePerSecond: null,
    barcode: true,
  },
  { name: 'sandbox-x', trial: null, monthlyIncluded: 100, monthlyCeiling: 100, ratePerSecond: null, barcode: false },
  { name: 'rated', trial: null, monthlyIncluded: null, monthlyCeiling: null, ratePerSecond: 5, barcode: true },
  {
    name: 'metered',
    trial: null,
    monthlyIncluded: 1_000_000,
    monthlyCeiling: 1_000_000,
    ratePerSecond: null,
    barcode: true,
  },
];
const PRODUCT = `/v1/products/${uuid(0, 'b')}`;
/** Documented bound (docs/metering.md): a failover loses at most this many seconds of the primary's counts. */
const MAX_LOST_SECONDS = 0.5;

/**
 * A killed primary: served again within this long (the topologies' failure detection, 1 s, the
 * election and promotion, 1–2 s, and the clients' move, plus a margin for a loaded machine).
 */
const MAX_OUTAGE_MS = 10_000;

/** First port of the topologies (TEST_REDIS_PORTS, default 7100): runs side by side need their own. */
const BASE = Number(process.env.TEST_REDIS_PORTS ?? 7100);

const present = redisBinariesPresent();
if (!present && process.env.CI)
  throw new Error('redis-server / redis-cli are missing and CI is set: the cluster and Sentinel tests must run');

topologySuite({
  name: 'redis cluster (3 primaries, 3 replicas)',
  start: () => startCluster(BASE),
  async failover(t, account) {
    const r = t.node((await replicaOf(t, `x{a:${account}}`)).replica);
    await r.cluster('FAILOVER', 'FORCE');
    return async () => (await r.info('replication')).includes('role:master');
  },
  primary: (t, account) => replicaOf(t, `x{a:${account}}`),
});

topologySuite({
  name: 'redis sentinel (primary, replica, 3 sentinels)',
  start: () => startSentinel(BASE + 10),
  async failover(t) {
    await t.node(t.ports[2]).call('SENTINEL', 'FAILOVER', 'catalogue');
    const replica = t.node(t.ports[1]);
    return async () => (await replica.info('replication')).includes('role:master');
  },
  async primary(t) {
    // Every Sentinel names the same primary: one not yet told of the forced failover above names the old one.
    const sentinels = t.ports.slice(2).map((p) => t.node(p));
    let named: number[] = [];
    await until(async () => {
      named = await Promise.all(
        sentinels.map(async (s) =>
          Number(((await s.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'catalogue')) as string[])[1]),
        ),
      );
      return named.every((p) => p === named[0]);
    });
    return { primary: named[0], replica: named[0] === t.ports[0] ? t.ports[1] : t.ports[0] };
  },
});

interface Setup {
  name: string;
  start: () => Promise<Topology>;
  /** Forces a failover of the primary holding `account`'s counters; resolves to "is the replica promoted?". */
  failover: (t: Topology, account: string) => Promise<() => Promise<boolean>>;
  /** The ports of the primary now holding `account`'s counters and of its replica. */
  primary: (t: Topology, account: string) => Promise<{ primary: number; replica: number }>;
}

function topologySuite({ name, start, failover, primary }: Setup): void {
  describe(name, { skip: present ? false : 'SKIPPED: redis-server / redis-cli not installed (they run in CI)' }, () => {
    let topo: Topology;
    let admin: AccessAdmin;
    let apis: ServeProcess[] = [];
    let dir: string;
    let spec: string;
    let plans: string;

    before(async () => {
      topo = await start();
      const fixture = await buildFixture();
      dir = fixture.dir;
      plans = join(dir, 'plans.json');
      writeFileSync(plans, JSON.stringify(PLANS));
      spec = topo.spec(`t-${randomBytes(4).toString('hex')}:`);
      admin = await openAdmin(spec, { plansFile: plans });
      const args = ['--catalogue', fixture.file, '--access', spec, '--plans', plans];
      apis = await Promise.all([serveProcess(args), serveProcess(args)]);
    });

    after(async () => {
      await Promise.all(apis.map((a) => a.stop()));
      await admin?.close();
      await topo?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('trial and sandbox keys of two accounts at once: 160 requests each over two instances admit exactly 100 each', async () => {
      // Both accounts' steps share event-loop turns, so on a cluster each turn is split into one script per slot.
      const keys = [await admin.createKey('trial-x'), await admin.createKey('sandbox-x')];
      const results = await Promise.all(keys.map((k) => fire(apis, k.key, 160, 16)));
      for (const statuses of results) assert.deepEqual(tally(statuses), { 200: 100, 429: 60 });
      const usage = await admin.usage(monthOf(Date.now()));
      for (const k of keys) assert.equal(usage.keys.find((u) => u.id === k.id)?.calls, 100);
    });

    test("a dashboard account's 3 keys share its cap: 60 requests on each over two instances admit exactly 100", async () => {
      // The account's count (field t:ACCOUNT) lives in the account's usage hash, so each charge stays in its slot.
      const accounts = await openAccounts(spec, { purpose: 'admin', plansFile: plans });
      const keys: string[] = [];
      let account = '';
      try {
        const user = (await accounts.signUp(
          `pool-${randomBytes(3).toString('hex')}@example.com`,
          'a fine password',
          'sandbox-x',
        ))!;
        account = user.name;
        for (let i = 0; i < 3; i++) keys.push((await accounts.createKey(user, `k${i}`)).key);
      } finally {
        await accounts.close();
      }
      const results = (await Promise.all(keys.map((k) => fire(apis, k, 60, 8)))).flat();
      const usage = await admin.usage(monthOf(Date.now()));
      const t = tally(results);
      assert.equal(usage.accounts.find((a) => a.account === account)?.calls, 100, JSON.stringify(t));
      // Never more than the account's 100 served (all 100 unless a 503 that fire() retried had been counted: a
      // command that timed out may still have run, docs/metering.md; seen once, 98, on a loaded machine).
      assert.ok(t[200] <= 100 && t[200] >= 95 && t[200] + t[429] === 180, JSON.stringify(t));
    });

    test('a rate of 5/s holds across two instances', async () => {
      const k = await admin.createKey('rated');
      await warm(apis, k.key);
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20)); // start of a second
      const first = Math.floor(Date.now() / 1000);
      const statuses = await fire(apis, k.key, 30, 15);
      const windows = Math.floor(Date.now() / 1000) - first + 1;
      const ok = statuses.filter((s) => s === 200).length;
      assert.ok(ok >= 5 && ok <= 5 * windows, `${ok} admitted in ${windows} rate windows`);
      if (windows === 1) assert.equal(ok, 5);
    });

    test('a key disabled through the store is refused by every instance within a second', async () => {
      const k = await admin.createKey('metered');
      for (const api of apis) assert.equal((await get(api, k.key)).status, 200);
      await admin.disableKey(k.id);
      await new Promise((r) => setTimeout(r, 1000));
      for (const api of apis) assert.equal((await get(api, k.key)).status, 403);
    });

    test(
      'a forced failover under load answers only 200 or 503, recovers, and loses few counts',
      { timeout: 60_000 },
      async (t) => {
        const k = await admin.createKey('metered');
        await warm(apis, k.key);
        const calls = async () => (await admin.usage(monthOf(Date.now()))).keys.find((u) => u.id === k.id)?.calls ?? 0;
        const before = await calls();
        const load = new Load(apis, k.key, 8);
        await load.until(() => load.ok >= 200);
        const promoted = await failover(topo, k.account);
        await load.until(() => promoted().catch(() => false));
        const okAtPromotion = load.ok;
        await load.until(() => load.ok >= okAtPromotion + 300); // served again, by the new primary
        const statuses = await load.stop();
        const n = tally(statuses);
        const counted = (await eventually(calls)) - before;
        const lost = n[200] - counted;
        const span = load.unavailable ? ` over ${load.lastUnavailableAt - load.unavailableAt} ms` : '';
        const figures = `${statuses.length} requests: ${n[200]} answered 200, ${n[503] ?? 0} answered 503${span}; ${counted} counted; ${lost} counts lost; ${Math.round(n[200] / load.seconds)} served a second`;
        t.diagnostic(figures);
        console.log(`# failover figures (${name}): ${figures}`);
        assert.deepEqual(
          Object.keys(n).filter((s) => s !== '200' && s !== '503'),
          [],
          figures,
        );
        assert.ok(counted <= n[200] + (n[503] ?? 0), `never counts more than it was asked to: ${figures}`);
        const bound = Math.ceil((MAX_LOST_SECONDS * n[200]) / load.seconds);
        assert.ok(lost <= bound, `at most ${bound} counts lost (${MAX_LOST_SECONDS} s at this rate): ${figures}`);
      },
    );

    test(
      'the primary killed under load: 503 while no primary answers (never an uncharged 200), then 200 again',
      { timeout: 60_000 },
      async (t) => {
        const k = await admin.createKey('metered');
        await warm(apis, k.key);
        const calls = async () => (await admin.usage(monthOf(Date.now()))).keys.find((u) => u.id === k.id)?.calls ?? 0;
        const before = await calls();
        const { primary: port } = await primary(topo, k.account);
        // The replica has every write so far and is sent each new one (its link being up is not that).
        await replicated(topo, port, `probe{a:${k.account}}`);
        const load = new Load(apis, k.key, 8);
        await load.until(() => load.ok >= 200);
        const killedAt = Date.now();
        topo.kill(port);
        await load.until(() => load.servedAgainAt > 0);
        const outageMs = load.servedAgainAt - killedAt;
        const okAtOutage = load.ok;
        await load.until(() => load.ok >= okAtOutage + 300);
        const statuses = await load.stop();
        const n = tally(statuses);
        const counted = (await eventually(calls)) - before;
        const lost = n[200] - counted;
        const figures = `${statuses.length} requests: ${n[200]} answered 200, ${n[503] ?? 0} answered 503 (served again ${outageMs} ms after the kill); ${counted} counted; ${lost} counts lost; ${Math.round(n[200] / load.seconds)} served a second`;
        t.diagnostic(figures);
        console.log(`# primary-killed figures (${name}): ${figures}`);
        assert.deepEqual(
          Object.keys(n).filter((s) => s !== '200' && s !== '503'),
          [],
          figures,
        );
        assert.ok(counted <= n[200] + (n[503] ?? 0), `never counts more than it was asked to: ${figures}`);
        const bound = Math.ceil((MAX_LOST_SECONDS * n[200]) / load.seconds);
        assert.ok(lost <= bound, `at most ${bound} counts lost (${MAX_LOST_SECONDS} s at this rate): ${figures}`);
        assert.ok(outageMs <= MAX_OUTAGE_MS, `served again within ${MAX_OUTAGE_MS} ms of the kill: ${figures}`);
      },
    );
  });
}

async function get(api: ServeProcess, key: string): Promise<Response> {
  const res = await fetch(api.url + PRODUCT, { headers: { 'x-api-key': key } });
  await res.arrayBuffer();
  return res;
}

/** One request per instance, until each answers 200 (connections and scripts in place). */
async function warm(apis: ServeProcess[], key: string): Promise<void> {
  for (const api of apis) {
    for (let i = 0; i < 100 && (await get(api, key)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
  }
}

/** `total` requests round-robin over the instances, `concurrent` at a time; a 503 is retried (up to 20 times). */
async function fire(apis: ServeProcess[], key: string, total: number, concurrent: number): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrent }, async () => {
      while (next < total) {
        const api = apis[next++ % apis.length];
        let status = 503;
        for (let i = 0; i < 20 && status === 503; i++) status = (await get(api, key)).status;
        out.push(status);
      }
    }),
  );
  return out;
}

/** Polls `cond` every 20 ms until it holds (bounded: 30 s). */
async function until(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await cond().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached in 30 s');
}

/** Requests without pause from `concurrent` loops per instance, until stop(). */
class Load {
  ok = 0;
  unavailable = 0;
  /** When the first 503 was answered, and the first 200 of a request sent after it (0: not yet). */
  unavailableAt = 0;
  servedAgainAt = 0;
  /** When the last 503 was answered. */
  lastUnavailableAt = 0;
  /** Seconds from start to stop(). */
  seconds = 0;
  private readonly startedAt = Date.now();
  private statuses: number[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(apis: ServeProcess[], key: string, concurrent: number) {
    this.loops = apis.flatMap((api) =>
      Array.from({ length: concurrent }, async () => {
        while (this.running) {
          const sentAt = Date.now();
          const status = await get(api, key).then(
            (r) => r.status,
            () => 0,
          );
          this.statuses.push(status);
          if (status === 200) this.ok++;
          if (status === 503 && this.unavailable++ === 0) this.unavailableAt = Date.now();
          if (status === 503) this.lastUnavailableAt = Date.now();
          if (status === 200 && this.unavailableAt > 0 && sentAt >= this.unavailableAt && this.servedAgainAt === 0)
            this.servedAgainAt = Date.now();
        }
      }),
    );
  }

  /** Polls `cond` every 20 ms (bounded: 30 s). */
  async until(cond: () => boolean | Promise<boolean>): Promise<void> {
    for (let i = 0; i < 1500; i++) {
      if (await cond()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(
      `load: condition not reached in 30 s (${this.ok} answered 200, ${this.unavailable} 503, ${this.statuses.length} in all)`,
    );
  }

  async stop(): Promise<number[]> {
    this.running = false;
    await Promise.all(this.loops);
    this.seconds = (Date.now() - this.startedAt) / 1000;
    return this.statuses;
  }
}

/** Retries a read of the store until it answers (right after a failover a read may get an error). */
async function eventually<T>(read: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await read();
    } catch (err) {
      if (i >= 100) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function tally(statuses: number[]): Record<number, number> {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
}
