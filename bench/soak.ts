// Soak: runs `catalogue serve` as a child process, measures its maximum request rate
// briefly (autocannon, a mix of every operation), then holds ~80 % of it for a long
// run, sampling the server's memory every 10 s, and prints a table and the errors.
// Not part of the test suite. Usage (after `npx tsc -p .`):
//   node dist/bench/soak.js [--duration 600] [--catalogue FILE] [--probe 10] [--connections 32] [--load 0.8]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { buildCatalogue } from '../src/builder';
import { openAdmin } from '../src/access';

interface Args {
  duration: number;
  catalogue?: string;
  probe: number;
  connections: number;
  load: number;
  sample: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { duration: 600, probe: 10, connections: 32, load: 0.8, sample: 10 };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i].replace(/^--/, ''), argv[i + 1]];
    if (k === 'catalogue') a.catalogue = v;
    else if (k in a) (a as unknown as Record<string, number>)[k] = Number(v);
    else throw new Error(`unknown option --${k}`);
  }
  return a;
}

/** The fixture catalogue of the tests, built into dir (used when no --catalogue is given). */
async function fixtureCatalogue(dir: string): Promise<string> {
  const { ingredients, products } = await import('../test/support/fixture');
  const { writeSource } = await import('../test/support/source');
  writeSource(path.join(dir, 'source'), { ingredients, products });
  const file = path.join(dir, 'catalogue.db');
  await buildCatalogue({ sourceDir: path.join(dir, 'source'), outFile: file, builtAt: '2026-03-14' });
  return file;
}

/** A request mix over every operation, with ids, barcodes and words taken from the catalogue. */
function requestMix(file: string, key: string): autocannon.Request[] {
  const db = new Database(file, { readonly: true });
  const ids = db.prepare('SELECT id FROM products ORDER BY ord LIMIT 400').pluck().all() as string[];
  const ings = db.prepare('SELECT id FROM ingredients ORDER BY ord LIMIT 200').pluck().all() as string[];
  const gtins = db.prepare('SELECT gtin FROM barcodes LIMIT 100').pluck().all() as string[];
  db.close();
  const headers = { 'x-api-key': key };
  const words = ['serum', 'cream', 'cleanser', 'hydra', 'oil', 'gel', 'mask', 'sun', 'night', 'moist'];
  const out: autocannon.Request[] = [];
  for (let i = 0; i < 200; i++) {
    const id = ids[i % ids.length];
    out.push(
      { method: 'GET', path: `/v1/products/${id}`, headers },
      { method: 'GET', path: `/v1/products/search?q=${words[i % words.length]}&page=${1 + (i % 3)}`, headers },
      { method: 'GET', path: `/v1/products?category=skincare&fragrance_free=true&page=${1 + (i % 5)}`, headers },
      { method: 'GET', path: `/v1/ingredients/${ings[i % ings.length]}`, headers },
      { method: 'GET', path: `/v1/ingredients/search?q=${words[(i + 3) % words.length].slice(0, 3)}`, headers },
      {
        method: 'POST',
        path: '/v1/products/batch',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: ids.slice(i % 50, (i % 50) + 10) }),
      },
      { method: 'GET', path: '/health' },
    );
    if (gtins.length) out.push({ method: 'GET', path: `/v1/products/barcode/${gtins[i % gtins.length]}`, headers });
  }
  return out;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function heapMb(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes '));
  return line ? Number(line.split(' ')[1]) / 2 ** 20 : NaN;
}

