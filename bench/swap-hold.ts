// How long a catalogue swap (rename + SIGHUP: CatalogueReloader.reload) holds the request
// thread's event loop, against what the swap did before label analysis moved to worker
// threads (open, then make the label join tables on this thread), measured in the same
// run on the same file. Guarantees: reads only; each figure is the longest event-loop
// delay (monitorEventLoopDelay, 1 ms resolution) from the swap until the new catalogue's
// first label is answered, best and worst of ROUNDS; the open alone is timed too.
// `node dist/bench/swap-hold.js CATALOGUE_FILE [ROUNDS]`; `npm run bench` prints it too.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { Catalogue } from '../src/catalogue/read-model';
import { LabelPool } from '../src/catalogue/label-pool';
import { CatalogueReloader } from '../src/ops/catalogue-reloader';

export interface SwapHold {
  /** Longest event-loop hold, ms: open and make the label tables on this thread (as before), best and worst round. */
  before: [number, number];
  /** The same for a swap as served now (reload: the file opened in steps, the label threads make the tables), until the first label is answered. */
  after: [number, number];
  /** Catalogue.open alone (ms wall), best round. */
  openMs: number;
}

/** The longest event-loop delay while `work` runs and a little after, ms. */
async function held(work: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  await new Promise((done) => setTimeout(done, 20));
  h.enable();
  await new Promise((done) => setTimeout(done, 20)); // the monitor's timer running before the work starts
  await work();
  await new Promise((done) => setTimeout(done, 20));
  h.disable();
  return h.max / 1e6;
}

const range = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

export async function measureSwapHold(file: string, rounds = 3): Promise<SwapHold> {
  const before: number[] = [];
  const after: number[] = [];
  const opens: number[] = [];
  const pool = new LabelPool({ threads: 1, queue: 0 });
  const reloader = new CatalogueReloader(file, pino({ level: 'silent' }), (outcome, c) => {
    if (outcome === 'swapped') pool.announce(c);
  });
  try {
    pool.announce(reloader.ref.current);
    await pool.analyse(reloader.ref.current, 'Aqua');
    for (let i = 0; i < rounds; i++) {
      // Before: the swap opened the file and made the label join tables on the request thread.
      before.push(
        await held(async () => {
          const t = performance.now();
          const c = Catalogue.open(file);
          opens.push(performance.now() - t);
          c.analyseLabel('Aqua');
          c.close();
        }),
      );
      // Now: the reloader opens the file in steps; the label threads make the tables; until the first label is answered.
      after.push(
        await held(async () => {
          await reloader.reload('bench');
          await pool.analyse(reloader.ref.current, 'Aqua');
        }),
      );
    }
    return { before: range(before), after: range(after), openMs: Math.min(...opens) };
  } finally {
    reloader.close();
    await pool.close();
    reloader.ref.current.close();
  }
}

export function swapHoldText(r: SwapHold): string {
  const f = ([a, b]: [number, number]) => `${a.toFixed(0)}–${b.toFixed(0)} ms`;
  return (
    `catalogue swap: event loop held ${f(r.after)} (label tables made on the label threads), ` +
    `against ${f(r.before)} when this thread made them at open (open alone ${r.openMs.toFixed(0)} ms)\n`
  );
}

async function main(file: string, rounds: number): Promise<void> {
  process.stdout.write(swapHoldText(await measureSwapHold(file, rounds)));
}

if (require.main === module) void main(process.argv[2] ?? 'data/catalogue.db', Number(process.argv[3] ?? 3));
