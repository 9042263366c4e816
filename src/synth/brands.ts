// Synthetic brands: names in several styles (invented words, founders, "Adjective Noun",
// French with accents), a home country, a main product category, product lines and a
// barcode numbering. Guarantees: brand names are distinct after brandKey() folding.
import type { ProductCategory } from '../source/records';
import { brandKey } from '../shared/text';
import type { Rng } from './prng';
import { Choice } from './sampler';
import { BarcodeNumbering, type Numbering } from './barcodes';
import * as V from './product-vocab';

export interface Brand {
  /** null for the hidden private-label brand of products without a brand. */
  name: string | null;
  country: string | null;
  main: ProductCategory;
  lines: string[];
  codes: Numbering;
}

export const CATEGORY_MIX = new Choice<ProductCategory>([
  ['skincare', 52],
  ['makeup', 18],
  ['haircare', 11],
  ['body/bath', 10],
  ['suncare', 4],
  ['fragrance', 3.5],
  ['other', 1.5],
]);
const COUNTRY = new Choice(V.COUNTRIES.map((c) => [c, c[1]] as const));

export function buildBrands(rng: Rng, count: number, codes: BarcodeNumbering): Brand[] {
  const taken = new Set<string>();
  const out: Brand[] = [];
  while (out.length < count) {
    const [country, , scheme] = COUNTRY.draw(rng);
    let name = '';
    for (let t = 0; t < 20; t++) {
      const candidate = brandName(rng, country === 'France' && rng.chance(0.6));
      if (!taken.has(brandKey(candidate))) {
        name = candidate;
        break;
      }
    }
    if (!name) name = `${brandName(rng, false)} ${out.length + 1}`;
    taken.add(brandKey(name));
    const lines: string[] = [];
    for (let i = rng.int(6); i > 0; i--) lines.push(lineName(rng));
    out.push({
      name,
      country,
      main: CATEGORY_MIX.draw(rng),
      lines,
      codes: codes.numbering(scheme),
    });
  }
  return out;
}

/** The brand used for products whose brand is unknown: in-store (restricted) GS1 numbers. */
export function privateLabel(codes: BarcodeNumbering): Brand {
  return {
    name: null,
    country: null,
    main: 'skincare',
    lines: [],
    codes: codes.numbering(['200', '210', '250', '290']),
  };
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function invented(rng: Rng): string {
  return cap(rng.pick(V.SYLLABLE_HEADS) + rng.pick(V.SYLLABLE_TAILS).toLowerCase());
}

function brandName(rng: Rng, french: boolean): string {
  if (french) {
    const a = rng.pick(V.FRENCH);
    const b = rng.pick(V.FRENCH);
    const r = rng.next();
    const base =
      r < 0.3
        ? `${a} ${b}`
        : r < 0.5
          ? `Maison ${b}`
          : r < 0.7 && /^[AEIOUÉÈÎ]/.test(a)
            ? `L'${a}`
            : r < 0.85
              ? `${a} ${/^[AEIOUÉÈÎ]/.test(b) ? `d'${b}` : `de ${b}`}`
              : invented(rng).replace(/e$/, 'é');
    return rng.chance(0.3) ? `${base} Paris` : base;
  }
  const r = rng.next();
  if (r < 0.32) return rng.chance(0.25) ? `${invented(rng)} ${rng.pick(V.BRAND_SUFFIXES)}` : invented(rng);
  if (r < 0.52) {
    const s = rng.next();
    if (s < 0.2) return `Dr. ${rng.pick(V.SURNAMES)}`;
    if (s < 0.65) return `${rng.pick(V.FIRST_NAMES)} ${rng.pick(V.SURNAMES)}`;
    if (s < 0.8) return `${rng.pick(V.SURNAMES)} & ${rng.pick(V.SURNAMES)}`;
    return `${rng.pick(V.SURNAMES)}'s`;
  }
  if (r < 0.8) return `${rng.chance(0.2) ? 'The ' : ''}${rng.pick(V.ADJECTIVES)} ${rng.pick(V.NOUNS)}`;
  if (r < 0.88) return `${invented(rng)}${rng.range(1, 2024)}`;
  if (r < 0.94) return `${rng.pick(V.ADJECTIVES).toUpperCase()} by ${rng.pick(V.SURNAMES)}`;
  return `${invented(rng)}${rng.pick(['+', '.', ' & Co.', ':lab', ' – Skin'])}`;
}

function lineName(rng: Rng): string {
  const head = rng.pick(V.LINE_HEADS);
  const tail = rng.pick(V.LINE_TAILS);
  const r = rng.next();
  return r < 0.5 ? `${head} ${tail}` : r < 0.8 ? head + tail : head + tail.toLowerCase();
}
