// What one client looping the costliest labels does to everyone else: the p99 latency of
// another client's GET /v1/products/{id}, quiet and while the label client runs, against
// a real `catalogue serve` process, in the same run. Guarantees: the label client sends the
// worst shapes (bench/label-shapes.ts WORST_SHAPES) at 100,000 characters one after the
// other, on one connection, as one caller would, from its own thread (a client of its own:
// reading its answers of up to 11 MB never delays the product client's event loop); the
// product client keeps CONNECTIONS requests in flight; the figures are wall-clock
// latencies seen by the product client.
// Quiet and busy windows alternate (ROUNDS of each, SECONDS in all for each), so that a
// change of the machine's other load falls on both alike.
// Target (issue 33): the p99 during within 1.5 × the quiet p99.
// `node dist/bench/label-interference.js CATALOGUE_FILE [SECONDS] [ROOT]` (ROOT: the
// project whose bin/catalogue.js serves, for a figure of another build); `npm run bench`
// prints it too.
import { mkdtempSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { benchAccess, startService } from './servers';
import { ADVERSARIAL_SHAPES, WORST_SHAPES } from './label-shapes';
import { LONGEST_LABEL } from './label-cost';

/** Target: the product client's p99 while labels are analysed, at most this many times its quiet p99. */
export const INTERFERENCE_TARGET = 1.5;
/** Quiet and busy windows, each this many times, in turn. */
const ROUNDS = 5;

export interface Interference {
  quiet: { p50: number; p99: number; requests: number };
  during: { p50: number; p99: number; requests: number };
  /** Labels the label client had answered while measured, and their mean latency (ms). */
  labels: number;
  labelMs: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Runs `loops` loops of `one` until `stop()` says so; the latencies of those that ended after `from()` is true. */
async function loop(loops: number, one: () => Promise<void>, running: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (running()) {
        const t = performance.now();
        await one();
        ms.push(performance.now() - t);
      }
    }),
  );
  return ms;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The label client's thread: on 'go' it posts the texts in turn, one at a time, until told
 * 'stop' (at least one), then answers the latencies (ms), or the error's message. It reads
 * each answer through node:http and drops its bytes as they come (fetch, which gathers an
 * answer of up to 11 MB into one buffer, took 23–29 ms of CPU a label: on these two shared
 * cores, a cost of the bench's own client, not of the server measured).
 */
const LABEL_CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, texts } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const post = (body) => new Promise((done, fail) => {
  const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.on('data', () => {});
    res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error('label analysis answered ' + res.statusCode))));
    res.on('error', fail);
  });
  req.on('error', fail);
  req.end(body);
});
let stop = false;
let j = 0;
parentPort.on('message', async (m) => {
  if (m === 'stop') { stop = true; return; }
  stop = false;
  const ms = [];
  try {
    do {
      const t = performance.now();
      await post(texts[j++ % texts.length]);
      ms.push(performance.now() - t);
    } while (!stop);
    parentPort.postMessage(ms);
  } catch (e) {
    parentPort.postMessage(String(e && e.message));
  }
});
`;

export async function measureInterference(
  root: string,
  file: string,
  seconds = 10,
  connections = 4,
): Promise<Interference> {
  const work = mkdtempSync(join(tmpdir(), 'label-interference-'));
  const { access, plans, key } = await benchAccess(work);
  const db = new Database(file, { readonly: true });
  const ids = db.prepare('SELECT id FROM products ORDER BY ord LIMIT 5000').pluck().all() as string[];
  db.close();
  const server = await startService(root, { catalogue: file, access, plans, logFile: join(work, 'serve.log') });
  const headers = { 'x-api-key': key };
  let i = 0;
  const product = async () => {
    const res = await fetch(`${server.url}/v1/products/${ids[i++ % ids.length]}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`product by id answered ${res.status}`);
  };
  const texts = WORST_SHAPES.map((s) =>
    JSON.stringify({ text: ADVERSARIAL_SHAPES[s](LONGEST_LABEL).slice(0, LONGEST_LABEL) }),
  );
  const labelClient = new Worker(LABEL_CLIENT, {
    eval: true,
    workerData: { url: `${server.url}/v1/labels/analyze`, headers, texts },
  });
  /** Has the label client send labels one after the other until stopped; the latency of each (ms). */
  const labelLoop = (running: () => boolean): Promise<number[]> =>
    new Promise((done, fail) => {
      const timer = setInterval(() => {
        if (!running()) labelClient.postMessage('stop');
      }, 20);
      labelClient.once('message', (ms: number[] | string) => {
        clearInterval(timer);
        if (typeof ms === 'string') fail(new Error(ms));
        else done(ms);
      });
      labelClient.postMessage('go');
    });
  const label = () => labelLoop(() => false);
  try {
    const phase = async (withLabels: boolean) => {
      let measuring = true;
      let labelsOn = withLabels;
      const labelMs = withLabels ? labelLoop(() => labelsOn) : Promise.resolve([]);
      if (withLabels) await sleep(1000); // the label client under way
      const until = Date.now() + (seconds * 1000) / ROUNDS;
      const ms = await loop(connections, product, () => (measuring = Date.now() < until) && measuring);
      labelsOn = false;
      const l = await labelMs;
      return { ms, l };
    };
    await loop(
      connections,
      product,
      (() => {
        const end = Date.now() + 1000;
        return () => Date.now() < end;
      })(),
    ); // warm-up
    await label(); // the label threads have made the catalogue's tables
    const quiet = { ms: [] as number[] };
    const during = { ms: [] as number[], l: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      quiet.ms.push(...(await phase(false)).ms);
      const d = await phase(true);
      during.ms.push(...d.ms);
      during.l.push(...d.l);
    }
    const stats = (ms: number[]) => ({ p50: percentile(ms, 50), p99: percentile(ms, 99), requests: ms.length });
    return {
      quiet: stats(quiet.ms),
      during: stats(during.ms),
      labels: during.l.length,
      labelMs: during.l.reduce((a, b) => a + b, 0) / Math.max(1, during.l.length),
    };
  } finally {
    await labelClient.terminate();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export function interferenceText(r: Interference): string {
  const f = (n: number) => n.toFixed(1);
  return (
    `label client beside product by id: p99 ${f(r.quiet.p99)} ms quiet, ${f(r.during.p99)} ms while one client looped the worst labels ` +
    `(×${(r.during.p99 / r.quiet.p99).toFixed(2)}, target ≤ ${INTERFERENCE_TARGET}×; p50 ${f(r.quiet.p50)} → ${f(r.during.p50)} ms; ` +
    `${r.quiet.requests} / ${r.during.requests} requests; ${r.labels} labels answered, ${f(r.labelMs)} ms each)\n`
  );
}

async function main(file: string, seconds: number, root: string): Promise<void> {
  process.stdout.write(interferenceText(await measureInterference(root, file, seconds)));
}

if (require.main === module)
  main(
    process.argv[2] ?? 'data/catalogue.db',
    Number(process.argv[3] ?? 10),
    resolve(process.argv[4] ?? join(__dirname, '..', '..')),
  ).catch((err: unknown) => {
    process.stderr.write(
      `bench:label-interference: ${err instanceof Error ? err.message : String(err)}\n` +
        'usage: npm run bench:label-interference -- [CATALOGUE_FILE (default data/catalogue.db)] [SECONDS (default 10)]\n',
    );
    process.exit(1);
  });
