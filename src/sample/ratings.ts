// The editorial rating buckets (docs/sample-data.md). Ratings come only from
// these lists, never per ingredient by hand elsewhere. Guarantees: precedence
// sensitizers > direct actives > supporting actives; names are CosIng INCI names.

import type { Rating } from '../source/records';

export type { Rating };

/** Well-known sensitizers beside the Annex III labelled fragrance allergens. */
export const SENSITIZERS = ['PARFUM', 'METHYLISOTHIAZOLINONE', 'METHYLCHLOROISOTHIAZOLINONE'];

/** Well-known actives with a direct, claimed effect (besides the Annex VI UV filters). */
export const DIRECT_ACTIVES = [
  'RETINOL',
  'RETINAL',
  'RETINYL PALMITATE',
  'HYDROXYPINACOLONE RETINOATE',
  'BAKUCHIOL',
  'ASCORBIC ACID',
  'SODIUM ASCORBYL PHOSPHATE',
  'MAGNESIUM ASCORBYL PHOSPHATE',
  'ASCORBYL GLUCOSIDE',
  '3-O-ETHYL ASCORBIC ACID',
  'TETRAHEXYLDECYL ASCORBATE',
  'NIACINAMIDE',
  'SALICYLIC ACID',
  'GLYCOLIC ACID',
  'LACTIC ACID',
  'MANDELIC ACID',
  'AZELAIC ACID',
  'GLUCONOLACTONE',
  'LACTOBIONIC ACID',
  'ALPHA-ARBUTIN',
  'ARBUTIN',
  'KOJIC ACID',
  'TRANEXAMIC ACID',
  'BENZOYL PEROXIDE',
  'SULFUR',
  'CAFFEINE',
  'HYDROXYETHYLPIPERAZINE ETHANE SULFONIC ACID',
];

/** Well-known supporting actives: humectants, barrier lipids, soothing agents, peptides, antioxidants. */
export const SUPPORTING_ACTIVES = [
  'GLYCERIN',
  'SODIUM HYALURONATE',
  'HYALURONIC ACID',
  'HYDROLYZED HYALURONIC ACID',
  'SODIUM ACETYLATED HYALURONATE',
  'PANTHENOL',
  'ALLANTOIN',
  'CERAMIDE NP',
  'CERAMIDE AP',
  'CERAMIDE EOP',
  'CERAMIDE NS',
  'CERAMIDE AS',
  'PHYTOSPHINGOSINE',
  'CHOLESTEROL',
  'SQUALANE',
  'TOCOPHEROL',
  'TOCOPHERYL ACETATE',
  'UREA',
  'BISABOLOL',
  'CENTELLA ASIATICA EXTRACT',
  'MADECASSOSIDE',
  'ASIATICOSIDE',
  'BETA-GLUCAN',
  'ADENOSINE',
  'PALMITOYL TRIPEPTIDE-1',
  'PALMITOYL TETRAPEPTIDE-7',
  'PALMITOYL PENTAPEPTIDE-4',
  'ACETYL HEXAPEPTIDE-8',
  'COPPER TRIPEPTIDE-1',
  'SODIUM PCA',
  'BETAINE',
  'TREHALOSE',
  'ECTOIN',
  'ERGOTHIONEINE',
  'RESVERATROL',
  'FERULIC ACID',
  'UBIQUINONE',
  'DIPOTASSIUM GLYCYRRHIZATE',
  'AVENA SATIVA KERNEL FLOUR',
  'LINOLEIC ACID',
];

export interface RatingLists {
  allergens: ReadonlySet<string>;
  uvFilters: ReadonlySet<string>;
}

export function ratingOf(inci: string, lists: RatingLists): Rating | null {
  const n = inci.toUpperCase();
  if (lists.allergens.has(n) || SENSITIZERS.includes(n)) return 'sensitizers';
  if (lists.uvFilters.has(n) || DIRECT_ACTIVES.includes(n)) return 'direct actives';
  if (SUPPORTING_ACTIVES.includes(n)) return 'supporting actives';
  return null;
}
