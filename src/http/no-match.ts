// The no_match hints of the list answers (api-spec.md 2.8) and the filter parameters'
// names they use: the read model counts (what each filter matches on its own), this
// module words the hint in the request's terms. Guarantees: a filter's hint names the
// query parameter the client sent (fragrance_free, has_ingredient…), and the category
// hint lists the seven product categories of source/records.ts.
import { PRODUCT_CATEGORIES, type IngredientCategory } from '../source/records';
import type { FilterCount, FilterName } from '../catalogue/filter-index';
import type { FilterQuery } from '../catalogue/read-model';

/** The query parameter of each free-from filter. */
export const FREE_PARAM = {
  fragrance: 'fragrance_free',
  drying_alcohol: 'alcohol_free',
  parabens: 'paraben_free',
  sulfates: 'sulfate_free',
  silicones: 'silicone_free',
} as const satisfies Record<IngredientCategory, string>;

/** The query parameter of each filter. */
const PARAM: Record<FilterName, string> = {
  category: 'category',
  brand: 'brand',
  origin: 'origin',
  has: 'has_ingredient',
  excludes: 'excludes_ingredient',
  ...FREE_PARAM,
};

export const PRODUCT_SEARCH_HINT =
  'No product has every word of q in its brand or name (the last word may be the start of a word). Check the spelling, or remove the words that match nothing on their own.';
export const INGREDIENT_SEARCH_HINT =
  'No ingredient has every word of q in its name or other names (the last word may be the start of a word). Check the spelling, or remove the words that match nothing on their own.';

/** The product categories as the hint spells them: 'a, b and c'. */
const CATEGORY_LIST = `${PRODUCT_CATEGORIES.slice(0, -1).join(', ')} and ${PRODUCT_CATEGORIES[PRODUCT_CATEGORIES.length - 1]}`;

/** The hint of a filter that matches nothing: the filter that matches nothing alone, else the narrowest. */
export function filterHint(alone: FilterCount[], q: FilterQuery): string {
  const empty = alone.find((a) => a.count === 0);
  if (empty) {
    const param = PARAM[empty.filter];
    const value = valueOf(empty.filter, q);
    const what = value === undefined ? `the ${param} filter` : `${param} "${value}"`;
    const extra = empty.filter === 'category' ? ` Categories are ${CATEGORY_LIST} (case-sensitive).` : '';
    return `No product matches ${what}. Change or remove the ${param} filter.${extra}`;
  }
  if (alone.length === 0) return 'The catalogue has no products.';
  const narrowest = alone.reduce((a, b) => (b.count < a.count ? b : a));
  return `Each filter matches products on its own, but no product matches them all together. Remove or change one of them, for example the ${PARAM[narrowest.filter]} filter (${narrowest.count} products on its own).`;
}

/** The value a hint quotes for a filter (none for the free-from and excludes filters). */
function valueOf(filter: FilterName, q: FilterQuery): string | undefined {
  if (filter === 'brand') return q.brand;
  if (filter === 'category') return q.category;
  if (filter === 'origin') return q.origin;
  if (filter === 'has') return q.hasIngredient;
  return undefined;
}