function run(
  opts: autocannon.Options,
  onResponse?: (status: number) => void,
  onError?: (err: Error) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err: unknown, res) =>
      err ? reject(err instanceof Error ? err : new Error('autocannon failed', { cause: err })) : resolve(res),
    );
    if (onResponse) inst.on('response', (_c: unknown, status: number) => onResponse(status));
    if (onError) inst.on('reqError', onError);
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-soak-'));
  const file = args.catalogue ?? (await fixtureCatalogue(dir));
  const plans = path.join(dir, 'plans.json');
  fs.writeFileSync(
    plans,
    JSON.stringify([
      { name: 'soak', trial: null, monthlyIncluded: null, monthlyCeiling: null, ratePerSecond: null, barcode: true },
    ]),
  );
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const admin = await openAdmin(store, { plansFile: plans });
  const { key } = await admin.createKey('soak');
  await admin.close();

  const bin = path.join(__dirname, '..', '..', 'bin', 'catalogue.js');
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--catalogue', file, '--port', '0', '--access', store, '--plans', plans, '--metrics-port', '0'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const [, url, metricsUrl] = /at (http:\/\/\S+?), metrics at (http:\/\/\S+)/.exec(line)!;
  const requests = requestMix(file, key);
  const pid = child.pid!;
  try {
    process.stderr.write(
      `server ${url} (pid ${pid}), catalogue ${file}\nprobing the maximum rate for ${args.probe} s with ${args.connections} connections ...\n`,
    );
    const probe = await run({ url, connections: args.connections, duration: args.probe, requests });
    const max = probe.requests.average;
    const rate = Math.round(max * args.load);
    process.stderr.write(
      `maximum ${Math.round(max)} req/s (p99 ${probe.latency.p99} ms, non-2xx ${probe.non2xx}); soaking at ${rate} req/s for ${args.duration} s\n`,
    );

    const rows: string[] = [];
    let window = { n: 0, bad: 0, errors: 0 };
    const errors = new Map<string, number>();
    const statuses = new Map<number, number>();
    const started = Date.now();
    const sample = async () => {
      const t = Math.round((Date.now() - started) / 1000);
      rows.push(
        [
          t,
          Math.round(window.n / args.sample),
          window.bad,
          window.errors,
          rssMb(pid).toFixed(1),
          (await heapMb(metricsUrl)).toFixed(1),
        ]
          .map(String)
          .map((s) => s.padStart(8))
          .join(''),
      );
      process.stderr.write(rows[rows.length - 1] + '\n');
      window = { n: 0, bad: 0, errors: 0 };
    };
    const header = ['t (s)', 'req/s', 'non-2xx', 'errors', 'RSS MB', 'heap MB'].map((s) => s.padStart(8)).join('');
    process.stderr.write(header + '\n');
    await sample();
    const timer = setInterval(() => {
      sample().catch(() => {});
    }, args.sample * 1000);
    const soak = await run(
      { url, connections: args.connections, duration: args.duration, overallRate: rate, requests },
      (status) => {
        window.n++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 300) window.bad++;
      },
      (err) => {
        window.errors++;
        errors.set(String(err.message), (errors.get(err.message) ?? 0) + 1);
      },
    );
    clearInterval(timer);
    await sample();

    const rss = rows.map((r) => Number(r.slice(32, 40)));
    const third = Math.max(1, Math.floor(rss.length / 3));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `\nSoak: ${args.duration} s at ${rate} req/s (80 % of the measured maximum ${Math.round(max)} req/s), ${args.connections} connections`,
    );
    console.log(header);
    for (const r of rows) console.log(r);
    console.log(
      `\nrequests ${soak.requests.total}, average ${Math.round(soak.requests.average)} req/s, latency p50 ${soak.latency.p50} ms, p99 ${soak.latency.p99} ms, max ${soak.latency.max} ms`,
    );
    console.log(
      `statuses ${JSON.stringify(Object.fromEntries(statuses))}; non-2xx ${soak.non2xx}; errors ${soak.errors}, timeouts ${soak.timeouts}${errors.size ? ' ' + JSON.stringify(Object.fromEntries(errors)) : ''}`,
    );
    console.log(
      `RSS MB: first third mean ${mean(rss.slice(0, third)).toFixed(1)}, last third mean ${mean(rss.slice(-third)).toFixed(1)}, max ${Math.max(...rss).toFixed(1)}`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
