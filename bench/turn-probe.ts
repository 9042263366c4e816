// Preloaded into a bench process (`node --require dist/bench/turn-probe.js …`, through
// NODE_OPTIONS) when PROBE_DIR is set: records, with wall times, every gap of the event
// loop longer than GAP_MS (a 1 ms interval timer fired late) with the thread's CPU over it,
// and every garbage collection (kind and pause), and writes them to
// PROBE_DIR/<pid>.json when the process exits. Guarantees: nothing else changes in the
// process; without PROBE_DIR it does nothing. Costs one timer a millisecond.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';

export interface ProbeRecord {
  argv: string[];
  /** performance.timeOrigin: add to the times below for epoch milliseconds. */
  origin: number;
  /** [end ms, wall ms, thread CPU ms] of each gap longer than GAP_MS. */
  gaps: number[][];
  /** Timer ticks seen (one a turn or a millisecond, whichever is longer). */
  ticks: number[];
  /** [start ms, pause ms, kind] of each collection: 'minor' (scavenge), 'major' (mark-compact), 'incremental', 'weak'. */
  gcs: Array<[number, number, string]>;
}

const GAP_MS = 2;
const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};

function start(dir: string): void {
  const rec: ProbeRecord = {
    argv: process.argv.slice(1),
    origin: performance.timeOrigin,
    gaps: [],
    ticks: [],
    gcs: [],
  };
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  let lastWall = performance.now();
  let lastCpu = cpu();
  let second = Math.floor(lastWall / 1000);
  let ticks = 0;
  setInterval(() => {
    const wall = performance.now();
    const c = cpu();
    if (wall - lastWall > GAP_MS) rec.gaps.push([wall, wall - lastWall, c - lastCpu]);
    const s = Math.floor(wall / 1000);
    if (s !== second) {
      rec.ticks.push(s * 1000, ticks);
      second = s;
      ticks = 0;
    }
    ticks++;
    lastWall = wall;
    lastCpu = c;
  }, 1).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? -1;
      rec.gcs.push([e.startTime, e.duration, KINDS[kind] ?? String(kind)]);
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(rec)));
}

if (process.env.PROBE_DIR && isMainThread) start(process.env.PROBE_DIR);
