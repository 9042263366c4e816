// Product filters as bitset algebra over catalogue ords. Guarantees: results are in
// catalogue order; total is exact; a filter not answered recently costs a few passes
// over products/32 words plus the short posting lists it names, whatever the counts:
// any set holding more than 1/32 of the catalogue is kept as a bitset (which is then
// also the smaller form), so common ingredients cost no more than rare ones. The
// total and rows of recent filters are kept (at most 4 MiB), so a repeated filter costs
// a lookup.
import { Bitset } from './bitset';
import { FLAG_BIT, decodePostingsInto } from './format';
import { INGREDIENT_CATEGORIES, type IngredientCategory } from '../source/records';
import { ResultCache, holds, rows, type CachedResult } from './result-cache';
import type { Steps } from '../shared/steps';

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

/** A filter of a ProductFilter, by kind: a free-from filter is named by its tag. */
export type FilterName = 'category' | 'brand' | 'origin' | 'has' | 'excludes' | IngredientCategory;
/** How many products one filter matches on its own. */
export interface FilterCount {
  filter: FilterName;
  count: number;
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

/**
 * Each ingredient's products as the catalogue stores them, read once by the index: how many
 * products each ingredient ord has (0: none; the index knows the ords below counts.length),
 * then the rows [ord, postings] (ascending ords, 4 bytes each, format.ts decodePostings).
 */
export interface IngredientProducts {
  counts: Int32Array;
  rows: () => Iterable<[number, Buffer]>;
}

/** What the kept filters may hold, in ords: 4 MiB (result-cache.ts). */
const CACHE_ORDS = 1 << 20;

/** The sets an index answers from (FilterIndex.load reads them). */
interface FilterSets {
  freeOf: Map<IngredientCategory, Bitset>;
  category: Map<string, DocSet>;
  brand: Map<string, DocSet>;
  origin: Map<string, DocSet>;
  /** Ingredients whose products are many, by ord (the rest: their lists, ingredientLists). */
  ingredientSets: Map<number, Bitset>;
  /**
   * Every other ingredient's ascending product ords, one after the other in one array: ord k's
   * are [listStart[k], listStart[k + 1]) (one array, not 30,000 typed arrays of ~300 bytes each
   * on the heap and in malloc).
   */
  ingredientLists: Int32Array;
  listStart: Uint32Array;
}

/** Product rows read, or ingredient ords decoded, between two pauses of FilterIndex.load. */
const ROWS_PER_STEP = 2048;
const ORDS_PER_STEP = 1 << 18;

export class FilterIndex {
  private readonly freeOf: Map<IngredientCategory, Bitset>;
  private readonly category: Map<string, DocSet>;
  private readonly brand: Map<string, DocSet>;
  private readonly origin: Map<string, DocSet>;
  private readonly ingredientSets: Map<number, Bitset>;
  private readonly ingredientLists: Int32Array;
  private readonly listStart: Uint32Array;
  private readonly result: Bitset;
  private readonly scratch: Bitset;
  private readonly cache = new ResultCache<CachedResult>(CACHE_ORDS);

  private constructor(
    readonly size: number,
    sets: FilterSets,
  ) {
    ({ freeOf: this.freeOf, category: this.category, brand: this.brand, origin: this.origin } = sets);
    ({ ingredientSets: this.ingredientSets, ingredientLists: this.ingredientLists, listStart: this.listStart } = sets);
    this.result = new Bitset(size);
    this.scratch = new Bitset(size);
  }

  /** The index of `size` products, pausing (yield) every few thousand rows or hundred thousand ords read. */
  static *load(
    size: number,
    rows: Iterable<ProductRowMeta>,
    ingredientProducts: IngredientProducts,
  ): Steps<FilterIndex> {
    const ingredientSets = new Map<number, Bitset>();
    const { lists, starts } = yield* packIngredients(size, ingredientProducts, ingredientSets);
    const cats = new Map<string, number[]>(),
      brands = new Map<string, number[]>(),
      origins = new Map<string, number[]>();
    const freeOf = new Map(INGREDIENT_CATEGORIES.map((c) => [c, new Bitset(size)]));
    let n = 0;
    for (const r of rows) {
      for (const c of INGREDIENT_CATEGORIES) if ((r.flags & FLAG_BIT[c]) === 0) freeOf.get(c)!.set(r.ord);
      if (r.category !== null) push(cats, r.category, r.ord);
      if (r.brand_key !== null) push(brands, r.brand_key, r.ord);
      if (r.origin !== null) push(origins, r.origin, r.ord);
      if (++n % ROWS_PER_STEP === 0) yield;
    }
    const sets = (src: Map<string, number[]>) =>
      new Map([...src].map(([k, list]) => [k, docSet(size, Int32Array.from(list))]));
    const [category, brand, origin] = [sets(cats), sets(brands), sets(origins)];
    return new FilterIndex(size, {
      freeOf,
      category,
      brand,
      origin,
      ingredientSets,
      ingredientLists: lists,
      listStart: starts,
    });
  }

