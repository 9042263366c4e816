// In-process cost of a label analysis (parsing + joining + rendering one label against
// the served catalogue's join index), against a baseline measured in the same run on
// the same opened catalogue: a product read by id. Guarantees: reads only; figures are
// CPU time per call in this process (no HTTP), after a warm-up. Also the worst
// adversarial shapes (bench/label-shapes.ts) at 100,000 characters, the largest text the
// endpoint accepts: CPU ms per analysis, as one call (analyseLabel) and as the HTTP route
// runs it, in slices with the answer's bytes (analyseLabelInSlices; the target is judged
// on this one), and the longest the event loop was held (monitorEventLoopDelay while the
// sliced analyses run one after the other). CPU is the process's: it counts the garbage
// collector's helper threads.
// `node dist/bench/label-cost.js CATALOGUE_FILE` prints the shapes alone.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Catalogue } from '../src/catalogue/read-model';
import { ADVERSARIAL_SHAPES } from './label-shapes';

/** The longest label text the endpoint accepts (analyze-label.ts MAX_LABEL_TEXT). */
export const LONGEST_LABEL = 100_000;
/** Target: CPU per analysis of a 100,000-character text of any shape (issue 24). */
export const SHAPE_TARGET_MS = 20;

export interface LabelCost {
  /** Entries per analysed label (mean). */
  entries: number;
  labelAnalysisUs: number;
  productByIdUs: number;
  /** The worst shapes at LONGEST_LABEL characters, slowest served first: CPU ms per analysis, in one call and in slices. */
  shapes: { shape: string; ms: number; slicedMs: number }[];
  /** The longest event-loop delay while 100,000-character analyses ran, ms. */
  eventLoopMaxMs: number;
}

function perCall(calls: number, f: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(calls, 2_000); i++) f(i);
  const t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) f(i);
  return Number(process.hrtime.bigint() - t) / 1_000 / calls;
}

export async function measureLabelCost(
  file: string,
  texts: readonly string[],
  productIds: readonly string[],
  calls = 20_000,
): Promise<LabelCost> {
  const c = Catalogue.open(file);
  try {
    const entries =
      texts.reduce((n, t) => n + (JSON.parse(c.analyseLabel(t)) as { counts: { entries: number } }).counts.entries, 0) /
      texts.length;
    return {
      entries,
      labelAnalysisUs: perCall(calls, (i) => c.analyseLabel(texts[i % texts.length])),
      productByIdUs: perCall(calls, (i) => c.product(productIds[i % productIds.length])),
      ...(await measureShapes(c)),
    };
  } finally {
    c.close();
  }
}

/** CPU ms of f, best of 3 after one call. */
async function bestOf3(f: () => unknown): Promise<number> {
  await f();
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = process.cpuUsage();
    await f();
    const u = process.cpuUsage(t);
    best = Math.min(best, (u.user + u.system) / 1_000);
  }
  return best;
}

/** CPU ms of one analysis of each shape at LONGEST_LABEL characters (best of 3), in one call and in slices, and the event loop's longest hold. */
export async function measureShapes(c: Catalogue): Promise<Pick<LabelCost, 'shapes' | 'eventLoopMaxMs'>> {
  const texts = Object.entries(ADVERSARIAL_SHAPES).map(([shape, make]) => [
    shape,
    make(LONGEST_LABEL).slice(0, LONGEST_LABEL),
  ]);
  const shapes: LabelCost['shapes'] = [];
  for (const [shape, text] of texts) {
    const ms = await bestOf3(() => c.analyseLabel(text));
    shapes.push({ shape, ms, slicedMs: await bestOf3(() => c.analyseLabelInSlices(text)) });
  }
  shapes.sort((a, b) => b.slicedMs - a.slicedMs);
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  for (const [, text] of texts) await c.analyseLabelInSlices(text);
  await new Promise((done) => setTimeout(done, 5));
  h.disable();
  return { shapes, eventLoopMaxMs: h.max / 1e6 };
}

async function main(file: string): Promise<void> {
  const c = Catalogue.open(file);
  try {
    const r = await measureShapes(c);
    console.log('  sliced  one call  shape (CPU ms per analysis)');
    for (const s of r.shapes)
      console.log(`${s.slicedMs.toFixed(2).padStart(8)}  ${s.ms.toFixed(2).padStart(8)}  ${s.shape}`);
    console.log(
      `worst ${r.shapes[0].slicedMs.toFixed(2)} ms in slices (target ≤ ${SHAPE_TARGET_MS} ms); event loop held at most ${r.eventLoopMaxMs.toFixed(1)} ms`,
    );
  } finally {
    c.close();
  }
}

if (require.main === module) void main(process.argv[2] ?? 'data/catalogue.db');
