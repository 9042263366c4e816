// Query results kept for reuse: the reachable rows (51 pages of 20) and the total of a
// query, least recently used dropped first. Guarantees: an entry never goes stale (a
// catalogue never changes; a new file gets a new read model and empty caches); memory is
// bounded by entries × 1,020 ords (REACHABLE, src/shared/paging.ts).

export interface CachedResult {
  ords: Int32Array;
  total: number;
}

export class ResultCache<T extends CachedResult> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly max: number) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: T): void {
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The window [skip, skip + limit) of a cached result's rows. */
export function rows(r: CachedResult, skip: number, limit: number): number[] {
  return Array.from(r.ords.subarray(skip, skip + limit));
}