  /** Catalogue-ordered ords of the window, and the total. */
  run(f: ProductFilter, skip: number, limit: number): { ords: Int32Array; total: number } {
    const key = cacheKey(f);
    let hit = this.cache.get(key);
    // A kept result holds the rows up to the deepest window asked for so far.
    if (hit === undefined || !holds(hit, skip, limit)) this.cache.set(key, (hit = this.evaluate(f, skip + limit)));
    return { ords: rows(hit, skip, limit), total: hit.total };
  }

  /** The first `head` rows and the total. */
  private evaluate(f: ProductFilter, head: number): CachedResult {
    const required: DocSet[] = [...f.freeOf.map((c) => this.freeOf.get(c)!), ...this.positiveSets(f)];
    // Start from a copy of the first required bitset (one native copy instead of a fill and a pass).
    const first = required.findIndex((s) => s instanceof Bitset);
    const r = first < 0 ? this.result.fill() : this.result.copy(required[first] as Bitset);
    const steps: Array<{ set: DocSet; keep: boolean }> = [
      ...required.filter((_, i) => i !== first).map((set) => ({ set, keep: true })),
      ...f.excludes.map((ing) => ({ set: this.ingredient(ing), keep: false })),
    ];
    // The last pass over a whole bitset counts what is left as it goes (no count() pass after it).
    let total = -1;
    steps.forEach(({ set, keep }, i) => {
      const last = i === steps.length - 1;
      if (set instanceof Bitset) {
        if (last) total = keep ? r.andCount(set) : r.andNotCount(set);
        else if (keep) r.and(set);
        else r.andNot(set);
      } else if (keep) r.andList(set, this.scratch);
      else r.clearList(set);
    });
    return { ords: r.head(head), total: total >= 0 ? total : r.count() };
  }

  /** How many products each given filter matches on its own (for the no-match hint). */
  alone(f: ProductFilter): FilterCount[] {
    const out: FilterCount[] = [];
    const one = (filter: FilterName, part: Partial<ProductFilter>) =>
      out.push({ filter, count: this.run({ freeOf: [], excludes: [], ...part }, 0, 0).total });
    if (f.category !== undefined) one('category', { category: f.category });
    if (f.brandKey !== undefined) one('brand', { brandKey: f.brandKey });
    if (f.origin !== undefined) one('origin', { origin: f.origin });
    for (const c of f.freeOf) one(c, { freeOf: [c] });
    if (f.has !== undefined) one('has', { has: f.has });
    if (f.excludes.length > 0) one('excludes', { excludes: f.excludes });
    return out;
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
    if (!(ord < this.listStart.length - 1)) return EMPTY;
    return this.ingredientSets.get(ord) ?? this.ingredientLists.subarray(this.listStart[ord], this.listStart[ord + 1]);
  }
}

const EMPTY = new Int32Array(0);

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

/**
 * The ingredients' sets: bitsets put in `sets` by ord, the lists decoded straight into one
 * array. Each row is decoded where it is kept (a bitset's through one scratch list), never into
 * a list of its own: 30,000 lists of 21.6 MB, all alive until the index was made, were freed by
 * the first full collection after the server was ready and left about 30 MiB of holes in
 * malloc's heap, resident for good (docs/performance.md, "Round eight").
 */
function* packIngredients(
  size: number,
  { counts, rows }: IngredientProducts,
  sets: Map<number, Bitset>,
): Steps<{ lists: Int32Array; starts: Uint32Array }> {
  const starts = new Uint32Array(counts.length + 1);
  let most = 0;
  for (let ord = 0; ord < counts.length; ord++) {
    starts[ord + 1] = starts[ord] + (large(size, counts[ord]) ? 0 : counts[ord]);
    most = Math.max(most, counts[ord]);
  }
  const lists = new Int32Array(starts[counts.length]);
  const scratch = new Int32Array(most);
  let decoded = 0;
  for (const [ord, postings] of rows()) {
    if (large(size, counts[ord]))
      sets.set(ord, Bitset.fromList(size, decodePostingsInto(postings, scratch.subarray(0, counts[ord]))));
    else decodePostingsInto(postings, lists.subarray(starts[ord], starts[ord + 1]));
    decoded += counts[ord];
    if (decoded >= ORDS_PER_STEP) {
      decoded = 0;
      yield;
    }
  }
  return { lists, starts };
}

/** Whether a set of `count` of `size` products is kept as a bitset (then also the smaller form). */
function large(size: number, count: number): boolean {
  return count * 32 > size;
}

function docSet(size: number, list: Int32Array): DocSet {
  return large(size, list.length) ? Bitset.fromList(size, list) : list;
}
