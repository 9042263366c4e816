// Canonical ingredients from CosIng: one per INCI name (duplicates ignoring case
// merge into the most recently updated record), with label casing, cleaned
// registry numbers, an IUPAC name where CosIng's description is one, synonyms,
// mapped functions, scores, rating and free-from tag. Guarantees: field values
// obey catalogue-source.md; the result is sorted by name, ids are uuid v5 of the INCI name.
// The synonyms it is given are already cleaned (dictionary-rules.ts: shared, group,
// plant and grade synonyms dropped; one substance, one record).
import { labelCase } from './casing';
import { CosingRow, sortableDate } from './cosing';
import { mapFunctions } from './functions';
import { uuidV5 } from '../source/ids';
import { compactKey } from '../labels/aliases';
import type { IngredientCategory, Rating, SourceIngredient } from '../source/records';

export type { SourceIngredient };

export interface Enrichment {
  synonyms: (inci: string) => readonly string[];
  scores: (inci: string) => { irritancy: string | null; comedogenicity: string | null };
  rating: (inci: string) => Rating | null;
  tag: (inci: string, cosingFunctions: readonly string[]) => IngredientCategory | null;
}

const MAX_OTHER_NAMES = 12;

export function ingredientId(inci: string): string {
  return uuidV5(`cosing:${inci.toUpperCase()}`);
}

/** Group rows by upper-case INCI name; the newest update (then highest ref) comes first. */
export function groupCosing(rows: readonly CosingRow[]): Map<string, CosingRow[]> {
  const groups = new Map<string, CosingRow[]>();
  for (const r of rows) {
    const k = r.inci.toUpperCase();
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  for (const g of groups.values()) {
    g.sort((a, b) => sortableDate(b.updated).localeCompare(sortableDate(a.updated)) || Number(b.ref) - Number(a.ref));
  }
  return groups;
}

export function buildIngredient(inci: string, group: readonly CosingRow[], e: Enrichment): SourceIngredient {
  const cosingFunctions = unique(group.flatMap((r) => r.functions));
  const first = (f: (r: CosingRow) => string) => group.map(f).find((v) => v !== '') ?? '';
  const name = labelCase(group[0].inci);
  const phEur = capitalise(first((r) => r.phEur));
  const inn = capitalise(first((r) => r.inn));
  const others: string[] = [];
  const seen = new Set([compactKey(name)]);
  for (const o of [...splitNames(inn), ...splitNames(phEur), ...e.synonyms(inci)]) {
    const k = compactKey(o);
    if (k === '' || seen.has(k) || o.includes(', ') || others.length >= MAX_OTHER_NAMES) continue;
    seen.add(k);
    others.push(o);
  }
  const scores = e.scores(inci);
  return {
    id: ingredientId(inci),
    name,
    rating: e.rating(inci),
    irritancy: scores.irritancy,
    comedogenicity: scores.comedogenicity,
    functions: mapFunctions(cosingFunctions),
    cas_number: registryNumbers(group.map((r) => r.cas)),
    ec_number: registryNumbers(group.map((r) => r.ec)),
    ph_eur_name: phEur || null,
    iupac_name: iupacName(group[0].description, inci),
    other_names: others.length > 0 ? others.join(', ') : null,
    category: e.tag(inci, cosingFunctions),
  };
}

/** CAS/EC cells: values separated by ", " or " / " (or " - "), without the "-" placeholders; null when none is left. */
export function registryNumbers(cells: readonly string[]): string | null {
  const out: string[] = [];
  for (const cell of cells) {
    for (const v of cell.split(/\s*[,/;]\s*|\s+-\s+/)) {
      const t = v.trim();
      if (t === '' || /^[-–]+$/.test(t) || out.includes(t)) continue;
      out.push(t);
    }
  }
  return out.length > 0 ? out.join(', ') : null;
}

const PROSE =
  /\b(is|are|was|the|of|obtained|derived|conforms|consisting|mixture|extract|from|with|and|or|see|compds?|derivs?|reaction|products?|which|a|an)\b/i;

/** The CosIng description when it is a systematic chemical name, else null (heuristic, documented). */
export function iupacName(description: string, inci: string): string | null {
  for (const seg of description.split(';')) {
    const s = seg.trim();
    if (s === '' || s.length > 200 || PROSE.test(s) || s.includes(', ') || /\.alpha\.|\.omega\.|\([A-Z]{2,}\)/.test(s))
      continue;
    if (compactKey(s) === compactKey(inci)) continue;
    const words = s.split(/\s+/);
    if (!/[\d[(]|-/.test(s) && words.length < 2) continue;
    if (words.slice(1).some((w) => /^[A-Z][a-z]/.test(w))) continue;
    return s;
  }
  return null;
}

function splitNames(v: string): string[] {
  return v
    .split(/\s+\/\s+/)
    .map((s) => capitalise(s.trim()))
    .filter((s) => s !== '');
}

function capitalise(v: string): string {
  return v === '' ? '' : v.charAt(0).toUpperCase() + v.slice(1);
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
