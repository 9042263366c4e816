// `node dist/bench/route-runs.js [--old DIR] [--rounds N] [--only A,B] [--duration S] [--warmup S] [--redis URL]`:
// the read routes of this checkout against another's (DIR, built apart), each against bare
// node:http servers measured just before it. Each round measures, for each checkout in turn
// (new first in odd rounds, old first in even ones, so that neither always runs second): the
// service of that checkout (`catalogue serve`, metering on, SQLite store, logging at info, as
// `npm run bench` runs it) on every scenario asked for, each right after a bare server (the
// small body, or a product-sized one) measured while the service idles, then its RssAnon;
// then, for the `redis` scenario, the
// same service on a Redis store (--redis, as `npm run bench`; keys under their own prefix,
// removed before and after). Guarantees: every figure is the server's CPU per request over
// the measured window and its ratio to the bare server measured just before it
// (product answers to the product-sized one, as `npm run bench` does), or for `batch` and
// `redis` to product by id's (SQLite store) of the same checkout and round (issue 35's
// targets: ≤ 10 × and ≤ 1.1 ×); both services use the same catalogue, access store, key and
// requests.
import { mkdirSync, rmSync } from 'node:fs';
import Redis from 'ioredis';
import { openAdmin } from '../src/access';
import { join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { ensureCatalogue, log } from './catalogue';
import { runLoad } from './load';
import { parseOptions, take } from './options';
import { memory } from './proc';
import { BENCH_PLAN, startBaseline, benchAccess, startService, type Server } from './servers';
import { buildWorkload, type BenchRequest, type Workload } from './workload';

interface Route {
  id: string;
  requests: (w: Workload) => BenchRequest[];
  /** Compared with the bare server sending a product-sized body. */
  large?: boolean;
  /** Compared with product by id (SQLite store) of the same checkout and round instead of a bare server. */
  overProductById?: boolean;
  /** Served by the service on the Redis store (started after the SQLite one's routes). */
  redis?: boolean;
}

const ROUTES: Route[] = [
  { id: 'health', requests: (w) => w.health },
  { id: 'product-by-id', requests: (w) => w.productById, large: true },
  { id: 'ingredient-by-id', requests: (w) => w.ingredientById },
  { id: 'product-search', requests: (w) => w.productSearch },
  { id: 'filter', requests: (w) => w.filter },
  { id: 'ingredient-search', requests: (w) => w.ingredientSearch },
  { id: 'batch', requests: (w) => w.batch, overProductById: true },
  { id: 'redis', requests: (w) => w.productById, overProductById: true, redis: true },
];

const REDIS_PREFIX = 'catalogue-route-runs:';

interface Run {
  checkout: 'new' | 'old';
  round: number;
  scenario: string;
  cpuUs: number;
  overBare: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const old = take(argv, '--old');
  const rounds = Number(take(argv, '--rounds') ?? 3);
  const o = parseOptions(argv, process.env, cpus().length);
  const routes = ROUTES.filter((r) => o.only.length === 0 || o.only.includes(r.id));
  const dist = resolve(__dirname, '..');
  const root = resolve(dist, '..');
  const cat = await ensureCatalogue(root, o);
  const w = buildWorkload(cat.file, o.seed);
  const work = join(root, 'var', 'bench', `route-runs-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const { access, plans, key } = await benchAccess(work);
  const redisUrl = o.redis;
  const redis = `${redisUrl}${redisUrl.includes('?') ? '&' : '?'}prefix=${REDIS_PREFIX}`;
  let redisKey = '';
  if (routes.some((r) => r.overProductById) && !routes.some((r) => r.id === 'product-by-id')) routes.unshift(ROUTES[1]); // the reference of the batch's and Redis' ratios
  if (routes.some((r) => r.redis)) {
    await clearRedis(redisUrl);
    const admin = await openAdmin(redis, { plansFile: plans });
    redisKey = (await admin.createKey(BENCH_PLAN.name)).key;
    await admin.close();
  }
  const checkouts: Array<[Run['checkout'], string]> = [['new', root]];
  if (old !== undefined) checkouts.push(['old', resolve(old)]);
  const out: Run[] = [];
  const measure = async (server: Server, name: string, requests: BenchRequest[], apiKey = key) => {
    const headers: Record<string, string> = { 'x-api-key': apiKey };
    if (requests[0].method === 'POST') headers['content-type'] = 'application/json';
    const r = await runLoad(dist, work, name, {
      url: server.url,
      connections: o.connections,
      duration: o.duration,
      warmup: o.warmup,
      headers,
      requests,
      serverPid: server.pid,
    });
    return { cpuUs: ((r.serverCpuMs ?? NaN) * 1000) / r.requests, p50Ms: r.p50, p99Ms: r.p99, rps: r.rps };
  };
  const bareRun = async (bytes: number) => {
    const server = await startBaseline(dist, bytes);
    try {
      return (await measure(server, `bare-${bytes}`, w.productById)).cpuUs;
    } finally {
      await server.stop();
    }
  };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? checkouts : [...checkouts].reverse();
    for (const [checkout, dir] of order) {
      const byId = () =>
        out.find((x) => x.checkout === checkout && x.round === round && x.scenario === 'product-by-id');
      const runRoutes = async (server: Server, list: Route[], apiKey: string) => {
        for (const route of list) {
          // The bare server just before the route (its service idle meanwhile): this machine's speed
          // moves by up to 1.7 × over a few seconds, so a bare server measured once a round moved the ratios with it.
          const bare = route.overProductById ? NaN : await bareRun(route.large ? Math.round(w.productBytes) : 0);
          const m = await measure(server, route.id, route.requests(w), apiKey);
          const reference = route.overProductById ? (byId()?.cpuUs ?? NaN) : bare;
          const run: Run = { checkout, round, scenario: route.id, ...m, overBare: m.cpuUs / reference };
          out.push(run);
          log(
            `round ${round} ${checkout} ${route.id}: ${m.cpuUs.toFixed(1)} µs/req, ${run.overBare.toFixed(2)} × ` +
              `${route.overProductById ? 'product by id' : `bare (${bare.toFixed(1)} µs just before)`}, p50 ${m.p50Ms.toFixed(1)} ms, ` +
              `p99 ${m.p99Ms.toFixed(1)} ms, ${m.rps.toFixed(0)} req/s (load ${loadavg()[0].toFixed(1)})`,
          );
        }
        log(
          `round ${round} ${checkout}: RssAnon ${((memory(server.pid)?.anon ?? NaN) / 2 ** 20).toFixed(0)} MiB after the routes`,
        );
      };
      const serve = { catalogue: cat.file, plans, logFile: join(work, 'serve.log') };
      const onSqlite = routes.filter((r) => !r.redis);
      if (onSqlite.length > 0) {
        const server = await startService(dir, { ...serve, access });
        try {
          await runRoutes(server, onSqlite, key);
        } finally {
          await server.stop();
        }
      }
      const onRedis = routes.filter((r) => r.redis);
      if (onRedis.length > 0) {
        const server = await startService(dir, { ...serve, access: redis });
        try {
          await runRoutes(server, onRedis, redisKey);
        } finally {
          await server.stop();
        }
      }
    }
  }
  process.stdout.write(summary(out, routes));
  rmSync(work, { recursive: true, force: true });
  if (routes.some((r) => r.redis)) await clearRedis(redisUrl);
}

/** Removes every key these runs made in Redis (they all carry REDIS_PREFIX). */
async function clearRedis(url: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    for await (const batch of client.scanStream({ match: `${REDIS_PREFIX}*`, count: 1000 }) as AsyncIterable<
      string[]
    >) {
      if (batch.length > 0) await client.del(...batch);
    }
  } finally {
    client.disconnect();
  }
}

/** Per route and checkout: the × bare, p50 and p99 of each round, in order. */
function summary(out: Run[], routes: Route[]): string {
  const lines = [
    'route                  checkout  × bare by round            p50 ms by round           p99 ms by round      (batch, redis: × product by id)',
  ];
  for (const r of routes)
    for (const c of ['old', 'new'] as const) {
      const runs = out.filter((x) => x.scenario === r.id && x.checkout === c);
      if (runs.length === 0) continue;
      lines.push(
        `${r.id.padEnd(22)} ${c.padEnd(9)} ${runs
          .map((x) => x.overBare.toFixed(2))
          .join(', ')
          .padEnd(26)} ` +
          `${runs
            .map((x) => x.p50Ms.toFixed(1))
            .join(', ')
            .padEnd(25)} ` +
          runs.map((x) => x.p99Ms.toFixed(1)).join(', '),
      );
    }
  return lines.join('\n') + '\n';
}

main().catch((err) => {
  process.stderr.write(`route-runs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
