// Reader for the EU CosIng inventory export (cosing/cosing_ingredients.csv).
// Guarantees: one record per CSV row, in file order, with raw values trimmed.
import { csvRecords } from './csv';
import { readText } from './rawfiles';

export interface CosingRow {
  ref: string;
  inci: string;
  inn: string;
  phEur: string;
  cas: string;
  ec: string;
  description: string;
  restriction: string;
  functions: string[];
  updated: string; // dd/mm/yyyy
}

export function readCosing(rawDir: string): CosingRow[] {
  return csvRecords(readText(rawDir, 'cosing/cosing_ingredients.csv'))
    .map((r) => ({
      ref: r.cosing_ref_no.trim(),
      inci: r.inci_name.trim().replace(/\s+/g, ' '),
      inn: r.inn_name.trim(),
      phEur: r.ph_eur_name.trim(),
      cas: r.cas_no.trim(),
      ec: r.ec_no.trim(),
      description: r.chem_iupac_name___description.trim(),
      restriction: r.restriction.trim(),
      functions: r.function
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== ''),
      updated: r.update_date.trim(),
    }))
    .filter((r) => r.inci !== '');
}

/** dd/mm/yyyy → yyyymmdd, for comparing update dates. */
export function sortableDate(ddmmyyyy: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(ddmmyyyy);
  return m ? m[3] + m[2] + m[1] : '';
}
