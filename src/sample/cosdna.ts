// Readers for the cosdna-kg files (USC Knowledge-Graph-For-Cosmetics): CosDNA
// ingredient facts, the Sephora skincare products and their image URLs.
// Guarantees: records in file order; numeric scores as integer lists.
import { readJson, readJsonLines } from './rawfiles';

export interface CosdnaIngredient {
  name: string;
  acne: number[] | null;
  irritant: number[] | null;
  synonyms: string[];
}

export interface KgProduct {
  productId: string;
  name: string;
  brand: string;
  ingredientsText: string;
  category: string;
  subcategory: string;
  url: string;
}

interface RawIngredient {
  name: string;
  acne: number[] | null;
  irritant: number[] | null;
  synonym?: string[] | null;
}
interface RawProduct {
  url: string;
  product_id: number | string;
  product_name: string;
  brand: string;
  ingredients: string | null;
  category: string;
  subcategory: string;
}

export function readCosdnaIngredients(rawDir: string): CosdnaIngredient[] {
  return readJsonLines<RawIngredient>(rawDir, 'cosdna-kg/ingredients.jl')
    .map((r) => ({
      name: (r.name ?? '').trim(),
      acne: Array.isArray(r.acne) ? r.acne : null,
      irritant: Array.isArray(r.irritant) ? r.irritant : null,
      synonyms: (r.synonym ?? []).map((s) => s.trim()).filter((s) => s !== ''),
    }))
    .filter((r) => r.name !== '');
}

export function readKgProducts(rawDir: string): KgProduct[] {
  return readJsonLines<RawProduct>(rawDir, 'cosdna-kg/sephora_skincare_product.jl').map((r) => ({
    productId: String(r.product_id),
    name: (r.product_name ?? '').trim(),
    brand: (r.brand ?? '').trim(),
    ingredientsText: r.ingredients ?? '',
    category: (r.category ?? '').trim(),
    subcategory: (r.subcategory ?? '').trim(),
    url: r.url ?? '',
  }));
}

/** Sephora product id → image URL (product.json). */
export function readKgImages(rawDir: string): Map<string, string> {
  const rows = readJson<{ id: number | string; image?: unknown }[]>(rawDir, 'cosdna-kg/product.json');
  const out = new Map<string, string>();
  for (const r of rows) {
    const url = typeof r.image === 'string' ? r.image.trim() : '';
    if (/^https?:\/\//.test(url) && !out.has(String(r.id))) out.set(String(r.id), url);
  }
  return out;
}
