// Where a route's server CPU goes, by part: `node dist/bench/profile-parts.js DIR [US_PER_REQUEST]`.
// Reads the V8 CPU profiles a bench run wrote (`npm run bench -- --profile NAME`, DIR is the
// run's profile folder), reads the main thread's profile, skips the first SKIP_MS (start-up,
// catalogue open, warm-up) and idle samples, and sums self time into the parts of
// docs/performance.md's table: framework, hooks, access and metering, validation, read, log,
// socket, collection, other. With the scenario's
// CPU µs per request, each part is also printed in µs. Guarantees: every busy sample counts
// in exactly one part (by the file its function is in — a native function's is its caller's —
// or the builtin's name; a sample with a log file among its nearest callers is the log's: the
// file write of a log block is node:fs's, called by sonic-boom; node's own functions called by
// the catalogue's files, a pread's node:fs or Buffer's copies, are the read's).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

const SKIP_MS = Number(process.env.SKIP_MS ?? 15_000);
const IDLE = new Set(['(idle)', '(program)']);

/** A part's test: the sampled function's name, the file it is in (for a native function, its caller's) and its callers' files. */
type Test = (url: string, fn: string, callers: string[]) => boolean;
const LOG = /request-log|log-blocks|\/pino\/|sonic-boom/;
/** Callers looked at for the log (the file write a log block ends in is node:fs's, called by sonic-boom). */
const LOG_CALLERS = 4;

const PARTS: Array<[string, Test]> = [
  ['collection', (_u, f) => f === '(garbage collector)'],
  ['log', (u, _f, callers) => LOG.test(u) || callers.some((c) => LOG.test(c))],
  ['access and metering', (u) => /\/src\/access\/|better-sqlite3\/lib\/methods\/transaction|crypto\/hash/.test(u)],
  ['validation', (u) => /validator|validation|\/ajv\/|typebox|fast-querystring|src\/http\/query/.test(u)],
  ['hooks', (u) => /src\/http\/(security-headers|raw-answers|unread-body|catalogue-outage|access-hooks)/.test(u)],
  // The catalogue's own files, and what they call in node (a pread's node:fs, Buffer's copies).
  [
    'read (catalogue)',
    (u, _f, callers) =>
      /\/src\/catalogue\/|better-sqlite3/.test(u) ||
      (/^node:/.test(u) && callers.slice(0, 2).some((c) => /\/src\/catalogue\//.test(c))),
  ],
  [
    'socket (write and read)',
    (u, f) =>
      /^(writev|writeString|writeBuffer|writeUtf8String|writeLatin1String|readStart|onStreamRead)$/.test(f) ||
      /stream_base_commons|internal\/streams|node:net/.test(u),
  ],
  [
    'framework (fastify, node:http, event loop)',
    (u, f) =>
      /fastify|find-my-way|avvio|_http_|node:events|task_queues|timers|async_hooks|src\/http\//.test(u) ||
      f === '(anonymous)',
  ],
  ['other', () => true],
];

export function parts(dir: string): Map<string, number> {
  const out = new Map<string, number>(PARTS.map(([p]) => [p, 0]));
  // The main thread's profile only (CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile, thread 0): a
  // worker thread waiting (a label or hashing thread, in Atomics.wait) is sampled as busy.
  for (const f of readdirSync(dir).filter((n) => /\.0\.\d+\.cpuprofile$/.test(n))) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const partOf = new Map<number, string | null>();
    for (const n of p.nodes) {
      const { functionName: fn } = n.callFrame;
      // Files of the callers, nearest first; a native function (no file) counts in its caller's file.
      const files: string[] = [];
      for (let id = parent.get(n.id); id !== undefined && files.length < LOG_CALLERS; id = parent.get(id)) {
        const u = byId.get(id)!.callFrame.url;
        if (u !== '') files.push(u);
      }
      const url = n.callFrame.url || (fn.startsWith('(') ? '' : (files[0] ?? ''));
      partOf.set(n.id, IDLE.has(fn) ? null : PARTS.find(([, test]) => test(url, fn, files))![0]);
    }
    let t = 0;
    p.samples.forEach((id, i) => {
      t += p.timeDeltas[i] ?? 0;
      const part = partOf.get(id);
      if (t >= SKIP_MS * 1000 && part) out.set(part, out.get(part)! + 1);
    });
  }
  return out;
}

if (require.main === module) {
  const [dir, perRequest] = process.argv.slice(2);
  const counts = parts(dir);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  for (const [part, n] of counts) {
    const share = n / total;
    const us = perRequest === undefined ? '' : `  ${(share * Number(perRequest)).toFixed(1).padStart(6)} µs`;
    process.stdout.write(`${part.padEnd(44)} ${(100 * share).toFixed(1).padStart(5)} %${us}\n`);
  }
}
