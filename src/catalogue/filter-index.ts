// Product filters as bitset algebra over catalogue ords. Guarantees: results are in
// catalogue order; total is exact; cost per request is a few passes over
// products/32 words plus the short posting lists named by the filter, whatever the
// counts: any set holding more than 1/32 of the catalogue is kept as a bitset (which
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
  private readonly result: Bitset;
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
    this.result = new Bitset(size);
    this.scratch = new Bitset(size);
  }

  /** Catalogue-ordered ords of the window, and the total. */
  run(f: ProductFilter, skip: number, limit: number): { ords: number[]; total: number } {
    const r = this.result.fill();
    for (const c of f.freeOf) r.and(this.freeOf.get(c)!);
    for (const set of this.positiveSets(f)) {
      if (set instanceof Bitset) r.and(set);
      else r.andList(set, this.scratch);
    }
    for (const ing of f.excludes) {
      const set = this.ingredient(ing);
      if (set instanceof Bitset) r.andNot(set);
      else r.clearList(set);
    }
    return { ords: r.slice(skip, limit), total: r.count() };
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

function push(m: Map<string, number[]>, k: string, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
