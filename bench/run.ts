// `npm run bench`: builds (or reuses) the synthetic catalogue, starts each server in its
// own process and measures every scenario with the same load, after a baseline taken in
// the same run. Prints one table and the target checks, writes bench/results/*.json
// and, with --markdown, BENCHMARKS.md. Options: bench/options.ts (--help). Last, the sign-in
// flood (bench/signin-flood.ts; alone: `npm run bench:signin-flood`, or --only signin-flood).
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import { openAdmin } from '../src/access';
import { defaultLabelPool } from '../src/catalogue/label-pool';
import { ensureCatalogue, log } from './catalogue';
import { runLoad } from './load';
import { parseOptions, type BenchOptions } from './options';
import { mappedRss, memory } from './proc';
import { summariseProfile } from './profile';
import { checkTargets, machine, markdown, targetsText, textTable, type Results, type ScenarioResult } from './report';
import { BENCH_PLAN, startBaseline, startOpen, startService, type Server } from './servers';
import { buildWorkload, type BenchRequest, type Workload } from './workload';
import { measureLabelCost } from './label-cost';
import { floodText, runSigninFlood } from './signin-flood';
import { measureSwapHold } from './swap-hold';
import { measureInterference } from './label-interference';

/** Not a scenario of the table: the API beside a sign-in flood, printed after it. */
const FLOOD = 'signin-flood';

type ServerKind =
  | 'baseline'
  | 'baseline-large'
  | 'fastify'
  | 'sqlite'
  | 'open'
  | 'redis'
  | 'cluster'
  | 'dashboard-on'
  | 'dashboard-off';
interface Scenario {
  id: string;
  name: string;
  server: ServerKind;
  requests: (w: Workload) => BenchRequest[];
  items?: number;
  /** Request headers besides the API key. */
  headers?: Record<string, string>;
  /** The bare server whose CPU per request this one's is divided by (default: the small-body baseline). */
  bare?: 'baseline-10k';
  /** At most this many connections (default: --connections). */
  connections?: number;
}

/** Label analyses the service admits at once on this machine: more connections would only measure its 503s. */
const LABEL_CAPACITY = defaultLabelPool().threads + defaultLabelPool().queue;

/** A scenario asking for whole product answers (by default compared with the bare server sending as many bytes). */
const products = (id: string, name: string, server: ServerKind, extra: Partial<Scenario> = {}): Scenario => ({
  id,
  name,
  server,
  requests: (w) => w.productById,
  bare: 'baseline-10k',
  ...extra,
});
/** Compared with the small-body bare server instead: the large one itself, and gzip answers (about 2.7 KB). */
const SMALL_BARE = { bare: undefined };

const SCENARIOS: Scenario[] = [
  { id: 'baseline', name: 'baseline (bare node:http)', server: 'baseline', requests: (w) => w.productById },
  products('baseline-10k', 'bare node:http, product-sized body', 'baseline-large', SMALL_BARE),
  { id: 'fastify', name: 'bare fastify (framework floor)', server: 'fastify', requests: (w) => w.health },
  { id: 'health', name: 'health', server: 'sqlite', requests: (w) => w.health },
  products('product-by-id', 'product by id', 'sqlite'),
  products('product-by-id-gzip', 'product by id, gzip accepted', 'sqlite', {
    ...SMALL_BARE,
    headers: { 'accept-encoding': 'gzip' },
  }),
  products('product-by-id-br', 'product by id, br accepted', 'sqlite', {
    ...SMALL_BARE,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  }),
  products('barcode', 'barcode', 'sqlite', { requests: (w) => w.barcode }),
  { id: 'batch', name: 'batch of 50', server: 'sqlite', requests: (w) => w.batch, items: 50 },
  { id: 'product-search', name: 'product search mix', server: 'sqlite', requests: (w) => w.productSearch },
  { id: 'filter', name: 'filter mix', server: 'sqlite', requests: (w) => w.filter },
  { id: 'ingredient-search', name: 'ingredient search', server: 'sqlite', requests: (w) => w.ingredientSearch },
  { id: 'ingredient-by-id', name: 'ingredient by id', server: 'sqlite', requests: (w) => w.ingredientById },
  {
    id: 'label-analysis',
    name: `label analysis (40 entries, ${LABEL_CAPACITY} connections)`,
    server: 'sqlite',
    requests: (w) => w.labelAnalysis,
    connections: LABEL_CAPACITY,
  },
  products('metering-off', 'product by id (metering off)', 'open'),
  products('redis', 'product by id (Redis metering)', 'redis'),
  products('cluster-product-by-id', 'product by id (cluster)', 'cluster'),
  {
    id: 'cluster-product-search',
    name: 'product search mix (cluster)',
    server: 'cluster',
    requests: (w) => w.productSearch,
  },
  // The dashboard's cost to /v1: product by id with the dashboard on and off, servers started
  // alternately (on, off, on, off, …: DASHBOARD_ROUNDS rounds) so that machine load falls on both.
  products('dashboard-on', 'product by id, dashboard on', 'dashboard-on'),
  products('dashboard-off', 'product by id, dashboard off', 'dashboard-off'),
];
const DASHBOARD_ROUNDS = 3;

