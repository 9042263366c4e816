// Junk records of the sample dictionary (issue 33): a printed entry that joins nothing and is
// a fragment of a name rather than an ingredient would become a label-only record ("Extract",
// "Kernel Oil", "Hydrogenated", "Green Tea:") that tolerant forms and splits then land on. Found by
// rule, never by a list: a trailing colon (a header or shade name glued into the list: a note);
// part words only ("Seed Oil": the end of the name before it); one word that begins names of the
// dictionary and is none ("Caprylic", "VP": the start of the name after it). A fragment is mended
// with its neighbour when the two printed as one join ("Caprylic, Capric Triglyceride"), else
// dropped from the list (a lone first word is kept: "Calcium" in a supplement's list names one). Then an entry printed as another entry is, letters and digits alike
// ("aloe barbadensis aloe vera leaf juice"), joins that entry's record when all such entries
// joined one record (one printed name, one record). An entry that prints an amount in its name
// and joins nothing ("100% Unrefined … Kernel Oil", "Zinc Oxide 9.60%Water", "0.00108%", "Viscose 8%")
// never names a record with its amount: it joins as the name without the amount, or as the names
// around the amount when each joins, or is dropped when nothing but the amount is printed, else it
// keeps its place named without the amount. Guarantees: pure functions of the entries and the
// dictionary; every decision is counted by rule for the data report.
import { compactKey } from '../labels/aliases';
import type { JoinedEntry } from '../labels/join-entries';
import type { Join, LabelJoiner } from '../labels/joiner';
import { isPartWord } from '../labels/precision';

export type FragmentRule = 'colon' | 'part' | 'prefix' | 'amount';

/** What the rules did, for the data report. */
export interface FragmentCounts {
  /** Fragments mended with a neighbour into one joined entry, by rule. */
  mended: Record<FragmentRule, number>;
  /** Fragments dropped from their list, by rule (never 'prefix'). */
  dropped: Record<FragmentRule, number>;
  /** Entries joined because the same printed name (compact form) joined one record elsewhere. */
  samePrinted: number;
  /** Entries printing an amount that joined nothing, kept named without it (a label-only record with no amount in its name). */
  amountRenamed: number;
}

export function emptyCounts(): FragmentCounts {
  return {
    mended: { colon: 0, part: 0, prefix: 0, amount: 0 },
    dropped: { colon: 0, part: 0, prefix: 0, amount: 0 },
    samePrinted: 0,
    amountRenamed: 0,
  };
}

/** What the rules need to know of the dictionary. */
export interface Dictionary {
  /** True when the text is a name of the dictionary (exact or compact form). */
  isName(text: string): boolean;
  /** How many names of two words or more begin with this word (upper case). */
  namesBeginningWith(word: string): number;
  /** True when the word is a genus of the dictionary's botanical names ("Aloe", "Prunus"): a plant, not a fragment. */
  isGenus(word: string): boolean;
}

/** A word beginning this many names of the dictionary or more, and none itself, is the start of a name. */
const PREFIX_NAMES = 3;

/** A number and its unit (AMOUNT). */
const NUMBER_UNIT =
  /\d+(?:[.,]\d+)*\s*(?:-\s*\d+(?:[.,]\d+)*\s*)?(?:%(?:\s*(?:vol\b\.?|v\/v|w\/w|dv\b\*?))?|(?:mg|mcg|µg|g|ml|iu)\b(?:\s*\/\s*g\b)?)/
    .source;
/**
 * An amount printed in a name: a number with a percentage or a unit of mass or volume ("8%", "9.60%",
 * "75% vol", "50mg", "1,800mcg", "250ml", "250 IU", "(2% DV*)"), the brackets around it that hold nothing else.
 */
const AMOUNT = new RegExp(
  /\s*(?:[([]\s*(?:<\s*)?NUM\s*[)\]]|(?:<\s*)?NUM)/.source.replace(/NUM/g, () => NUMBER_UNIT),
  'gi',
);
/** Marks an amount leaves behind: "(**)", "(*)", empty brackets. */
const LEFT_OVER = /\(\s*\**\s*\)|\[\s*\]/g;

/** The rule that makes an unjoined printed entry a fragment, or null. */
export function fragmentRule(label: string, dict: Dictionary): FragmentRule | null {
  const t = label.trim();
  if (hasAmount(t)) return 'amount';
  if (/:$/.test(t)) return 'colon';
  const words = t.split(/\s+/);
  if (words.every((w) => isPartWord(w))) return 'part';
  if (words.length !== 1 || !/^[A-Za-z][A-Za-z0-9-]*$/.test(t) || dict.isName(t) || dict.isGenus(t)) return null;
  return dict.namesBeginningWith(t.toUpperCase()) >= PREFIX_NAMES ? 'prefix' : null;
}

/** AMOUNT, not global: a test that leaves no lastIndex behind. */
const AN_AMOUNT = new RegExp(AMOUNT.source, 'i');

function hasAmount(t: string): boolean {
  return AN_AMOUNT.test(t);
}

/**
 * The names printed around a name's amounts, tidied; [] when only amounts. An amount outside
 * brackets separates names ("Zinc Oxide 9.60%Water"); one inside brackets is only removed.
 */
