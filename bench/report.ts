// The benchmark's outputs: the one table on stdout, the target checks, the results
// JSON and BENCHMARKS.md. Guarantees: every CPU ratio is to a bare node:http server of the
// same run (the small-body one, or for whole products the one sending a product-sized
// body); a scenario with any non-2xx response or socket error is marked, never hidden.
import type { FloodResult } from './signin-flood';
import { GROWTH_TARGET, SHAPE_TARGET_MS } from './label-cost';
import { swapHoldText, type SwapHold } from './swap-hold';
import { INTERFERENCE_TARGET, interferenceText, type Interference } from './label-interference';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { BuildFigures } from './catalogue';
import type { LoadResult } from './load-worker';

export interface ScenarioResult extends LoadResult {
  name: string;
  /** Items per request (batch), for items per second. */
  items: number;
  /** Server CPU µs (user + system) per answered request. */
  cpuUs: number;
  /** cpuUs divided by the bare server's in the same run. */
  cpuRatio: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
}

export interface Results {
  date: string;
  machine: { cores: number; cpu: string; memoryGiB: number; node: string; platform: string };
  command: string;
  settings: { connections: number; duration: number; warmup: number; pipelining: 1 };
  /** 1-minute load average before and after the run: other work on the machine skews every figure. */
  loadAverage: { before: number; after: number };
  catalogue: { products: number; ingredients: number; fileBytes: number; build: BuildFigures };
  /** RSS of the one-process service; mappedRssBytes is the part that is the catalogue file's mapped pages, after the run. */
  serving: {
    rssBytes: number;
    peakRssBytes: number;
    idleRssBytes: number;
    mappedRssBytes: number;
    /** RssAnon after the run: what the process holds itself (older results lack it). */
    anonRssBytes?: number;
    /** RssAnon when ready, before the first request (older results lack it). */
    idleAnonRssBytes?: number;
  } | null;
  scenarios: ScenarioResult[];
  targets: TargetCheck[];
  /** The API beside a sign-in flood (bench/signin-flood.ts); absent when not run. */
  signinFlood?: FloodResult;
  /** In-process µs per label analysis and per product read by id (bench/label-cost.ts); null when not run. */
  labelCost: {
    entries: number;
    labelAnalysisUs: number;
    productByIdUs: number;
    shapes: { shape: string; ms: number; servedMs: number }[];
    worst: { shape: string; shortMs: number; longMs: number; growth: number }[];
    eventLoopMaxMs: number;
    /** CPU ms of the bench's fixed reference work in the same run (bench/label-cost.ts referenceWork). */
    referenceMs: number;
    /** A catalogue swap's event-loop hold (bench/swap-hold.ts). */
    swap?: SwapHold;
    /** Product by id p99 beside a client looping the worst labels (bench/label-interference.ts). */
    interference?: Interference;
  } | null;
}

