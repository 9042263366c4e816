// Summarises the V8 CPU profile a server wrote (--cpu-prof): the functions with the
// most self time, and self time per source file, as plain text. Only samples taken
// `skipMs` or more after the profile began count (so start-up and warm-up are left out),
// and idle time is left out: percentages are of the time the process was busy.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)']);

export function summariseProfile(dir: string, top: number, skipMs: number): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) return `no CPU profile in ${dir}\n`;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const f of files) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
    const hitsOf = new Map<number, number>();
    let t = 0;
    p.samples.forEach((id, i) => {
      t += p.timeDeltas[i] ?? 0;
      if (t >= skipMs * 1000) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
    });
    for (const n of p.nodes) {
      const hits = hitsOf.get(n.id) ?? 0;
      if (hits === 0 || IDLE.has(n.callFrame.functionName)) continue;
      const url = shorten(n.callFrame.url);
      const fn = `${n.callFrame.functionName || '(anonymous)'}  ${url}${url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
      const file = url || n.callFrame.functionName;
      byFile.set(file, (byFile.get(file) ?? 0) + hits);
      total += hits;
    }
  }
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `CPU profile (${files.join(', ')} in ${dir}): self time while busy, from ${(skipMs / 1000).toFixed(1)} s after start\n\nby function:\n${list(byFunction, top)}\n\nby file:\n${list(byFile, top)}\n`;
}

function shorten(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}
