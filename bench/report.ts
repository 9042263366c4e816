// The benchmark's outputs: the one table on stdout, the target checks, the results
// JSON and BENCHMARKS.md. Guarantees: every ratio is to the baseline of the same run;
// a scenario with any non-2xx response or socket error is marked, never hidden.
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { BuildFigures } from './catalogue';
import type { LoadResult } from './load-worker';

export interface ScenarioResult extends LoadResult {
  name: string;
  /** Items per request (batch), for items per second. */
  items: number;
  ratio: number;
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
  serving: { rssBytes: number; peakRssBytes: number; idleRssBytes: number } | null;
  scenarios: ScenarioResult[];
  targets: TargetCheck[];
  /** In-process µs per label analysis and per product read by id (bench/label-cost.ts); null when not run. */
  labelCost: { entries: number; labelAnalysisUs: number; productByIdUs: number } | null;
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

export function checkTargets(r: Results): TargetCheck[] {
  const s = new Map(r.scenarios.map((x) => [x.name, x]));
  const out: TargetCheck[] = [];
  const ratio = (name: string, goal: number) => {
    const x = s.get(name);
    if (x)
      out.push({
        target: `${name} ≥ ${goal} × baseline req/s`,
        measured: `${fmt(x.ratio, 2)} ×`,
        pass: x.ratio >= goal,
      });
  };
  const p99 = (name: string, goal: number) => {
    const x = s.get(name);
    if (x) out.push({ target: `${name} p99 ≤ ${goal} ms`, measured: `${fmt(x.p99, 2)} ms`, pass: x.p99 <= goal });
  };
  const relative = (target: string, a: string, b: string, goal: number, per: (x: ScenarioResult) => number) => {
    const x = s.get(a),
      y = s.get(b);
    if (x && y) out.push({ target, measured: `${fmt(per(x) / per(y), 2)} ×`, pass: per(x) / per(y) >= goal });
  };
  ratio('product by id', 0.7);
  ratio('product search mix', 0.5);
  p99('product search mix', 5);
  ratio('filter mix', 0.5);
  p99('filter mix', 5);
  ratio('ingredient search', 0.6);
  relative(
    'batch of 50 items/s ≥ 1.5 × product by id req/s',
    'batch of 50',
    'product by id',
    1.5,
    (x) => x.rps * x.items,
  );
  const b = r.catalogue.build;
  out.push({
    target: `build of ${fmt(r.catalogue.products)} products ≤ 60 s`,
    measured: `${fmt(b.seconds, 1)} s`,
    pass: b.seconds <= 60,
  });
  out.push({
    target: 'build peak RSS ≤ 1 GiB',
    measured: `${fmt(b.peakRssBytes / 2 ** 20)} MiB`,
    pass: b.peakRssBytes <= 2 ** 30,
  });
  if (r.serving)
    out.push({
      target: 'serving RSS ≤ 300 MB (after the run)',
      measured: mb(r.serving.rssBytes),
      pass: r.serving.rssBytes <= 300 * MB,
    });
  for (const name of r.scenarios.map((x) => x.name).filter((n) => n.endsWith('(cluster)'))) {
    relative(`${name} ≥ 1.7 × one process`, name, name.replace(' (cluster)', ''), 1.7, (x) => x.rps);
  }
  relative(
    'metering on (SQLite) ≥ 0.9 × metering off',
    'product by id',
    'product by id (metering off)',
    0.9,
    (x) => x.rps,
  );
  relative(
    'metering on (Redis) ≥ 0.8 × metering off',
    'product by id (Redis metering)',
    'product by id (metering off)',
    0.8,
    (x) => x.rps,
  );
  return out;
}

function rows(r: Results): string[][] {
  return r.scenarios.map((x) => [
    x.name,
    fmt(x.rps),
    x.items > 1 ? fmt(x.rps * x.items) : '',
    fmt(x.p50, 2),
    fmt(x.p99, 2),
    `${fmt(x.ratio, 2)}`,
    x.serverCpuMs === null ? '' : fmt((x.serverCpuMs * 1000) / x.requests),
    problems(x),
  ]);
}

const HEAD = ['scenario', 'req/s', 'items/s', 'p50 ms', 'p99 ms', '× baseline', 'server CPU µs/req', 'problems'];

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
      .map((c, i) => (i === 0 || i === 7 ? c.padEnd(w[i]) : c.padStart(w[i])))
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
  return `in process: label analysis of ${fmt(c.entries, 1)} entries ${fmt(c.labelAnalysisUs, 1)} µs per label; product by id ${fmt(c.productByIdUs, 1)} µs (same run, same catalogue)\n`;
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
    'Ratios are to the baseline of the same run (a bare node:http server answering a fixed small JSON body).',
    'Metering is on (SQLite store, a plan without a per-second rate from a plans file) except where the scenario says otherwise.',
    'How the benchmark works and what it measures: docs/performance.md.',
    '',
    md(HEAD),
    md(HEAD.map((_, i) => (i === 0 || i === 7 ? '---' : '---:'))),
    ...rows(r).map(md),
    '',
    `Catalogue: ${fmt(r.catalogue.products)} products, ${fmt(r.catalogue.ingredients)} ingredients, file ${mb(r.catalogue.fileBytes)}.`,
    `Build: ${fmt(b.seconds, 1)} s, peak RSS ${fmt(b.peakRssBytes / 2 ** 20)} MiB (measured ${b.measuredAt.slice(0, 10)}).`,
    r.serving
      ? `Serving (one process): RSS ${mb(r.serving.idleRssBytes)} when ready, ${mb(r.serving.rssBytes)} after the run, peak ${mb(r.serving.peakRssBytes)}.`
      : '',
    labelCostText(r).trim(),
    '',
    '## Targets',
    '',
    md(['target', 'measured', '']),
    md(['---', '---:', '---']),
    ...r.targets.map((t) => md([t.target, t.measured, t.pass ? 'met' : '**missed**'])),
    '',
  ].join('\n');
}
