// `node dist/bench/tail-parts.js [--old DIR] [--rounds N] [--only A,B] [--duration S] [--warmup S]`:
// what sits in the tail of the latency at 32 connections. Each round, for each checkout in
// turn (new first in odd rounds, old first in even ones), runs the bare node:http server
// and then that checkout's service (`catalogue serve`, as route-runs.ts starts it) on each
// scenario asked for, with every process of the run (servers and load generators)
// preloading bench/turn-probe.ts. Guarantees: per scenario, over the measured window, it
// prints the client's p50/p99, the server's CPU per request and connections × that CPU
// (the mean wait when the server is saturated), the server's own view of each request (the
// request log's `ms`, p50/p99), and for the server and the load generator: their
// collections (scavenges and mark-compacts a second, their pause time a second and the
// longest) and their event-loop gaps over 2 ms (a second, the longest, and how much of
// the gaps' wall time the thread was off the CPU: descheduled or blocked in a syscall).
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { ensureCatalogue, log } from './catalogue';
import { runLoad } from './load';
import { parseOptions, take } from './options';
import { startBaseline, benchAccess, startService, type Server } from './servers';
import type { ProbeRecord } from './turn-probe';
import { buildWorkload, type BenchRequest, type Workload } from './workload';

const ROUTES: Record<string, (w: Workload) => BenchRequest[]> = {
  health: (w) => w.health,
  'product-by-id': (w) => w.productById,
  'product-search': (w) => w.productSearch,
  filter: (w) => w.filter,
  'ingredient-search': (w) => w.ingredientSearch,
};

interface Window {
  from: number;
  to: number;
}

/** Collections and gaps of one process within a window, per second. */
function parts(r: ProbeRecord, w: Window): string {
  const secs = (w.to - w.from) / 1000;
  const inW = (t: number) => r.origin + t >= w.from && r.origin + t < w.to;
  const gcs = r.gcs.filter(([t]) => inW(t));
  const kind = (k: string) => {
    const xs = gcs.filter((g) => g[2] === k).map((g) => g[1]);
    const sum = xs.reduce((a, b) => a + b, 0);
    return `${(xs.length / secs).toFixed(1)}/s ${(sum / secs).toFixed(1)} ms/s max ${Math.max(0, ...xs).toFixed(1)}`;
  };
  const gaps = r.gaps.filter(([t]) => inW(t));
  const wall = gaps.reduce((a, g) => a + g[1], 0);
  const off = gaps.reduce((a, g) => a + Math.max(0, g[1] - g[2]), 0);
  const long = gaps.filter((g) => g[1] > 5);
  return (
    `scavenge ${kind('minor')}; mark-compact ${kind('major')}; ` +
    `gaps>2ms ${(gaps.length / secs).toFixed(0)}/s (>5ms ${(long.length / secs).toFixed(1)}/s) max ${Math.max(0, ...gaps.map((g) => g[1])).toFixed(1)} ms, ` +
    `off-CPU ${(off / secs).toFixed(0)} ms/s of ${(wall / secs).toFixed(0)}`
  );
}

/** p50 and p99 of the request log's `ms` within the window. */
function logged(file: string, w: Window): string {
  const ms: number[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /"time":(\d+).*"msg":"request"/.exec(line) && /"ms":([\d.]+)/.exec(line);
    const t = Number(/"time":(\d+)/.exec(line)?.[1]);
    if (m && t >= w.from && t < w.to) ms.push(Number(m[1]));
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;
  return `logged p50 ${at(0.5).toFixed(2)} p99 ${at(0.99).toFixed(2)} ms`;
}

function probes(dir: string): ProbeRecord[] {
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ProbeRecord);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const old = take(argv, '--old');
  const rounds = Number(take(argv, '--rounds') ?? 1);
  const o = parseOptions(argv, process.env, cpus().length);
  const routes = Object.keys(ROUTES).filter((r) => o.only.length === 0 || o.only.includes(r));
  const dist = resolve(__dirname, '..');
  const root = resolve(dist, '..');
  const cat = await ensureCatalogue(root, o);
  const w = buildWorkload(cat.file, o.seed);
  const work = join(root, 'var', 'bench', `tail-parts-${process.pid}`);
  mkdirSync(work, { recursive: true });
  const { access, plans, key } = await benchAccess(work);
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${join(dist, 'bench', 'turn-probe.js')}`;
  const checkouts: Array<[string, string]> = [['new', root]];
  if (old !== undefined) checkouts.push(['old', resolve(old)]);
  let n = 0;
  /** Runs `start`'s server under one scenario's load; prints its figures. */
  const scenario = async (label: string, start: () => Promise<Server>, requests: BenchRequest[], logFile?: string) => {
    const dir = join(work, `probe-${++n}`);
    mkdirSync(dir);
    process.env.PROBE_DIR = dir;
    const server = await start();
    let to = 0;
    let r;
    try {
      r = await runLoad(dist, work, label, {
        url: server.url,
        connections: o.connections,
        duration: o.duration,
        warmup: o.warmup,
        headers: { 'x-api-key': key },
        requests,
        serverPid: server.pid,
      });
      to = Date.now();
    } finally {
      await server.stop();
    }
    const win = { from: to - o.duration * 1000, to };
    const cpuUs = ((r.serverCpuMs ?? NaN) * 1000) / r.requests;
    const recs = probes(dir);
    const ofServer = recs.find((p) => !p.argv[0].endsWith('load-worker.js'));
    const ofLoad = recs.find((p) => p.argv[0].endsWith('load-worker.js'));
    log(
      `${label}: p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} ms, ${cpuUs.toFixed(1)} µs/req, ` +
        `${o.connections} × CPU ${((o.connections * cpuUs) / 1000).toFixed(2)} ms, ${r.rps.toFixed(0)} req/s` +
        (logFile ? `, ${logged(logFile, win)}` : '') +
        `\n    server: ${ofServer ? parts(ofServer, win) : '?'}\n    load:   ${ofLoad ? parts(ofLoad, win) : '?'}`,
    );
  };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? checkouts : [...checkouts].reverse();
    for (const [checkout, dir] of order) {
      log(`round ${round} ${checkout} (load ${loadavg()[0].toFixed(1)})`);
      await scenario(`round ${round} ${checkout} bare`, () => startBaseline(dist, 0), w.productById);
      const logFile = join(work, 'serve.log');
      for (const route of routes)
        await scenario(
          `round ${round} ${checkout} ${route}`,
          () => startService(dir, { catalogue: cat.file, access, plans, logFile }),
          ROUTES[route](w),
          logFile,
        );
    }
  }
  rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`tail-parts: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
