// Query results kept for reuse: the rows of a query up to the deepest window asked for so
// far, and its total, least recently used dropped first. Guarantees: an entry never goes
// stale (a catalogue never changes; a new file gets a new read model and empty caches);
// what a cache holds is bounded by its budget in ords (4 bytes each), an entry counting
// its rows plus ENTRY_ORDS for its key and bookkeeping, so that many shallow answers
// (page 1: 20 rows) fit where a few deep ones would.

export interface CachedResult {
  ords: Int32Array;
  total: number;
}

/** What an entry costs beyond its rows (Map slot, key, result object), in ords. */
const ENTRY_ORDS = 48;

export class ResultCache<T extends CachedResult> {
  private readonly entries = new Map<string, T>();
  private held = 0;

  constructor(private readonly budgetOrds: number) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: T): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.held -= cost(key, old);
    }
    this.entries.set(key, value);
    this.held += cost(key, value);
    while (this.held > this.budgetOrds) {
      const [k, v] = this.entries.entries().next().value!;
      this.entries.delete(k);
      this.held -= cost(k, v);
    }
  }
}

function cost(key: string, r: CachedResult): number {
  return r.ords.length + ENTRY_ORDS + (key.length >>> 1);
}

/** True when a kept result holds the window [skip, skip + limit): every row up to its end, or all there are. */
export function holds(r: CachedResult, skip: number, limit: number): boolean {
  return r.ords.length >= skip + limit || r.ords.length >= r.total;
}

/** The window [skip, skip + limit) of a kept result's rows (a view of them: read, never written). */
export function rows(r: CachedResult, skip: number, limit: number): Int32Array {
  return r.ords.subarray(skip, skip + limit);
}
