// The free-from tag (ingredient `category`) of a CosIng ingredient, by the
// documented rules of docs/sample-data.md. Guarantees: at most one tag per
// ingredient, chosen in the fixed precedence parabens > sulfates > silicones >
// drying_alcohol > fragrance; the rules read only the INCI name, the CosIng
// functions, the curlsbot class lists and the Annex III allergen list.

import type { IngredientCategory } from '../source/records';

export type FreeFromTag = IngredientCategory;

export interface TagLists {
  /** curlsbot class → INCI names (upper-case) of its members and their synonyms. */
  curls: ReadonlyMap<string, ReadonlySet<string>>;
  /** Annex III labelled fragrance allergens (upper-case INCI names). */
  allergens: ReadonlySet<string>;
}

/** Exclusions of curlsbot's "surfactants" group: sulfate-named ingredients that are not sulfate surfactants. */
const SULFATE_EXCLUSIONS = /BEHENTRIMONIUM|METHOSULFATE|ETHOSULFATE|MAGNESIUM|THIOSULFATE|SULFATED/;
const SULFATE_WORD = /\b(SULFATE|SULPHATE)\b/;
const SURFACTANT_FUNCTION = /SURFACTANT|CLEANSING|FOAMING/;
/** Silicone name stems (curlsbot "silicones" group inclusions, narrowed to silicon chemistry). */
const SILICONE_STEMS = /METHICON|DIMETHCONE|SILOXAN|SILOXY|SILANE|SILICONE|SILSESQUIOXANE|SILYLATE/;
/** Exclusions of curlsbot's "silicones" group. */
const SILICONE_EXCLUSIONS = /FERMENT|CASTOR|POLYQUATERNIUM/;
/** Ethanol, denatured alcohol and the other short-chain (volatile) alcohols. */
const DRYING_ALCOHOLS = new Set(['ALCOHOL', 'ALCOHOL DENAT.', 'ISOPROPYL ALCOHOL', 'PROPYL ALCOHOL', 'METHYL ALCOHOL']);
const DRYING_ALCOHOL_PREFIX = /^(SD ALCOHOL|ALCOHOL DENAT\.)/;
/** Label terms for a perfume composition. */
const FRAGRANCE_NAMES = new Set(['PARFUM', 'AROMA', 'FRAGRANCE']);
/** Labelled allergens whose main cosmetic use is not perfume (borderline choices, documented). */
export const NOT_FRAGRANCE_ALLERGENS = new Set(['BENZYL ALCOHOL', 'MENTHOL', 'CAMPHOR']);

export function freeFromTag(inci: string, cosingFunctions: readonly string[], lists: TagLists): FreeFromTag | null {
  const n = inci.toUpperCase();
  const member = (cls: string) => lists.curls.get(cls)?.has(n) === true;
  if (n.includes('PARABEN') || member('parabens')) return 'parabens';
  if (
    !SULFATE_EXCLUSIONS.test(n) &&
    ((SULFATE_WORD.test(n) && cosingFunctions.some((f) => SURFACTANT_FUNCTION.test(f))) || member('sulfates'))
  )
    return 'sulfates';
  const silCurls =
    member('non_water_soluble_silicones') || member('water_soluble_silicones') || member('evaporative_silicones');
  if (!SILICONE_EXCLUSIONS.test(n) && (SILICONE_STEMS.test(n) || silCurls)) return 'silicones';
  if (DRYING_ALCOHOLS.has(n) || DRYING_ALCOHOL_PREFIX.test(n)) return 'drying_alcohol';
  if (FRAGRANCE_NAMES.has(n) || (lists.allergens.has(n) && !NOT_FRAGRANCE_ALLERGENS.has(n))) return 'fragrance';
  return null;
}
