// `npm run bench:store` (as root): what metering on a Redis across a network costs. Redis runs
// in a network namespace of its own, joined to this host by a veth pair; a relay in that
// namespace (delay-relay.ts: this kernel has no `tc netem`) adds 0, 1 or 5 ms to every round trip. For each, one API server (`catalogue serve`) is loaded with
// product-by-id requests on a plan with a rate limit (two store steps per request: a rate hit
// and a charge) and compared with the local SQLite store measured in the same run. Script
// calls per request (from Redis's commandstats) show that waiting requests share round trips.
// Guarantees: the namespace, the veth pair and every process are removed at the end, even on
// failure; traffic goes only to loopback and the bench's own namespace.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { openAdmin } from '../src/access';
import { buildCatalogue } from '../src/builder';
import { runLoad } from './load';
import { startUntil } from './proc';

const NS = 'cbench-redis';
const HOST_IF = 'cbv0';
const NS_IF = 'cbv1';
const REDIS_IP = '10.77.0.2';
const REDIS_PORT = 7150;
/** Delay of each relay, ms; Redis is also measured directly (over the veth pair, no relay). */
const DELAYS = [1, 5];
const ROUTES = [
  { label: 'redis, direct', port: REDIS_PORT },
  ...DELAYS.map((ms) => ({ label: `redis, relay +${ms} ms`, port: REDIS_PORT + 1 + ms })),
];
const PRODUCT = '/v1/products/d29ae6f6-792c-5f51-bad5-f1833446d445'; // first product of data/sample
const PLAN = {
  name: 'metered',
  trial: null,
  monthlyIncluded: null,
  monthlyCeiling: null,
  ratePerSecond: 1_000_000,
  barcode: true,
};
const ROOT = join(__dirname, '..', '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 5);

interface Row {
  store: string;
  rttMs: number | null;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerReq: number | null;
  scriptsPerReq: number | null;
  redisUsPerReq: number | null;
  non200: number;
}

function sh(cmd: string, ...args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function setUpNetwork(): void {
  sh('ip', 'netns', 'add', NS);
  sh('ip', 'link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', NS_IF);
  sh('ip', 'link', 'set', NS_IF, 'netns', NS);
  sh('ip', 'addr', 'add', '10.77.0.1/30', 'dev', HOST_IF);
  sh('ip', 'link', 'set', HOST_IF, 'up');
  sh('ip', 'netns', 'exec', NS, 'ip', 'addr', 'add', `${REDIS_IP}/30`, 'dev', NS_IF);
  sh('ip', 'netns', 'exec', NS, 'ip', 'link', 'set', NS_IF, 'up');
  sh('ip', 'netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
}

function tearDownNetwork(): void {
  for (const args of [
    ['link', 'del', HOST_IF],
    ['netns', 'del', NS],
  ]) {
    try {
      sh('ip', ...args);
    } catch {
      // already gone
    }
  }
}

/** Starts Redis, and a delay relay per added round trip, inside the namespace. */
function startInNamespace(): ChildProcess[] {
  const run = (cmd: string, ...args: string[]) => spawn('ip', ['netns', 'exec', NS, cmd, ...args], { stdio: 'ignore' });
  const procs = [
    run(
      'redis-server',
      '--port',
      String(REDIS_PORT),
      '--bind',
      `${REDIS_IP} 127.0.0.1`,
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'no',
    ),
  ];
  for (const ms of DELAYS)
    procs.push(
      run(
        process.execPath,
        join(ROOT, 'dist', 'bench', 'delay-relay.js'),
        REDIS_IP,
        String(REDIS_PORT + 1 + ms),
        String(REDIS_PORT),
        String(ms),
      ),
    );
  return procs;
}

/** Mean round trip of a PING to `port` (sequential, after a warm-up). */
async function roundTripMs(port: number): Promise<number> {
  const r = new Redis({ host: REDIS_IP, port, retryStrategy: () => 100 });
  r.on('error', () => {});
  for (let i = 0; i < 100 && (await r.ping().catch(() => '')) !== 'PONG'; i++)
    await new Promise((res) => setTimeout(res, 50));
  const start = process.hrtime.bigint();
  for (let i = 0; i < 200; i++) await r.ping();
  r.disconnect();
  return Number(process.hrtime.bigint() - start) / 1e6 / 200;
}

/** EVALSHA calls so far and the Redis CPU µs they took. */
async function scriptCalls(r: Redis): Promise<{ calls: number; usec: number }> {
  const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(await r.info('commandstats'));
  return m ? { calls: Number(m[1]), usec: Number(m[2]) } : { calls: 0, usec: 0 };
}

async function measure(
  dir: string,
  catalogue: string,
  plans: string,
  spec: string,
  connections: number,
  redis?: Redis,
): Promise<Omit<Row, 'store' | 'rttMs'>> {
  const admin = await openAdmin(spec, { plansFile: plans });
  const { key } = await admin.createKey(PLAN.name);
  await admin.close();
  const server = await startUntil(
    [
      join(ROOT, 'bin', 'catalogue.js'),
      'serve',
      '--catalogue',
      catalogue,
      '--port',
      '0',
      '--access',
      spec,
      '--plans',
      plans,
    ],
    /^catalogue: serving/,
  );
  try {
    const url = /at (http:\/\/\S+)/.exec(server.line)![1];
    const before = redis ? await scriptCalls(redis) : undefined;
    const cfg = {
      url,
      connections,
      duration: DURATION,
      warmup: 0,
      headers: { 'x-api-key': key },
      requests: [{ method: 'GET' as const, path: PRODUCT }],
      serverPid: server.child.pid,
    };
    const r = await runLoad(join(ROOT, 'dist'), dir, `store-${connections}`, cfg);
    const after = redis ? await scriptCalls(redis) : undefined;
    const all = Object.values(r.statuses).reduce((a, b) => a + b, 0);
    return {
      connections,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      cpuUsPerReq: r.serverCpuMs === null ? null : (r.serverCpuMs * 1000) / r.requests,
      scriptsPerReq: before && after ? (after.calls - before.calls) / all : null,
      redisUsPerReq: before && after ? (after.usec - before.usec) / all : null,
      non200: all - (r.statuses['200'] ?? 0),
    };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const catalogue = join(dir, 'catalogue.db');
  const plans = join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify([PLAN]));
  const rows: Row[] = [];
  const push = (r: Row) => (rows.push(r), console.error(`done: ${r.store}, ${r.connections} connections`));
  let procs: ChildProcess[] = [];
  const redis = new Redis({ host: REDIS_IP, port: REDIS_PORT, lazyConnect: true, retryStrategy: () => 100 });
  redis.on('error', () => {});
  try {
    await buildCatalogue({ sourceDir: join(ROOT, 'data', 'sample'), outFile: catalogue, builtAt: '2026-01-01' });
    tearDownNetwork();
    setUpNetwork();
    procs = startInNamespace();
    await redis.connect().catch(() => {}); // retried by retryStrategy until Redis listens
    for (let i = 0; i < 100 && (await redis.ping().catch(() => '')) !== 'PONG'; i++)
      await new Promise((r) => setTimeout(r, 50));
    if ((await redis.ping()) !== 'PONG') throw new Error('redis in the namespace does not answer');
    for (const connections of [1, 10, 64]) {
      push({
        store: 'sqlite (local file)',
        rttMs: null,
        ...(await measure(dir, catalogue, plans, `sqlite:${join(dir, `access-${connections}.sqlite`)}`, connections)),
      });
      for (const route of ROUTES) {
        const spec = `redis://${REDIS_IP}:${route.port}/0?prefix=bench-${route.port}-${connections}:`;
        const rtt = await roundTripMs(route.port);
        push({
          store: route.label,
          rttMs: rtt,
          ...(await measure(dir, catalogue, plans, spec, connections, redis)),
        });
      }
    }
    print(rows);
  } finally {
    redis.disconnect();
    for (const p of procs) p.kill('SIGKILL');
    tearDownNetwork();
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(rows: Row[]): void {
  const f = (n: number | null, d = 0) => (n === null ? '—' : n.toFixed(d));
  console.log(`product by id, ${DURATION} s per row, plan with a rate limit (a rate hit and a charge per request)\n`);
  console.log(
    '| store | PING round trip | connections | req/s | p50 ms | p99 ms | server CPU µs/req | script calls/req | Redis CPU µs/req (scripts) | non-200 |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.store} | ${r.rttMs === null ? '—' : `${r.rttMs.toFixed(2)} ms`} | ${r.connections} | ${f(r.rps)} | ${f(r.p50, 2)} | ${f(r.p99, 2)} | ${f(r.cpuUsPerReq)} | ${f(r.scriptsPerReq, 2)} | ${f(r.redisUsPerReq, 1)} | ${r.non200} |`,
    );
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
