// The dictionary clean-up rules of the sample pipeline (issue 24), applied to the
// synonyms the sources (CosDNA, curlsbot) attach to CosIng records and to CosIng
// records that are one substance. Guarantees: every decision is recorded with its rule,
// for the data report; the rules depend only on the names, never on input order.
import { compactKey } from '../labels/aliases';

export type DropReason = 'shared' | 'group' | 'plant' | 'grade';

export interface Dropped {
  name: string;
  inci: string;
  reason: DropReason;
}

/** Rule 2, group: a plural class word ("Iron Oxides", "Plant Extracts") names several substances. */
const GROUP = /\b(oxides|extracts|oils|esters|salts|acids|parabens|silicones|pigments|colou?rants|colou?rs|lakes)\b/i;
/**
 * Rule 2, group: one half of an ester's name ("Ethyl ester", "Acetic ester", "Hexadecyl
 * Ester") names every ester of that alcohol or acid, unless it is the record's own name
 * in the singular ("Jojoba ester" on JOJOBA ESTERS).
 */
const HALF_ESTER = /^[a-z0-9-]+\s+ester$/i;
/** Rule 2, grade: "White Petrolatum", "White Beeswax" name a grade, not one record's substance. */
const GRADE = /^white\s/i;

const PREPARATION =
  /^(.+?)(?:\s+(?:fruit|leaf|leaves|seed|kernel|nut|bran|flower|root|peel|bark|stem|herb|oil|extract|water|butter|juice|powder))+$/i;

/** Plants' names, by compact key: Latin (genus + species) or common. */
export type PlantNames = ReadonlyMap<string, 'latin' | 'common'>;

/**
 * Plants' names: the genus + species that begins a CosIng botanical name
 * (CITRUS MEDICA LIMONUM PEEL OIL → CITRUS MEDICA) and the common name a source synonym
 * puts before a part or preparation ("Bergamot Fruit Oil" → Bergamot).
 */
export function plantNames(inciNames: Iterable<string>, synonyms: Iterable<string>): Map<string, 'latin' | 'common'> {
  const out = new Map<string, 'latin' | 'common'>();
  for (const n of inciNames) {
    const m = PREPARATION.exec(n);
    const words = m ? m[1].split(' ') : [];
    if (words.length >= 2 && /^[A-Z]+$/.test(words[0]) && /^[A-Z]+$/.test(words[1]))
      out.set(compactKey(words.slice(0, 2).join(' ')), 'latin');
  }
  for (const s of synonyms) {
    const m = PREPARATION.exec(s.trim());
    if (m && PLAIN.test(m[1]) && !out.has(compactKey(m[1]))) out.set(compactKey(m[1]), 'common');
  }
  return out;
}

/** A plant's name is words of letters only ("Bergamot", "Citrus Medica"; not "T.E.A"). */
const PLAIN = /^[A-Za-z][a-z]+(?: [A-Za-z][a-z]+)?$/;

/**
 * Rule 2: why a synonym cannot stand for this record, or null. Group: a plural class
 * word, or half an ester's name. Grade: "White …". Plant: a plant's name alone, with no part or preparation,
 * except a common name on a record that is the plant itself (Sandalwood on SANTALUM ALBUM).
 */
export function unspecificReason(name: string, inci: string, plants: PlantNames): DropReason | null {
  if (GROUP.test(name)) return 'group';
  if (HALF_ESTER.test(name.trim()) && `${compactKey(name)}S` !== compactKey(inci)) return 'group';
  if (GRADE.test(name)) return 'grade';
  const kind = PLAIN.test(name) && !PREPARATION.test(name) ? plants.get(compactKey(name)) : undefined;
  if (kind === 'latin' || (kind === 'common' && plants.get(compactKey(inci)) !== 'latin')) return 'plant';
  return null;
}

/** Rule 1: synonyms (compact form) held by two or more records, dropped from all of them. */
export function sharedSynonyms(lists: ReadonlyMap<string, readonly string[]>): Set<string> {
  const holder = new Map<string, string>();
  const shared = new Set<string>();
  for (const [inci, names] of lists)
    for (const n of names) {
      const k = compactKey(n);
      const prev = holder.get(k);
      if (prev === undefined) holder.set(k, inci);
      else if (prev !== inci) shared.add(k);
    }
  return shared;
}

const COLOUR =
  /^(?:ext\.?\s*)?(f\s*d\s*&\s*c|d\s*&\s*c)\s+(red|yellow|blue|green|orange|violet|black|brown)\s*(?:no\.?|#)?\s*(\d+)$/i;

/**
 * Rule 3, colour index: the US colour names a CI record's synonyms give
 * ("FD&C Yellow No. 6" on CI 15985 → "FD&C Yellow 6", "Yellow 6"), so the label
 * spellings join the CI record; lakes ("Yellow 6 Lake") are not derived.
 */
export function colourNames(inci: string, synonyms: readonly string[]): string[] {
  if (!/^CI \d{5}$/.test(inci)) return [];
  const out: string[] = [];
  for (const s of synonyms) {
    const m = COLOUR.exec(s.trim());
    if (!m) continue;
    const colour = m[2].charAt(0).toUpperCase() + m[2].slice(1).toLowerCase();
    const prefix = /f/i.test(m[1]) ? 'FD&C' : 'D&C';
    for (const v of [`${prefix} ${colour} ${m[3]}`, `${colour} ${m[3]}`]) if (!out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * Rule 3, one substance: record B merges into record A when B's name is a curated alias
 * of A or a source synonym of A and the two share a CAS number. A keeps its name and id;
 * B's name becomes A's synonym. A record already merged, or claimed by two, stays.
 */
export function sameSubstance(
  candidates: readonly [string, string][],
  cas: (inci: string) => readonly string[],
): Map<string, string> {
  const claims = new Map<string, Set<string>>();
  for (const [a, b] of candidates) {
    if (a === b) continue;
    const ca = cas(a);
    if (!cas(b).some((c) => ca.includes(c))) continue;
    const set = claims.get(b) ?? new Set<string>();
    set.add(a);
    claims.set(b, set);
  }
  const into = new Map<string, string>();
  for (const [b, as] of [...claims].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    if (as.size !== 1) continue;
    const [a] = as;
    if (claims.has(a) || into.has(a)) continue; // no chains, no mutual claims
    into.set(b, a);
  }
  return into;
}
