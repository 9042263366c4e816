// Product filters as bitset algebra over catalogue ords. Guarantees: results are in
// catalogue order; total is exact; cost per request is one pass over products/32
// words (or over the shortest required list) plus the short lists named by the
// filter, whatever the counts: any set holding more than 1/32 of the catalogue is kept as a bitset (which
// is then also the smaller form), so common ingredients cost no more than rare ones.
import { Bitset } from './bitset';
import { FLAG_BIT, INGREDIENT_CATEGORIES, type IngredientCategory } from './format';

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

export interface ProductRowMeta { ord: number; brand_key: string | null; category: string | null; origin: string | null; flags: number }

/** A set of product ords: an ascending list when small, a bitset when large. */
type DocSet = Int32Array | Bitset;

export class FilterIndex {
  private readonly freeOf = new Map<IngredientCategory, Bitset>();
  private readonly category = new Map<string, DocSet>();
  private readonly brand = new Map<string, DocSet>();
  private readonly origin = new Map<string, DocSet>();
  private readonly ingredients: DocSet[];
  /** Zero between calls; marks the excluded ords of short lists during a scan. */
  private readonly scratch: Bitset;

  /** `ingredientProducts[ord]`: ascending product ords containing ingredient ord (undefined for none). */
  constructor(readonly size: number, rows: Iterable<ProductRowMeta>, ingredientProducts: Array<Int32Array | undefined>) {
    this.ingredients = Array.from(ingredientProducts, (l) => this.docSet(l ?? EMPTY));
    const cats = new Map<string, number[]>(), brands = new Map<string, number[]>(), origins = new Map<string, number[]>();
    for (const c of INGREDIENT_CATEGORIES) this.freeOf.set(c, new Bitset(size));
    for (const r of rows) {
      for (const c of INGREDIENT_CATEGORIES) if ((r.flags & FLAG_BIT[c]) === 0) this.freeOf.get(c)!.set(r.ord);
      if (r.category !== null) push(cats, r.category, r.ord);
      if (r.brand_key !== null) push(brands, r.brand_key, r.ord);
      if (r.origin !== null) push(origins, r.origin, r.ord);
    }
    for (const [m, src] of [[this.category, cats], [this.brand, brands], [this.origin, origins]] as const) {
      for (const [k, list] of src) m.set(k, this.docSet(Int32Array.from(list)));
    }
    this.scratch = new Bitset(size);
  }

  /**
   * Catalogue-ordered ords of the window, and the total. When a required set is a short
   * list, its ords are checked one by one; otherwise one pass over the words ANDs every
   * set, counts and cuts the window at once.
   */
  run(f: ProductFilter, skip: number, limit: number): { ords: number[]; total: number } {
    const pos: DocSet[] = f.freeOf.map((c) => this.freeOf.get(c)!);
    pos.push(...this.positiveSets(f));
    const neg = f.excludes.map((o) => this.ingredient(o));
    let driver: Int32Array | undefined;
    for (const set of pos) if (!(set instanceof Bitset) && (driver === undefined || set.length < driver.length)) driver = set;
    return driver === undefined ? this.scan(pos as Bitset[], neg, skip, limit) : byList(driver, pos, neg, skip, limit);
  }

  private scan(pos: Bitset[], neg: DocSet[], skip: number, limit: number): { ords: number[]; total: number } {
    const P = pos.map((b) => b.words);
    const N: Uint32Array[] = [];
    const lists: Int32Array[] = [];
    for (const set of neg) {
      if (set instanceof Bitset) N.push(set.words);
      else lists.push(set);
    }
    const marks = this.scratch;
    for (const l of lists) for (let k = 0; k < l.length; k++) marks.set(l[k]);
    if (lists.length > 0) N.push(marks.words);
    const words = marks.words.length;
    const tail = this.size & 31 ? (1 << (this.size & 31)) - 1 : -1;
    const ords: number[] = [];
    let total = 0;
    for (let i = 0; i < words; i++) {
      let w = i === words - 1 ? tail : -1;
      for (let k = 0; k < P.length && w !== 0; k++) w &= P[k][i];
      for (let k = 0; k < N.length && w !== 0; k++) w &= ~N[k][i];
      if (w === 0) continue;
      const c = popcount(w);
      total += c;
      if (ords.length === limit) continue;
      if (skip >= c) {
        skip -= c;
        continue;
      }
      for (; w !== 0 && ords.length < limit; w ^= w & -w) {
        if (skip > 0) skip--;
        else ords.push((i << 5) + 31 - Math.clz32(w & -w));
      }
    }
    for (const l of lists) for (let k = 0; k < l.length; k++) marks.clear(l[k]);
    return { ords, total };
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
  fragrance: 'fragrance_free', drying_alcohol: 'alcohol_free', parabens: 'paraben_free',
  sulfates: 'sulfate_free', silicones: 'silicone_free',
};

const EMPTY = new Int32Array(0);

/** The ords of `driver` (ascending) in every set of `pos` and in no set of `neg`. */
function byList(driver: Int32Array, pos: DocSet[], neg: DocSet[], skip: number, limit: number): { ords: number[]; total: number } {
  const ords: number[] = [];
  let total = 0;
  for (let k = 0; k < driver.length; k++) {
    const d = driver[k];
    if (!pos.every((s) => s === driver || has(s, d)) || neg.some((s) => has(s, d))) continue;
    if (total >= skip && ords.length < limit) ords.push(d);
    total++;
  }
  return { ords, total };
}

function has(set: DocSet, d: number): boolean {
  if (set instanceof Bitset) return set.has(d);
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  return lo < set.length && set[lo] === d;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function push(m: Map<string, number[]>, k: string, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