export function withoutAmounts(label: string): string[] {
  const parts: string[] = [];
  let text = '';
  let from = 0;
  let depth = 0;
  for (const m of label.matchAll(AMOUNT)) {
    const before = label.slice(from, m.index);
    depth += bracketDepth(before);
    text += before;
    if (depth <= 0) {
      parts.push(text);
      text = '';
    } else text += ' ';
    from = m.index + m[0].length;
  }
  parts.push(text + label.slice(from));
  return parts
    .map((p) =>
      p
        .replace(LEFT_OVER, ' ')
        .replace(/^[\s.,;:*/]+|[\s,;:*/]+$/g, '')
        .replace(/\s+/g, ' ')
        .replace(/([([]) | ([)\]])/g, '$1$2'),
    )
    .filter((p) => /[A-Za-z]{2}/.test(p));
}

/** Brackets opened less brackets closed in a text. */
function bracketDepth(t: string): number {
  let d = 0;
  for (const c of t) d += c === '(' || c === '[' ? 1 : c === ')' || c === ']' ? -1 : 0;
  return d;
}

/**
 * An entry printing an amount that joined nothing: joined as the name without the amount
 * (the names around it put together), or as each name around it when there are several and
 * each joins; dropped (null) when nothing but amounts is printed; else named without the amount.
 */
function withoutAmount<T>(e: JoinedEntry<T>, joiner: LabelJoiner<T>, counts: FragmentCounts): JoinedEntry<T>[] {
  const parts = withoutAmounts(e.label_name);
  if (parts.length === 0) {
    counts.dropped.amount++;
    return [];
  }
  const whole = joiner.join(parts.join(' '));
  if (whole !== null) {
    counts.mended.amount++;
    return [{ ...e, join: whole }];
  }
  const joins = parts.length > 1 ? parts.map((p) => joiner.join(p)) : [];
  if (joins.length > 0 && joins.every((j) => j !== null)) {
    counts.mended.amount++;
    return parts.map((p, i) => ({
      ...e,
      label_name: p,
      concentration: i === 0 ? e.concentration : null,
      join: joins[i],
    }));
  }
  counts.amountRenamed++;
  return [{ ...e, label_name: parts.join(' ') }];
}

/**
 * One list's entries with its fragments mended or dropped: a part fragment is tried with the
 * entry before it, a prefix with the entry after it, then the other neighbour; a colon is dropped.
 */
export function mendFragments<T>(
  entries: readonly JoinedEntry<T>[],
  joiner: LabelJoiner<T>,
  dict: Dictionary,
  counts: FragmentCounts,
): JoinedEntry<T>[] {
  const out: JoinedEntry<T>[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const rule = e.join === null ? fragmentRule(e.label_name, dict) : null;
    if (rule === null) {
      out.push(e);
      continue;
    }
    if (rule === 'amount') {
      out.push(...withoutAmount(e, joiner, counts));
      continue;
    }
    const prev = out[out.length - 1];
    const next = entries[i + 1];
    const withPrev = () => (rule === 'colon' || prev === undefined ? null : mended(prev, e, joiner));
    const withNext = () => (rule === 'colon' || next === undefined ? null : mended(e, next, joiner));
    const sides = rule === 'prefix' ? (['next', 'prev'] as const) : (['prev', 'next'] as const);
    let done = false;
    for (const side of sides) {
      const m = side === 'prev' ? withPrev() : withNext();
      if (m === null) continue;
      if (side === 'prev') out[out.length - 1] = m;
      else {
        out.push(m);
        i++;
      }
      counts.mended[rule]++;
      done = true;
      break;
    }
    if (done) continue;
    // A lone first word that mends with neither neighbour may name an ingredient on its own ("Calcium", "Copper"
    // in a supplement's list): kept.
    if (rule === 'prefix') {
      out.push(e);
      continue;
    }
    counts.dropped[rule]++;
  }
  return out;
}

/** The two entries printed as one ("Caprylic, Capric Triglyceride"), when that joins, else null. */
function mended<T>(a: JoinedEntry<T>, b: JoinedEntry<T>, joiner: LabelJoiner<T>): JoinedEntry<T> | null {
  if (a.may_contain !== b.may_contain) return null;
  const label = `${a.label_name}, ${b.label_name}`;
  const join = joiner.join(label);
  return join === null ? null : { ...a, label_name: label, concentration: a.concentration ?? b.concentration, join };
}

/**
 * The records that printed names (compact form) joined to, when every entry of that name
 * that joined as a whole (not a split part, not by a colour index or CAS number) joined the same one.
 */
export function printedRecords<T>(lists: Iterable<readonly JoinedEntry<T>[]>): Map<string, T> {
  const seen = new Map<string, T | null>();
  for (const list of lists)
    for (const e of list) {
      const j = e.join;
      if (j === null || j.rule !== undefined) continue;
      const k = compactKey(e.label_name);
      const prev = seen.get(k);
      if (prev === undefined) seen.set(k, j.target);
      else if (prev !== j.target) seen.set(k, null);
    }
  const out = new Map<string, T>();
  for (const [k, t] of seen) if (t !== null) out.set(k, t);
  return out;
}

/** The entry joined to the record its printed name (compact form) joined elsewhere, when it joined nothing. */
export function joinAsPrinted<T>(
  e: JoinedEntry<T>,
  records: ReadonlyMap<string, T>,
  counts: FragmentCounts,
): JoinedEntry<T> {
  if (e.join !== null) return e;
  const t = records.get(compactKey(e.label_name));
  if (t === undefined) return e;
  counts.samePrinted++;
  const join: Join<T> = { target: t, how: 'tolerant' };
  return { ...e, join };
}
