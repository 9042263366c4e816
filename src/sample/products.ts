// Products of the three product sources in one shape: brand, name, category
// (one of the seven values or null), image URL and the label entries in order.
// Guarantees: records keep source order; category mapping per docs/sample-data.md.
import { KgProduct } from './cosdna';
import { KaggleProduct } from './kaggle';
import { CurlsProduct } from './curlsbot';
import { labelEntries, listParagraph } from './labels';
import { displayBrand } from './origins';

import type { ProductCategory } from '../source/records';

export type Category = ProductCategory;

export interface ProductRecord {
  source: 'cosdna-kg' | 'sephora-kaggle' | 'curlsbot';
  brand: string | null;
  name: string | null;
  category: Category | null;
  imageUrl: string | null;
  labels: string[];
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

export function fromKg(p: KgProduct, images: ReadonlyMap<string, string>): ProductRecord {
  return {
    source: 'cosdna-kg',
    brand: nonEmpty(p.brand),
    name: nonEmpty(p.name),
    category: kgCategory(p.category, p.subcategory),
    imageUrl: images.get(p.productId) ?? null,
    labels: labelEntries(listParagraph(p.ingredientsText)),
  };
}

export function fromKaggle(p: KaggleProduct, kgBrands: ReadonlyMap<string, string>, brandKeyOf: (b: string) => string): ProductRecord {
  const brand = nonEmpty(p.brand);
  return {
    source: 'sephora-kaggle',
    brand: brand === null ? null : kgBrands.get(brandKeyOf(brand)) ?? displayBrand(brand) ?? brand,
    name: nonEmpty(p.name),
    category: kaggleCategory(p.label),
    imageUrl: null,
    labels: labelEntries(p.ingredientsText),
  };
}

export function fromCurls(p: CurlsProduct): ProductRecord {
  return {
    source: 'curlsbot',
    brand: nonEmpty(p.brand),
    name: nonEmpty(p.name),
    category: curlsCategory(p.productCategories),
    imageUrl: null,
    labels: labelEntries(p.ingredientsText),
  };
}

function nonEmpty(s: string): string | null {
  const t = s.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}
