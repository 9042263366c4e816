// In-process cost of a label analysis (parsing + joining + rendering one label against
// the served catalogue's join index), against a baseline measured in the same run on
// the same opened catalogue: a product read by id. Guarantees: reads only; figures are
// CPU time per call in this process (no HTTP), after a warm-up.
import { Catalogue } from '../src/catalogue/read-model';

export interface LabelCost {
  /** Entries per analysed label (mean). */
  entries: number;
  labelAnalysisUs: number;
  productByIdUs: number;
}

function perCall(calls: number, f: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(calls, 2_000); i++) f(i);
  const t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) f(i);
  return Number(process.hrtime.bigint() - t) / 1_000 / calls;
}

export function measureLabelCost(
  file: string,
  texts: readonly string[],
  productIds: readonly string[],
  calls = 20_000,
): LabelCost {
  const c = Catalogue.open(file);
  try {
    const entries =
      texts.reduce((n, t) => n + (JSON.parse(c.analyseLabel(t)) as { counts: { entries: number } }).counts.entries, 0) /
      texts.length;
    return {
      entries,
      labelAnalysisUs: perCall(calls, (i) => c.analyseLabel(texts[i % texts.length])),
      productByIdUs: perCall(calls, (i) => c.product(productIds[i % productIds.length])),
    };
  } finally {
    c.close();
  }
}
