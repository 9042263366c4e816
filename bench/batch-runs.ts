// `node dist/bench/batch-runs.js [--old DIR] [--rounds N] [--runs N] [--duration S] [--paired]`: the batch of
// 50 against product by id, run after run on one server, so that a run slower than the next
// shows. Each round starts the service of this checkout (and of DIR's, another checkout's
// build, in turn: new, old, new, old, …) on the benchmark catalogue (bench/catalogue.ts,
// --products as `npm run bench`; --catalogue FILE serves a copy of it instead), measures product by id once and then the batch RUNS times
// in a row. Guarantees: every figure is the server's CPU per request over the measured
// window; page faults and the server's anonymous and file-backed resident memory are read
// from /proc after each run; each batch run is also given over the product by id measured
// last on the same server (the issue 27 target: at most 10 ×) — with --paired, product by id
// is measured before every batch run, so that a machine whose load moves between runs
// compares each batch with a product by id of the same minute; both servers use the same
// access store, key and requests.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus } from 'node:os';
import { ensureCatalogue, log } from './catalogue';
import { runLoad } from './load';
import { parseOptions, take } from './options';
import { benchAccess, startService } from './servers';
import { buildWorkload, type BenchRequest } from './workload';

interface Run {
  checkout: string;
  round: number;
  scenario: string;
  cpuUs: number;
  p99Ms: number;
  /** Minor and major page faults per request (warm-up included). */
  minorFaults: number;
  majorFaults: number;
  rssAnonMiB: number;
  rssFileMiB: number;
  /** A batch's CPU over product by id's in the same round and checkout (the issue 27 target: ≤ 10). */
  overProductById?: number;
}

/** minflt and majflt of a process (/proc/PID/stat fields 10 and 12). */
function faults(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [Number(f[7]), Number(f[9])];
}

/** RssAnon and RssFile of a process, in MiB. */
export function rssParts(pid: number): { anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const old = take(argv, '--old');
  const rounds = Number(take(argv, '--rounds') ?? 2);
  const runs = Number(take(argv, '--runs') ?? 5);
  const paired = argv.includes('--paired') && argv.splice(argv.indexOf('--paired'), 1).length > 0;
  const file = take(argv, '--catalogue'); // another copy of the catalogue (page-cache experiments)
  const o = parseOptions(argv, process.env, cpus().length);
  const dist = resolve(__dirname, '..');
  const root = resolve(dist, '..');
  const cat = await ensureCatalogue(root, o);
  const w = buildWorkload(cat.file, o.seed);
  const work = join(root, 'var', 'bench', `batch-runs-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const { access, plans, key } = await benchAccess(work);
  const checkouts = old === undefined ? [root] : [root, resolve(old)];
  const out: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const checkout of checkouts) {
      const logFile = join(work, `serve-${round}.log`);
      const catalogue = file ?? cat.file;
      const opened = Date.now();
      const server = await startService(checkout, { catalogue, access, plans, logFile });
      const [minor, major] = faults(server.pid);
      log(`${checkout} serving after ${Date.now() - opened} ms, ${minor} minor and ${major} major faults`);
      try {
        const measure = async (scenario: string, requests: BenchRequest[]) => {
          const headers: Record<string, string> = { 'x-api-key': key };
          if (requests[0].method === 'POST') headers['content-type'] = 'application/json';
          const [minor0, major0] = faults(server.pid);
          const r = await runLoad(dist, work, scenario, {
            url: server.url,
            connections: o.connections,
            duration: o.duration,
            warmup: o.warmup,
            headers,
            requests,
            serverPid: server.pid,
          });
          const [minor1, major1] = faults(server.pid);
          const all = r.requests * (1 + o.warmup / o.duration); // faults are counted over the warm-up too
          const mem = rssParts(server.pid);
          const run: Run = {
            checkout: checkout === root ? 'new' : 'old',
            round,
            scenario,
            cpuUs: ((r.serverCpuMs ?? NaN) * 1000) / r.requests,
            p99Ms: r.p99,
            minorFaults: (minor1 - minor0) / all,
            majorFaults: (major1 - major0) / all,
            rssAnonMiB: mem.anon,
            rssFileMiB: mem.file,
          };
          const byId = [...out]
            .reverse()
            .find((o) => o.checkout === run.checkout && o.round === round && o.scenario.startsWith('product'));
          if (byId !== undefined && scenario.startsWith('batch')) run.overProductById = run.cpuUs / byId.cpuUs;
          out.push(run);
          log(
            `${run.checkout} round ${round} ${scenario}: ${run.cpuUs.toFixed(0)} µs/req, p99 ${run.p99Ms.toFixed(1)} ms, faults/req ` +
              `${run.minorFaults.toFixed(1)} minor ${run.majorFaults.toFixed(2)} major, ` +
              `RssAnon ${mem.anon.toFixed(0)} MiB, RssFile ${mem.file.toFixed(0)} MiB` +
              (run.overProductById === undefined ? '' : `, ${run.overProductById.toFixed(1)} × product by id`),
          );
        };
        for (let i = 1; i <= runs; i++) {
          if (i === 1 || paired) await measure(`product-by-id-${i}`, w.productById);
          await measure(`batch-${i}`, w.batch);
        }
      } finally {
        await server.stop();
      }
    }
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
  rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`batch-runs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