export function machine(): Results['machine'] {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {
    /* not Linux: os.cpus() model */
  }
  return {
    cores: cpus().length,
    cpu,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

const MB = 1e6;
const fmt = (n: number, d = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '-';
const mb = (b: number) => `${fmt(b / MB)} MB`;
const MIB = 2 ** 20;
const mib = (b: number) => `${fmt(b / MIB)} MiB`;

export function checkTargets(r: Results): TargetCheck[] {
  const s = new Map(r.scenarios.map((x) => [x.name, x]));
  const out: TargetCheck[] = [];
  const cpu = (name: string, goal: number, bare = 'a bare server') => {
    const x = s.get(name);
    if (x)
      out.push({
        target: `${name}: CPU per request ≤ ${goal} × ${bare}`,
        measured: `${fmt(x.cpuRatio, 2)} ×`,
        pass: x.cpuRatio <= goal,
      });
  };
  const p99 = (name: string, goal: number) => {
    const x = s.get(name);
    if (x) out.push({ target: `${name}: p99 ≤ ${goal} ms`, measured: `${fmt(x.p99, 2)} ms`, pass: x.p99 <= goal });
  };
  const most = (target: string, measured: number, goal: number, show: (n: number) => string) =>
    out.push({ target: `${target} ≤ ${show(goal)}`, measured: show(measured), pass: measured <= goal });
  // issue 35's targets (docs/performance.md, round five)
  cpu('health', 1.8);
  cpu('product by id', 3, 'a bare server sending the same bytes');
  cpu('ingredient by id', 2.5);
  cpu('product search mix', 4);
  p99('product search mix', 8);
  cpu('filter mix', 4);
  p99('filter mix', 8);
  cpu('ingredient search', 3);
  p99('ingredient search', 8);
  const per = (a: string, b: string) => {
    const x = s.get(a),
      y = s.get(b);
    return x && y ? x.cpuUs / y.cpuUs : undefined;
  };
  const batch = per('batch of 50', 'product by id');
  if (batch !== undefined) most('batch of 50: CPU per request', batch, 10, (n) => `${fmt(n, 2)} × product by id`);
  const redis = per('product by id (Redis metering)', 'product by id');
  if (redis !== undefined)
    most('product by id, Redis store: CPU per request', redis, 1.1, (n) => `${fmt(n, 2)} × the SQLite store`);
  const worst = r.labelCost?.shapes[0];
  if (worst)
    most(
      `label analysis of 100,000 characters as served (a label thread), worst shape (${worst.shape}): CPU`,
      worst.servedMs,
      SHAPE_TARGET_MS,
      (n) => `${fmt(n, 1)} ms`,
    );
  const lc = r.labelCost?.interference;
  if (lc)
    most(
      'product by id p99 while one client loops the worst labels, against quiet',
      lc.during.p99 / lc.quiet.p99,
      INTERFERENCE_TARGET,
      (n) => `×${fmt(n, 2)}`,
    );
  const growth = r.labelCost?.worst.slice().sort((a, b) => b.growth - a.growth)[0];
  if (growth)
    most(
      `label analysis served, growth from 25,000 to 100,000 characters, worst (${growth.shape})`,
      growth.growth,
      GROWTH_TARGET,
      (n) => `×${fmt(n, 2)}`,
    );
  const b = r.catalogue.build;
  const gib = (n: number) => `${fmt(n / 2 ** 30, 2)} GiB`;
  most(`build of ${fmt(r.catalogue.products)} products`, b.seconds, 30, (n) => `${fmt(n, 1)} s`);
  most('build peak RSS', b.peakRssBytes, 2 ** 30, gib);
  most('catalogue file', r.catalogue.fileBytes, 2 ** 30, gib);
  // The catalogue file is memory-mapped: its pages count in RSS as file pages, where reading
  // it with read() kept them in the page cache outside RSS. The process's own memory is its
  // anonymous resident memory (RssAnon): no file pages, the program's own text included.
  if (r.serving?.anonRssBytes !== undefined)
    most('serving anonymous RSS (RssAnon) after the run', r.serving.anonRssBytes, 300 * MIB, mib);
  return out;
}

function rows(r: Results): string[][] {
  return r.scenarios.map((x) => [
    x.name,
    fmt(x.rps),
    x.items > 1 ? fmt(x.rps * x.items) : '',
    fmt(x.p50, 2),
    fmt(x.p99, 2),
    fmt(x.cpuUs, 1),
    fmt(x.cpuRatio, 2),
    fmt(x.bytes / x.requests),
    problems(x),
  ]);
}

const HEAD = ['scenario', 'req/s', 'items/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'CPU × bare', 'bytes/resp', 'problems'];
const LAST = HEAD.length - 1;

function problems(x: ScenarioResult): string {
  const bad = Object.entries(x.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${n}×${code}`);
  if (x.errors) bad.push(`${x.errors} errors`);
  if (x.timeouts) bad.push(`${x.timeouts} timeouts`);
  return bad.join(' ');
}

export function textTable(r: Results): string {
  const all = [HEAD, ...rows(r)];
  const w = HEAD.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 0 || i === LAST ? c.padEnd(w[i]) : c.padStart(w[i])))
      .join('  ')
      .trimEnd();
  return [line(HEAD), ...rows(r).map(line)].join('\n') + '\n';
}

export function targetsText(r: Results): string {
  return (
    r.targets.map((t) => `${t.pass ? 'pass' : 'MISS'}  ${t.target}: ${t.measured}`).join('\n') + '\n' + labelCostText(r)
  );
}

/** The in-process label analysis figure, one line (empty when not measured). */
export function labelCostText(r: Results): string {
  const c = r.labelCost;
  if (!c) return '';
  const shapes = c.shapes
    .slice(0, 5)
    .map(
      (x) =>
        `${x.shape} ${fmt(x.servedMs, 1)} ms (${fmt(x.ms, 1)} on the request thread; ×${fmt(x.servedMs / c.referenceMs, 2)} the reference)`,
    )
    .join(', ');
  const growth = c.worst
    .map((w) => `${w.shape} ${fmt(w.shortMs, 1)} → ${fmt(w.longMs, 1)} ms (×${fmt(w.growth, 2)})`)
    .join(', ');
  return (
    `in process: label analysis of ${fmt(c.entries, 1)} entries ${fmt(c.labelAnalysisUs, 1)} µs per label; product by id ${fmt(c.productByIdUs, 1)} µs (same run, same catalogue)\n` +
    `in process: 100,000-character labels, worst shapes (CPU per analysis as served, on a label thread): ${shapes}; event loop held at most ${fmt(c.eventLoopMaxMs, 1)} ms; reference work ${fmt(c.referenceMs, 1)} ms\n` +
    `in process: worst shapes served at 25,000 → 100,000 characters: ${growth}\n` +
    (c.swap ? swapHoldText(c.swap) : '') +
    (c.interference ? interferenceText(c.interference) : '')
  );
}

export function markdown(r: Results): string {
  const md = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const m = r.machine;
  const b = r.catalogue.build;
  return [
    '# Benchmarks',
    '',
    `Latest full run: ${r.date.slice(0, 10)} on ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB memory, Node ${m.node} (${m.platform}).`,
    `Command: \`${r.command}\`. Load: ${r.settings.connections} connections, no pipelining, ${r.settings.warmup} s warm-up then ${r.settings.duration} s per scenario;`,
    'the load generator (autocannon) runs in its own process on the same machine, so it competes with the server for the cores.',
    `Load average (1 min) before the run ${fmt(r.loadAverage.before, 2)}, after ${fmt(r.loadAverage.after, 2)} (it includes the benchmark itself).`,
    "CPU is the server process's user + system time over the measured window (from /proc), per answered request. `CPU × bare` divides it by",
    'that of a bare node:http server in the same run: the one answering a fixed small JSON body, or, for whole products (by id, barcode,',
    'metering off, Redis, cluster), the one answering a body of the mean product size. `bytes/resp` counts status line, headers and body.',
    "`bare fastify` answers the small body from a fastify app with one route and nothing else: the framework's own floor.",
    'Metering is on (SQLite store, a plan without a per-second rate from a plans file) except where the scenario says otherwise;',
    'the service logs at its default level (info: one line per request) to a file, as an operator runs it.',
    'How the benchmark works and what it measures: docs/performance.md.',
    '',
    md(HEAD),
    md(HEAD.map((_, i) => (i === 0 || i === LAST ? '---' : '---:'))),
    ...rows(r).map(md),
    '',
    `Catalogue: ${fmt(r.catalogue.products)} products, ${fmt(r.catalogue.ingredients)} ingredients, file ${mb(r.catalogue.fileBytes)}.`,
    `Build: ${fmt(b.seconds, 1)} s, peak RSS ${fmt(b.peakRssBytes / 2 ** 20)} MiB (measured ${b.measuredAt.slice(0, 10)}).`,
    r.serving
      ? `Serving (one process): RSS ${mb(r.serving.idleRssBytes)} when ready, ${mb(r.serving.rssBytes)} after the run (of which ${mb(r.serving.mappedRssBytes)} the catalogue file's mapped pages; anonymous ${anonText(r.serving)}), peak ${mb(r.serving.peakRssBytes)}.`
      : '',
    labelCostText(r).trim(),
    '',
    '## Targets',
    '',
    md(['target', 'measured', '']),
    md(['---', '---:', '---']),
    ...r.targets.map((t) => md([t.target, t.measured, t.pass ? 'met' : '**missed**'])),
    '',
    ...limits(r),
  ].join('\n');
}

/** The floors this run measured under the missed CPU targets (the analysis: docs/performance.md, "Limits"). */
function limits(r: Results): string[] {
  const s = new Map(r.scenarios.map((x) => [x.name, x]));
  const ratio = (name: string) => fmt(s.get(name)?.cpuRatio ?? NaN, 2);
  if (!s.has('bare fastify (framework floor)') || !s.has('health')) return [];
  return [
    '## Limits',
    '',
    `In this run a fastify app with one route and nothing else costs ${ratio('bare fastify (framework floor)')} × the bare server's CPU`,
    `per request, and \`/health\`, which reads nothing and is not metered (security headers and the request's log line on top),`,
    `costs ${ratio('health')} ×. Every other endpoint does all of that and more: no target can be below what the framework and`,
    'one log line per request cost by themselves. What each target reached, where the microseconds go and what is out of reach on',
    'this stack and machine: docs/performance.md, "Round five" and "Limits".',
    '',
  ];
}

/** RssAnon when ready and after the run, as far as the results hold them. */
function anonText(s: NonNullable<Results['serving']>): string {
  if (s.anonRssBytes === undefined) return 'not measured';
  const ready = s.idleAnonRssBytes === undefined ? '' : `${mib(s.idleAnonRssBytes)} when ready, `;
  return `${ready}${mib(s.anonRssBytes)} after`;
}
