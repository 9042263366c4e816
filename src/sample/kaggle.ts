// Reader for the Sephora "cosmetics.csv" set (sephora-kaggle/). Guarantees: one
// record per row in file order; the BOM and header case are handled by the CSV reader.
import { csvRecords } from './csv';
import { readText } from './rawfiles';

export interface KaggleProduct {
  label: string;
  brand: string;
  name: string;
  ingredientsText: string;
}

export function readKaggle(rawDir: string): KaggleProduct[] {
  return csvRecords(readText(rawDir, 'sephora-kaggle/cosmetics.csv')).map((r) => ({
    label: (r.label ?? r.Label ?? '').trim(),
    brand: (r.brand ?? r.Brand ?? '').trim(),
    name: (r.name ?? r.Name ?? '').trim(),
    ingredientsText: r.ingredients ?? r.Ingredients ?? '',
  }));
}
