// Products of the four product sources in one shape: brand, name, category
// (one of the seven values or null), image URL and the label entries in order.
// Guarantees: records keep source order; category mapping per docs/sample-data.md.
import { KgProduct } from './cosdna';
import { KaggleProduct } from './kaggle';
import { CurlsProduct } from './curlsbot';
import { SephoraInfoProduct } from './sephora-info';
import { mergeSections, parseLabel, listParagraph, type LabelEntry } from '../labels/parser';
import { displayBrand } from './origins';

import type { ProductCategory } from '../source/records';

export type Category = ProductCategory;

export interface ProductRecord {
  source: 'cosdna-kg' | 'sephora-kaggle' | 'curlsbot' | 'sephora-product-info';
  brand: string | null;
  name: string | null;
  category: Category | null;
  imageUrl: string | null;
  /** One product's list (mergeSections of the parsed label), in label order. */
  labels: LabelEntry[];
}

export function kgCategory(category: string, sub: string): Category | null {
  if (sub === 'Sun Care') return 'suncare';
  if (category === 'Skincare') return sub === 'High Tech Tools' || sub === 'Wellness' ? 'other' : 'skincare';
  if (category === 'Bath & Body') return 'body/bath';
  if (category === 'Men') return sub === 'Skincare' ? 'skincare' : null;
  if (category === 'Hair') return 'haircare';
  return null;
}

export function kaggleCategory(label: string): Category | null {
  if (label === 'Sun protect') return 'suncare';
  return ['Moisturizer', 'Cleanser', 'Face Mask', 'Treatment', 'Eye cream'].includes(label) ? 'skincare' : null;
}

export function curlsCategory(productCategories: readonly string[]): Category {
  return productCategories.length > 0 && productCategories.every((c) => c === 'accessories') ? 'other' : 'haircare';
}

/** Sephora product_info categories (primary, secondary) to the seven; docs/sample-data.md has the table. */
export function sephoraInfoCategory(primary: string, secondary: string): Category {
  const tools = [
    'High Tech Tools',
    'Wellness',
    'Tools',
    'Hair Tools',
    'Brushes & Applicators',
    'Accessories',
    'Beauty Supplements',
    'Candles & Home Scents',
  ];
  if (tools.includes(secondary)) return 'other';
  if (secondary === 'Sunscreen') return 'suncare';
  const byName: Record<string, Category> = {
    Skincare: 'skincare',
    Makeup: 'makeup',
    Hair: 'haircare',
    Fragrance: 'fragrance',
    'Bath & Body': 'body/bath',
  };
  if (primary === 'Mini Size' || primary === 'Men')
    return byName[secondary] ?? (secondary === 'Shaving' ? 'skincare' : 'other');
  return byName[primary] ?? 'other';
}

export function fromKg(p: KgProduct, images: ReadonlyMap<string, string>): ProductRecord {
  return {
    source: 'cosdna-kg',
    brand: nonEmpty(p.brand),
    name: nonEmpty(p.name),
    category: kgCategory(p.category, p.subcategory),
    imageUrl: images.get(p.productId) ?? null,
    labels: entriesOf(listParagraph(p.ingredientsText)),
  };
}

export function fromKaggle(
  p: KaggleProduct,
  kgBrands: ReadonlyMap<string, string>,
  brandKeyOf: (b: string) => string,
): ProductRecord {
  return sephoraRecord(
    'sephora-kaggle',
    p.brand,
    p.name,
    kaggleCategory(p.label),
    p.ingredientsText,
    kgBrands,
    brandKeyOf,
  );
}

export function fromCurls(p: CurlsProduct): ProductRecord {
  return {
    source: 'curlsbot',
    brand: nonEmpty(p.brand),
    name: nonEmpty(p.name),
    category: curlsCategory(p.productCategories),
    imageUrl: null,
    labels: entriesOf(p.ingredientsText),
  };
}

export function fromSephoraInfo(
  p: SephoraInfoProduct,
  kgBrands: ReadonlyMap<string, string>,
  brandKeyOf: (b: string) => string,
): ProductRecord {
  const category = sephoraInfoCategory(p.primaryCategory, p.secondaryCategory);
  return sephoraRecord('sephora-product-info', p.brand, p.name, category, p.ingredientsText, kgBrands, brandKeyOf);
}

/** A Sephora file's record: brands spelt as the Knowledge-Graph file spells them when it does (`LA MER` → `La Mer`). */
function sephoraRecord(
  source: ProductRecord['source'],
  printedBrand: string,
  name: string,
  category: Category | null,
  text: string,
  kgBrands: ReadonlyMap<string, string>,
  brandKeyOf: (b: string) => string,
): ProductRecord {
  const brand = nonEmpty(printedBrand);
  return {
    source,
    brand: brand === null ? null : (kgBrands.get(brandKeyOf(brand)) ?? displayBrand(brand) ?? brand),
    name: nonEmpty(name),
    category,
    imageUrl: null,
    labels: entriesOf(text),
  };
}

function entriesOf(text: string): LabelEntry[] {
  return mergeSections(parseLabel(withoutTagRemnants(text)).sections);
}

/** A line-break tag that lost its "<" in the source ("Citronellol.br>"): a line break, as the whole tag is. */
export function withoutTagRemnants(text: string): string {
  return text.includes('br') ? text.replace(/(?<![<\w])br\s*\/?>/gi, '\n') : text;
}

function nonEmpty(s: string): string | null {
  const t = s.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

/** Printed names of one product's list (mergeSections of parseLabel): what the sample pipeline keeps. */
export function labelEntries(text: string): string[] {
  return mergeSections(parseLabel(text).sections).map((e) => e.label_name);
}
