// Reader for the Sephora "product_info" export (sephora-product-info/product_info.csv.zip,
// Kaggle "Sephora Products and Skincare Reviews", 2023). Guarantees: one record per row in
// file order; the zip is read whole in memory (1.4 MB) with fflate; the ingredients cell, a
// Python list literal of printed lines, is turned back into label text for the parser.
import { unzipSync, strFromU8 } from 'fflate';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pythonListText } from './python-list';
import { csvRecords } from './csv';

export interface SephoraInfoProduct {
  productId: string;
  brand: string;
  name: string;
  primaryCategory: string;
  secondaryCategory: string;
  /** Label text (lines of the list literal), '' when the row has none. */
  ingredientsText: string;
}

export const SEPHORA_INFO_FILE = 'sephora-product-info/product_info.csv.zip';

export function readSephoraInfo(rawDir: string): SephoraInfoProduct[] {
  const file = path.join(rawDir, SEPHORA_INFO_FILE);
  if (!fs.existsSync(file)) throw new Error(`raw data file not found: ${file}`);
  const members = unzipSync(fs.readFileSync(file));
  const csv = members['product_info.csv'];
  if (csv === undefined) throw new Error(`${file}: no product_info.csv inside`);
  return csvRecords(strFromU8(csv)).map((r) => ({
    productId: r.product_id ?? '',
    brand: (r.brand_name ?? '').trim(),
    name: (r.product_name ?? '').trim(),
    primaryCategory: (r.primary_category ?? '').trim(),
    secondaryCategory: (r.secondary_category ?? '').trim(),
    ingredientsText: pythonListText(r.ingredients ?? '') ?? r.ingredients ?? '',
  }));
}
