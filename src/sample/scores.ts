// Irritancy and comedogenicity per CosIng ingredient, pooled from CosDNA (KG
// ingredients.jl) and the Fulton table. Guarantees: "N" when every source value
// agrees, "N-M" (lowest-highest) when the sources disagree or give several values;
// only integers 0..5 are kept.

export class ScoreBook {
  private readonly irr = new Map<string, number[]>();
  private readonly com = new Map<string, number[]>();

  add(inci: string, irritancy: readonly number[] | null, comedogenicity: readonly number[] | null): void {
    push(this.irr, inci, irritancy);
    push(this.com, inci, comedogenicity);
  }

  scores(inci: string): { irritancy: string | null; comedogenicity: string | null } {
    return { irritancy: range(this.irr.get(inci)), comedogenicity: range(this.com.get(inci)) };
  }
}

function push(m: Map<string, number[]>, k: string, vs: readonly number[] | null): void {
  const ok = (vs ?? []).filter((v) => Number.isInteger(v) && v >= 0 && v <= 5);
  if (ok.length === 0) return;
  m.set(k, [...(m.get(k) ?? []), ...ok]);
}

export function range(vs: readonly number[] | undefined): string | null {
  if (!vs || vs.length === 0) return null;
  const lo = Math.min(...vs);
  const hi = Math.max(...vs);
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}
