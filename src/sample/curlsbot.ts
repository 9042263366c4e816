// Reader for the curlsbot data (MIT, melissamcewen/curlsbotAPI): the ingredient
// class lists with synonyms, and the haircare products. Guarantees: files are
// read in name order so results do not depend on directory listing order.
import { listFiles, readJson } from './rawfiles';

export interface CurlsIngredient {
  name: string;
  categories: string[];
  synonyms: string[];
}
export interface CurlsProduct {
  name: string;
  brand: string;
  ingredientsText: string;
  productCategories: string[];
}

export function readCurlsIngredients(rawDir: string): CurlsIngredient[] {
  const out: CurlsIngredient[] = [];
  for (const f of listFiles(rawDir, 'curlsbot/ingredients', '.ingredients.json')) {
    const doc = readJson<{ ingredients: { name: string; categories?: string[]; synonyms?: string[] }[] }>(rawDir, f);
    for (const i of doc.ingredients) {
      out.push({
        name: i.name.trim(),
        categories: i.categories ?? [],
        synonyms: (i.synonyms ?? []).map((s) => s.trim()).filter((s) => s !== ''),
      });
    }
  }
  return out;
}

export function readCurlsProducts(rawDir: string): CurlsProduct[] {
  const out: CurlsProduct[] = [];
  for (const f of listFiles(rawDir, 'curlsbot/products', '.products.json')) {
    const doc = readJson<{
      products: { name: string; brand: string; ingredients_raw?: string; product_categories?: string[] }[];
    }>(rawDir, f);
    for (const p of doc.products) {
      out.push({
        name: (p.name ?? '').trim(),
        brand: (p.brand ?? '').trim(),
        ingredientsText: p.ingredients_raw ?? '',
        productCategories: p.product_categories ?? [],
      });
    }
  }
  return out;
}
