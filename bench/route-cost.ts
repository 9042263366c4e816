// In-process CPU of the read routes through the whole app, for this checkout and another:
// `node dist/bench/route-cost.js OLD_DIR [ROUNDS] [ROUTES]` (OLD_DIR built apart; ROUTES
// comma-separated, default all). Both apps (buildApp of each checkout, each with its own
// read model of the benchmark catalogue, a metered access store with one key, and the
// service's logger writing into a file) are loaded in one process and asked the bench's own
// requests through app.inject, 32 at a time (so that the metering transaction is shared by
// a turn's requests, as in the server), in alternating blocks. Guarantees: both apps answer
// every request with the same status and bytes (checked on the first block); figures are
// CPU µs per request (process.cpuUsage), medians over the rounds. No socket: the figures
// leave out node:http's parsing and writing, which the two checkouts share, and include
// light-my-request's own cost, the same for both; read differences, not ratios.
import { openSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildWorkload, type BenchRequest } from './workload';

const BLOCK = 2048;
const AT_ONCE = 32;

interface Checkout {
  name: string;
  app: FastifyInstance;
}

async function load(dir: string, name: string, file: string, work: string, key: () => Promise<string>) {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { buildApp } = require(join(dir, 'dist/src/http/app.js')) as typeof import('../src/http/app');
  const { Catalogue } = require(
    join(dir, 'dist/src/catalogue/read-model.js'),
  ) as typeof import('../src/catalogue/read-model');
  const { openAccess } = require(join(dir, 'dist/src/access/index.js')) as typeof import('../src/access');
  const { defaultLogger } = require(join(dir, 'dist/src/server.js')) as typeof import('../src/server');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const access = await openAccess(`sqlite:${join(work, 'access.sqlite')}`, { plansFile: join(work, 'plans.json') });
  const logger = defaultLogger(openSync(join(work, `${name}.log`), 'w'));
  const app = await buildApp({ catalogue: { current: Catalogue.open(file) }, access, logger });
  await app.ready();
  await key();
  return { name, app };
}

async function run(c: Checkout, key: string, requests: BenchRequest[], offset: number): Promise<number> {
  const t = process.cpuUsage();
  for (let i = 0; i < BLOCK; i += AT_ONCE) {
    const batch: Promise<unknown>[] = [];
    for (let j = 0; j < AT_ONCE; j++) {
      const r = requests[(offset + i + j) % requests.length];
      batch.push(c.app.inject({ method: 'GET', url: r.path, headers: { 'x-api-key': key, host: 'bench' } }));
    }
    await Promise.all(batch);
  }
  const u = process.cpuUsage(t);
  return (u.user + u.system) / BLOCK;
}

async function same(a: Checkout, b: Checkout, key: string, requests: BenchRequest[]): Promise<void> {
  for (const r of requests.slice(0, 500)) {
    const ask = (c: Checkout) => c.app.inject({ method: 'GET', url: r.path, headers: { 'x-api-key': key, host: 'b' } });
    const [x, y] = await Promise.all([ask(a), ask(b)]);
    if (x.statusCode !== y.statusCode || !x.rawPayload.equals(y.rawPayload))
      throw new Error(`${r.path}: the two checkouts answer differently (${x.statusCode} / ${y.statusCode})`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const [oldDir, roundsArg, routesArg] = process.argv.slice(2);
  const rounds = Number(roundsArg ?? 5);
  const root = resolve(__dirname, '..', '..');
  const file = join(root, 'var/bench/p200000-i30000-s1/catalogue.db');
  const work = join(root, 'var/bench', `route-cost-${process.pid}`);
  mkdirSync(work, { recursive: true });
  writeFileSync(
    join(work, 'plans.json'),
    JSON.stringify([
      { name: 'bench', trial: null, monthlyIncluded: null, monthlyCeiling: null, ratePerSecond: null, barcode: true },
    ]),
  );
  const { openAdmin } = await import('../src/access');
  let secret = '';
  const key = async () => {
    if (secret !== '') return secret;
    const admin = await openAdmin(`sqlite:${join(work, 'access.sqlite')}`, { plansFile: join(work, 'plans.json') });
    secret = (await admin.createKey('bench')).key;
    await admin.close();
    return secret;
  };
  await key();
  const w = buildWorkload(file, 1);
  const all: Record<string, BenchRequest[]> = {
    health: w.health,
    'product-by-id': w.productById,
    'ingredient-by-id': w.ingredientById,
    'product-search': w.productSearch,
    filter: w.filter,
    'ingredient-search': w.ingredientSearch,
  };
  const routes = routesArg ? routesArg.split(',') : Object.keys(all);
  const a = await load(root, 'new', file, work, key);
  const b = await load(resolve(oldDir), 'old', file, work, key);
  for (const r of routes) await same(a, b, secret, all[r]);
  const out: Record<string, { new: number[]; old: number[] }> = {};
  for (const r of routes) out[r] = { new: [], old: [] };
  for (let round = 0; round < rounds; round++) {
    for (const r of routes) {
      const order = round % 2 === 0 ? [a, b] : [b, a];
      for (const c of order) out[r][c.name as 'new' | 'old'].push(await run(c, secret, all[r], round * BLOCK));
    }
  }
  for (const r of routes) {
    const { new: n, old: o } = out[r];
    process.stdout.write(
      `${r.padEnd(18)} old ${median(o).toFixed(1).padStart(6)} µs  new ${median(n).toFixed(1).padStart(6)} µs  ` +
        `(old ${o.map((x) => x.toFixed(1)).join(', ')}; new ${n.map((x) => x.toFixed(1)).join(', ')})\n`,
    );
  }
  await a.app.close();
  await b.app.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`route-cost: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