const REDIS_PREFIX = 'catalogue-bench:';

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2), process.env, cpus().length);
  const dist = resolve(__dirname, '..');
  const root = resolve(dist, '..');
  const wanted = o.profile !== undefined ? [o.profile] : o.only;
  for (const id of wanted)
    if (id !== FLOOD && !SCENARIOS.some((s) => s.id === id))
      throw new Error(`unknown scenario "${id}" (scenarios: ${[...SCENARIOS.map((s) => s.id), FLOOD].join(', ')})`);
  const bareFor = (ids: string[]) =>
    ids.flatMap((id) => {
      const bare = SCENARIOS.find((s) => s.id === id)?.bare;
      return bare === undefined ? [id] : [id, bare];
    });
  const selected = SCENARIOS.filter(
    (s) => s.id === 'baseline' || wanted.length === 0 || bareFor(wanted).includes(s.id),
  ).filter((s) => (s.server !== 'redis' || o.redis !== 'off') && (s.server !== 'cluster' || o.workers > 1));

  const cat = await ensureCatalogue(root, o);
  const loadBefore = loadavg()[0];
  if (loadBefore > 0.5)
    log(`warning: the machine is busy (load average ${loadBefore.toFixed(2)}); figures will be low and noisy`);
  log('drawing the request mixes from the catalogue');
  const workload = buildWorkload(cat.file, o.seed);
  const work = join(root, 'var', 'bench', `run-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const plans = join(work, 'plans.json');
  writeFileSync(plans, JSON.stringify([BENCH_PLAN]));
  const sqlite = `sqlite:${join(work, 'access.sqlite')}`;
  const redis = `${o.redis}${o.redis.includes('?') ? '&' : '?'}prefix=${REDIS_PREFIX}`;
  const keys = new Map<ServerKind, string>();
  keys.set('sqlite', await createKey(sqlite, plans));
  keys.set('cluster', keys.get('sqlite')!);
  keys.set('dashboard-on', keys.get('sqlite')!);
  keys.set('dashboard-off', keys.get('sqlite')!);
  if (selected.some((s) => s.server === 'redis')) {
    await clearRedis(o.redis);
    keys.set('redis', await createKey(redis, plans));
  }

  let labelCost: Results['labelCost'] = null;
  if (selected.some((s) => s.id === 'label-analysis') && workload.labelTexts.length > 0) {
    log('label analysis in process: parse + join + render, against product by id');
    labelCost = await measureLabelCost(cat.file, workload.labelTexts, workload.productIds);
    log('catalogue swap: event-loop hold, label tables on the label threads against on this thread');
    labelCost.swap = await measureSwapHold(cat.file);
    log('one client looping the worst labels beside product by id: p99 quiet and during');
    labelCost.interference = await measureInterference(root, cat.file, o.duration);
  }
  const results: ScenarioResult[] = [];
  let serving: Results['serving'] = null;
  const bare = new Map<string, number>(); // scenario id -> CPU µs per request
  let profileSkipMs = 0;
  const profileDir = join(work, 'profile');
  const dashboardRounds = Array.from({ length: DASHBOARD_ROUNDS }, () => ['dashboard-on', 'dashboard-off'] as const);
  const kinds: ServerKind[] = [
    'baseline',
    'baseline-large',
    'fastify',
    'sqlite',
    'open',
    'redis',
    'cluster',
    ...dashboardRounds.flat(),
  ];
  for (const [round, kind] of kinds.entries()) {
    const group = selected.filter((s) => s.server === kind);
    if (group.length === 0) continue;
    const profiled = o.profile !== undefined && group.some((s) => s.id === o.profile);
    const server = await start(kind, {
      root,
      dist,
      file: cat.file,
      sqlite,
      redis,
      plans,
      o,
      profileDir: profiled ? profileDir : undefined,
      work,
      productBytes: workload.productBytes,
    });
    const idle = memory(server.pid);
    try {
      for (const s of group) {
        const requests = s.requests(workload);
        if (requests.length === 0) {
          log(`${s.name}: skipped (the catalogue has nothing to ask for)`);
          continue;
        }
        log(`${s.name}: ${o.warmup} s warm-up, ${o.duration} s measured`);
        const headers: Record<string, string> = { 'x-api-key': keys.get(kind) ?? keys.get('sqlite')!, ...s.headers };
        if (requests[0].method === 'POST') headers['content-type'] = 'application/json';
        if (s.id === o.profile) profileSkipMs = Date.now() - server.spawnedAt + o.warmup * 1000;
        const r = await runLoad(dist, work, s.id, {
          url: server.url,
          connections: Math.min(o.connections, s.connections ?? o.connections),
          duration: o.duration,
          warmup: o.warmup,
          headers,
          requests,
          serverPid: server.pid,
        });
        const cpu = r.serverCpuMs === null ? NaN : (r.serverCpuMs * 1000) / r.requests;
        bare.set(s.id, cpu);
        const reference = bare.get(s.bare ?? 'baseline') ?? NaN;
        const name = kind.startsWith('dashboard-') ? `${s.name} (round ${Math.floor((round - 7) / 2) + 1})` : s.name;
        results.push({ ...r, name, items: s.items ?? 1, cpuUs: cpu, cpuRatio: cpu / reference });
      }
      if (kind === 'sqlite') {
        const after = memory(server.pid);
        if (idle && after)
          serving = {
            idleRssBytes: idle.rss,
            rssBytes: after.rss,
            peakRssBytes: after.hwm,
            mappedRssBytes: mappedRss(server.pid, cat.file),
            anonRssBytes: after.anon,
            idleAnonRssBytes: idle.anon,
          };
      }
    } finally {
      await server.stop();
    }
  }

  const r: Results = {
    date: new Date().toISOString(),
    machine: machine(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    settings: { connections: o.connections, duration: o.duration, warmup: o.warmup, pipelining: 1 },
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    catalogue: {
      products: o.products,
      ingredients: countIngredients(cat.file),
      fileBytes: statSync(cat.file).size,
      build: cat.build,
    },
    serving,
    scenarios: results,
    targets: [],
    labelCost,
  };
  r.targets = checkTargets(r);
  process.stdout.write('\n' + textTable(r) + '\n' + targetsText(r));
  if (o.profile === undefined && (o.only.length === 0 || o.only.includes(FLOOD))) {
    log(`${FLOOD}: product by id at a fixed rate, quiet and beside a sign-in flood, ${o.duration} s each`);
    const product = workload.productById[0]?.path ?? '/v1/products/none';
    r.signinFlood = await runSigninFlood(root, {
      seconds: o.duration,
      rate: 100,
      flooders: 20,
      catalogue: { file: cat.file, product },
    });
    process.stdout.write('\n' + floodText(r.signinFlood) + '\n');
  }
  const out = join(root, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const json = JSON.stringify(r, null, 2) + '\n';
  writeFileSync(join(out, `bench-${r.date.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(join(out, 'latest.json'), json);
  log(`results written to ${join(out, 'latest.json')}`);
  if (o.markdown) {
    writeFileSync(join(root, 'BENCHMARKS.md'), markdown(r));
    log('BENCHMARKS.md written');
  }
  if (o.profile !== undefined) process.stdout.write('\n' + summariseProfile(profileDir, 25, profileSkipMs));
  if (selected.some((s) => s.server === 'redis')) await clearRedis(o.redis);
  if (o.profile === undefined) rmSync(work, { recursive: true, force: true });
}

interface StartContext {
  root: string;
  dist: string;
  file: string;
  sqlite: string;
  redis: string;
  plans: string;
  o: BenchOptions;
  profileDir?: string;
  /** The run's working folder (server logs go there). */
  work: string;
  /** Body size of the large bare server: the mean product answer. */
  productBytes: number;
}

function start(kind: ServerKind, c: StartContext): Promise<Server> {
  const logFile = join(c.work, `${kind}.log`);
  const serve = { catalogue: c.file, plans: c.plans, cpuProfileDir: c.profileDir, logFile };
  switch (kind) {
    case 'baseline':
      return startBaseline(c.dist);
    case 'baseline-large':
      return startBaseline(c.dist, Math.round(c.productBytes));
    case 'fastify':
      return startBaseline(c.dist, 0, true);
    case 'open':
      return startOpen(c.dist, c.file, logFile);
    case 'sqlite':
      return startService(c.root, { ...serve, access: c.sqlite });
    case 'redis':
      return startService(c.root, { ...serve, access: c.redis });
    case 'cluster':
      return startService(c.root, { ...serve, access: c.sqlite, workers: c.o.workers });
    case 'dashboard-on':
      return startService(c.root, { ...serve, access: c.sqlite });
    case 'dashboard-off':
      return startService(c.root, { ...serve, access: c.sqlite, extra: ['--dashboard', 'off'] });
  }
}

async function createKey(store: string, plansFile: string): Promise<string> {
  const admin = await openAdmin(store, { plansFile });
  try {
    return (await admin.createKey(BENCH_PLAN.name)).key;
  } finally {
    await admin.close();
  }
}

/** Removes every key the benchmark made in Redis (they all carry its prefix). */
async function clearRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const batch of redis.scanStream({ match: `${REDIS_PREFIX}*`, count: 1000 }) as AsyncIterable<string[]>) {
      if (batch.length > 0) await redis.del(...batch);
    }
  } finally {
    redis.disconnect();
  }
}

function countIngredients(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM ingredients').pluck().get() as number;
  } finally {
    db.close();
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
