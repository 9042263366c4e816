// Reader for the Fulton comedogenicity/irritancy table
// (comedogenicity-fulton/ingredients.csv). Guarantees: scores are integers 0..5.
import { csvRecords } from './csv';
import { readText } from './rawfiles';

export interface FultonRow {
  name: string;
  comedogenicity: number | null;
  irritancy: number | null;
}

function score(v: string): number | null {
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 5 ? n : null;
}

export function readFulton(rawDir: string): FultonRow[] {
  return csvRecords(readText(rawDir, 'comedogenicity-fulton/ingredients.csv'))
    .map((r) => ({
      name: r.Ingredients.trim(),
      comedogenicity: score(r.Comedogenicity),
      irritancy: score(r.Irritancy),
    }))
    .filter((r) => r.name !== '');
}
