// The load generator, run as its own process so it never shares an event loop with a
// server: `node dist/bench/load-worker.js CONFIG.json` prints one LoadResult as JSON.
// Guarantees: no pipelining; each connection is its own autocannon client cycling
// through a differently rotated copy of the prebuilt request list (so connections do
// not ask for the same thing at once and no request is built while measuring);
// latency percentiles are exact (sub-millisecond), over the measured window only.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { BenchRequest } from './workload';

export interface LoadConfig {
  url: string;
  connections: number;
  duration: number;
  warmup: number;
  headers: Record<string, string>;
  requests: BenchRequest[];
  /** The server's process id: its CPU time (and its children's) over the measured window is reported. */
  serverPid?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** CPU milliseconds the server process (and its workers) used in the measured window; null when unknown. */
  serverCpuMs: number | null;
  /** Bytes of all responses (status line, headers and body) in the measured window. */
  bytes: number;
}

async function load(cfg: LoadConfig, seconds: number, latencies: number[] | undefined): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  let first = 0n;
  let last = 0n;
  let bytes = 0;
  const runs = Array.from({ length: cfg.connections }, (_, c) => {
    const shift = Math.floor((c * cfg.requests.length) / cfg.connections);
    const requests = cfg.requests.map((_, i) => ({ ...cfg.requests[(i + shift) % cfg.requests.length] }));
    const instance = autocannon({
      url: cfg.url,
      connections: 1,
      pipelining: 1,
      duration: seconds,
      headers: cfg.headers,
      requests,
    });
    (instance as unknown as NodeJS.EventEmitter).on(
      'response',
      (_client: unknown, status: number, responseBytes: number, ms: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        bytes += responseBytes;
        last = process.hrtime.bigint();
        if (first === 0n) first = last;
        latencies?.push(ms);
      },
    );
    return instance;
  });
  const results = await Promise.all(runs);
  const elapsed = Number(last - first) / 1e9;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const sorted = Float64Array.from(latencies ?? []).sort();
  const at = (q: number) =>
    sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    requests: total,
    seconds: elapsed,
    rps: total / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    statuses,
    errors: results.reduce((a, r) => a + r.errors, 0),
    timeouts: results.reduce((a, r) => a + r.timeouts, 0),
    serverCpuMs: null,
    bytes,
  };
}

async function main(): Promise<void> {
  const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadConfig;
  if (cfg.warmup > 0) await load(cfg, cfg.warmup, undefined);
  const before = cpuMs(cfg.serverPid);
  const result = await load(cfg, cfg.duration, []);
  const after = cpuMs(cfg.serverPid);
  result.serverCpuMs = before === null || after === null ? null : after - before;
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => {
  process.stderr.write(`load-worker: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

/** user + system CPU ms of a process and its descendants, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    let ms = (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean))
      ms += cpuMs(Number(child)) ?? 0;
    return ms;
  } catch {
    return null;
  }
}
