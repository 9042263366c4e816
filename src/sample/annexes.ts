// Reader for the CosIng annexes (cosing-annexes/annex.*.csv) of Regulation (EC)
// 1223/2009. Data rows have one field fewer than the header, so cells are read by
// position: 0 reference, 2 common ingredients, 7 "other" conditions, and the
// INCI names the entry covers third from the end. Guarantees: names upper-case.
import { parseCsv } from './csv';
import { readText } from './rawfiles';

export interface AnnexEntry {
  annex: string;
  ref: string;
  names: string[]; // INCI names covered by the entry, upper-case, deduplicated
  other: string;
}

const ANNEXES = ['III', 'V', 'VI'] as const;

export function readAnnexes(rawDir: string): AnnexEntry[] {
  const out: AnnexEntry[] = [];
  for (const annex of ANNEXES) {
    const [, ...rows] = parseCsv(readText(rawDir, `cosing-annexes/annex.${annex}.csv`));
    for (const r of rows) {
      const names = new Set<string>();
      for (const cell of [r[2] ?? '', r[r.length - 3] ?? '']) {
        for (const n of cell.replace(/\u00ad/g, '').split(/\s+\/\s+|\s*;\s*|\n|(?<!\d),(?!\d)/)) {
          const v = n.trim().toUpperCase().replace(/\s+/g, ' ');
          if (v !== '' && v !== '-') names.add(v);
        }
      }
      out.push({ annex, ref: (r[0] ?? '').trim(), names: [...names], other: (r[7] ?? '').replace(/\u00ad/g, '') });
    }
  }
  return out;
}

/** Annex III entries whose conditions require the substance to be named on the label: the labelled fragrance allergens. */
export function fragranceAllergens(entries: AnnexEntry[]): string[] {
  return entries
    .filter((e) => e.annex === 'III' && /indicated in the list of ingredients/i.test(e.other))
    .flatMap((e) => e.names);
}

export function annexNames(entries: AnnexEntry[], annex: string): string[] {
  return entries.filter((e) => e.annex === annex).flatMap((e) => e.names);
}
