// Product filters as set algebra over catalogue ords. Guarantees: results are in
// catalogue order; total is exact. Any set holding more than 1/32 of the catalogue is
// kept as a bitset (which is then also the smaller form), smaller ones as ascending
// lists. A filter naming a short list costs one probe per listed product and named set;
// one made of bitsets only costs a copy and one pass over products/32 words per further
// set (the last pass also counts), whatever the counts; a single kept bitset (a
// combination of free-from tags, kept once made, or a common ingredient) costs only the
// rows read from it. The total and rows of the last CACHE_ENTRIES filters are kept, so a
// repeated filter costs a lookup.
import { Bitset } from './bitset';
import { FLAG_BIT } from './format';
import { INGREDIENT_CATEGORIES, type IngredientCategory } from '../source/records';
import { ResultCache, rows, type CachedResult } from './result-cache';

export interface ProductFilter {
  category?: string;
  /** brandKey() of the requested brand. */
  brandKey?: string;
  origin?: string;
  /** Free-from tags the products must not contain. */
  freeOf: IngredientCategory[];
  /** Ingredient ord the products must contain; -1 for an unknown ingredient. */
  has?: number;
  /** Ingredient ords the products must not contain (unknown ids already dropped). */
  excludes: number[];
}

export interface ProductRowMeta {
  ord: number;
  brand_key: string | null;
  category: string | null;
  origin: string | null;
  flags: number;
}

/** A set of product ords: an ascending list when small, a bitset when large. */
type DocSet = Int32Array | Bitset;

/** Filters whose results are kept (at most 4 KB each: rows are asked for up to page 51). */
const CACHE_ENTRIES = 1024;

export class FilterIndex {
  private readonly freeOf = new Map<IngredientCategory, Bitset>();
  /** Products free of several tags, by the mask of their FLAG_BITs. */
  private readonly freeCombos = new Map<number, Bitset>();
  private readonly sizes = new Map<Bitset, number>();
  private readonly category = new Map<string, DocSet>();
  private readonly brand = new Map<string, DocSet>();
  private readonly origin = new Map<string, DocSet>();
  private readonly ingredients: DocSet[];
  private readonly result: Bitset;
  private readonly cache = new ResultCache<CachedResult>(CACHE_ENTRIES);

  /** `ingredientProducts[ord]`: ascending product ords containing ingredient ord (undefined for none). */
  constructor(
    readonly size: number,
    rows: Iterable<ProductRowMeta>,
    ingredientProducts: Array<Int32Array | undefined>,
  ) {
    this.ingredients = Array.from(ingredientProducts, (l) => this.docSet(l ?? EMPTY));
    const cats = new Map<string, number[]>(),
      brands = new Map<string, number[]>(),
      origins = new Map<string, number[]>();
    for (const c of INGREDIENT_CATEGORIES) this.freeOf.set(c, new Bitset(size));
    for (const r of rows) {
      for (const c of INGREDIENT_CATEGORIES) if ((r.flags & FLAG_BIT[c]) === 0) this.freeOf.get(c)!.set(r.ord);
      if (r.category !== null) push(cats, r.category, r.ord);
      if (r.brand_key !== null) push(brands, r.brand_key, r.ord);
      if (r.origin !== null) push(origins, r.origin, r.ord);
    }
    for (const [m, src] of [
      [this.category, cats],
      [this.brand, brands],
      [this.origin, origins],
    ] as const) {
      for (const [k, list] of src) m.set(k, this.docSet(Int32Array.from(list)));
    }
    this.result = new Bitset(size);
  }

  /** Catalogue-ordered ords of the window, and the total. */
  run(f: ProductFilter, skip: number, limit: number): { ords: number[]; total: number } {
    const key = cacheKey(f);
    let hit = this.cache.get(key);
    // A kept result holds the rows up to the deepest window asked for so far.
    if (hit === undefined || (hit.ords.length < skip + limit && hit.ords.length < hit.total)) {
      this.cache.set(key, (hit = this.evaluate(f, skip + limit)));
    }
    return { ords: rows(hit, skip, limit), total: hit.total };
  }

  /** The first `head` rows and the total. */
  private evaluate(f: ProductFilter, head: number): CachedResult {
    const required: DocSet[] = [...(f.freeOf.length > 0 ? [this.freeOfAll(f.freeOf)] : []), ...this.positiveSets(f)];
    const excluded = f.excludes.map((ing) => this.ingredient(ing));
    let shortest: Int32Array | undefined;
    for (const set of required)
      if (!(set instanceof Bitset) && (!shortest || set.length < shortest.length)) shortest = set;
    if (shortest) return probe(shortest, required, excluded, head);
    if (required.length === 1 && excluded.length === 0) {
      const set = required[0] as Bitset; // a kept set: its rows are read in place, its size is known
      return { ords: set.head(head), total: this.sizeOf(set) };
    }
    // Only bitsets are required: start from a copy of the first (one native copy instead of
    // a fill and a pass), clear the short excluded lists, then AND the rest, counting in the last pass.
    const r = required.length === 0 ? this.result.fill() : this.result.copy(required[0] as Bitset);
    for (const set of excluded) if (!(set instanceof Bitset)) r.clearList(set);
    const passes: Array<[Bitset, boolean]> = [
      ...required.slice(1).map((set): [Bitset, boolean] => [set as Bitset, false]),
      ...excluded.filter((set) => set instanceof Bitset).map((set): [Bitset, boolean] => [set, true]),
    ];
    let total = -1;
    passes.forEach(([set, not], i) => {
      if (i < passes.length - 1) r.and(set, not);
      else total = r.andCount(set, not);
    });
    return { ords: r.head(head), total: total < 0 ? r.count() : total };
  }

  /** How many products each given filter matches on its own (for the no-match hint). */
  alone(f: ProductFilter): Array<{ filter: string; count: number }> {
    const out: Array<{ filter: string; count: number }> = [];
    const one = (filter: string, part: Partial<ProductFilter>) =>
      out.push({ filter, count: this.run({ freeOf: [], excludes: [], ...part }, 0, 0).total });
    if (f.category !== undefined) one('category', { category: f.category });
    if (f.brandKey !== undefined) one('brand', { brandKey: f.brandKey });
    if (f.origin !== undefined) one('origin', { origin: f.origin });
    for (const c of f.freeOf) one(FREE_PARAM[c], { freeOf: [c] });
    if (f.has !== undefined) one('has_ingredient', { has: f.has });
    if (f.excludes.length > 0) one('excludes_ingredient', { excludes: f.excludes });
    return out;
  }

  /** The products free of every given tag: one kept bitset per combination, made on first use (at most 31). */
  private freeOfAll(tags: IngredientCategory[]): Bitset {
    const mask = tags.reduce((m, c) => m | FLAG_BIT[c], 0);
    let set = this.freeCombos.get(mask);
    if (set === undefined) {
      set = new Bitset(this.size).copy(this.freeOf.get(tags[0])!);
      for (const c of tags.slice(1)) set.and(this.freeOf.get(c)!);
      this.freeCombos.set(mask, set);
    }
    return set;
  }

  /** How many products a kept (never changed) bitset holds, counted once. */
  private sizeOf(set: Bitset): number {
    let n = this.sizes.get(set);
    if (n === undefined) this.sizes.set(set, (n = set.count()));
    return n;
  }

  private positiveSets(f: ProductFilter): DocSet[] {
    const sets: DocSet[] = [];
    if (f.category !== undefined) sets.push(this.category.get(f.category) ?? EMPTY);
    if (f.brandKey !== undefined) sets.push(this.brand.get(f.brandKey) ?? EMPTY);
    if (f.origin !== undefined) sets.push(this.origin.get(f.origin) ?? EMPTY);
    if (f.has !== undefined) sets.push(f.has < 0 ? EMPTY : this.ingredient(f.has));
    return sets;
  }

  private ingredient(ord: number): DocSet {
    return this.ingredients[ord] ?? EMPTY;
  }

  private docSet(list: Int32Array): DocSet {
    return list.length * 32 > this.size ? Bitset.fromList(this.size, list) : list;
  }
}

export const FREE_PARAM: Record<IngredientCategory, string> = {
  fragrance: 'fragrance_free',
  drying_alcohol: 'alcohol_free',
  parabens: 'paraben_free',
  sulfates: 'sulfate_free',
  silicones: 'silicone_free',
};

const EMPTY = new Int32Array(0);

/**
 * The products of the ascending list `driver` that are in every required set and in no
 * excluded set: one probe per listed product and set (a bit, or a step through a list),
 * so a filter naming a short list costs in proportion to that list, not to the catalogue.
 */
function probe(driver: Int32Array, required: DocSet[], excluded: DocSet[], head: number): CachedResult {
  const sets = [...required.filter((s) => s !== driver), ...excluded];
  const not = sets.map((_, i) => i >= sets.length - excluded.length);
  const at = sets.map(() => 0);
  const ords = new Int32Array(Math.min(head, driver.length));
  let total = 0;
  for (let k = 0; k < driver.length; k++) {
    const d = driver[k];
    let ok = true;
    for (let j = 0; j < sets.length && ok; j++) {
      const set = sets[j];
      let has: boolean;
      if (set instanceof Bitset) has = set.has(d);
      else {
        let i = at[j];
        while (i < set.length && set[i] < d) i++;
        at[j] = i;
        has = i < set.length && set[i] === d;
      }
      ok = has !== not[j];
    }
    if (!ok) continue;
    if (total < ords.length) ords[total] = d;
    total++;
  }
  return { ords: total < ords.length ? ords.slice(0, total) : ords, total };
}

/** The same key for filters that select the same products (free-from tags and excludes in any order). */
function cacheKey(f: ProductFilter): string {
  return JSON.stringify([
    f.category,
    f.brandKey,
    f.origin,
    [...f.freeOf].sort(),
    f.has,
    [...f.excludes].sort((a, b) => a - b),
  ]);
}

function push(m: Map<string, number[]>, k: string, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
