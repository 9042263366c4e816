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
// keeps its place named without the amount. What is printed with a name is not part of it (unglued):
// a header before it ("El (Estee Lauder)Ingredients: Water"), a batch, formula or shade code ("Sodium
// Benzoate F714-1", "Il51-1" alone), a drug-facts column word ("Octisalate Sunscreen"); and a makeup
// list's shade names ("Demure", "Keep Going (6)": printed nowhere else, no word of a name, side by side)
// are notes. Guarantees: pure functions of the entries and the dictionary (and, for shade names, of
// the names printed in other products); every decision is counted by rule for the data report.
import { compactKey } from '../labels/aliases';
import { joinEntries, type JoinedEntry } from '../labels/join-entries';
import type { Join, LabelJoiner } from '../labels/joiner';
import { isPartWord, namesPolymer } from '../labels/precision';

export type FragmentRule = 'colon' | 'part' | 'prefix' | 'amount' | 'header' | 'code' | 'column' | 'shade';

const RULES: readonly FragmentRule[] = ['colon', 'part', 'prefix', 'amount', 'header', 'code', 'column', 'shade'];

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
  /** Entries printing a batch or formula code that joined nothing, kept named without it. */
  codeRenamed: number;
  /** What each rule did, "printed → entries" (the report shows the first few; the whole list is for checking the rules). */
  examples: Record<FragmentRule, string[]>;
}

export function emptyCounts(): FragmentCounts {
  const each = <V>(v: () => V) => Object.fromEntries(RULES.map((r) => [r, v()])) as Record<FragmentRule, V>;
  return {
    mended: each(() => 0),
    dropped: each(() => 0),
    samePrinted: 0,
    amountRenamed: 0,
    codeRenamed: 0,
    examples: each((): string[] => []),
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
  /** True when a name of the dictionary holds this word, or a word ending with it of five letters or more ("POLYMER"), any case. */
  holdsWord(word: string): boolean;
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
  const columns = columnWords(entries, joiner, dict);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const glued = e.join === null ? unglued(e, joiner, dict, columns, counts) : null;
    if (glued !== null) {
      out.push(...glued);
      continue;
    }
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

/**
 * An unjoined entry that is a name with something printed before or after it, or that thing
 * alone, as the entries it stands for; null when no rule applies. In order: a drug-facts column
 * word ("Octisalate Sunscreen"), a header glued before a name ("El (Estee Lauder)Ingredients: Water",
 * "Titanium Dioxide (Ci 77891). Olive Gold Shimmer (6): Mica"), a batch, formula or shade code
 * ("Sodium Benzoate F714-1", "#12103/A Alcohol", "Il51-1").
 */
function unglued<T>(
  e: JoinedEntry<T>,
  joiner: LabelJoiner<T>,
  dict: Dictionary,
  columns: ReadonlySet<string>,
  counts: FragmentCounts,
): JoinedEntry<T>[] | null {
  const note = (rule: FragmentRule, out: JoinedEntry<T>[], how: 'mended' | 'dropped' | 'renamed') => {
    if (how === 'renamed') counts.codeRenamed++;
    else counts[how][rule]++;
    counts.examples[rule].push(`${e.label_name} → ${out.length === 0 ? '(dropped)' : out.map(shown).join(' + ')}`);
    return out;
  };
  if (columns.size > 0) {
    if (columns.has(e.label_name.trim().toUpperCase())) return note('column', [], 'dropped');
    const joined = withoutColumnWord(e, columns, joiner, dict);
    if (joined !== null) return note('column', joined, 'mended');
  }
  const header = headerGlued(e.label_name);
  if (header !== null) {
    const after = joinedAs(e, header.after, joiner);
    if (after !== null) {
      const before = header.before === null ? [] : (joinedAs(e, header.before, joiner) ?? [named(e, header.before)]);
      return note('header', [...before, ...after], 'mended');
    }
  }
  const code = withoutCodes(e.label_name);
  if (code !== null) {
    if (code.rest === '') return note('code', [], 'dropped');
    const joined = joinedAs(e, code.rest, joiner);
    if (joined !== null) return note('code', joined, 'mended');
    if (code.long) return note('code', [named(e, code.rest)], 'renamed');
  }
  return null;
}

function shown<T>(e: JoinedEntry<T>): string {
  return e.join === null ? `"${e.label_name}"` : e.label_name;
}

/** The entry named as this text, joined to nothing. */
function named<T>(e: JoinedEntry<T>, text: string): JoinedEntry<T> {
  return { ...e, label_name: text, join: null };
}

/** The entries a text printed in the entry's place stands for (one, or two names printed as one), when all join; else null. */
function joinedAs<T>(e: JoinedEntry<T>, text: string, joiner: LabelJoiner<T>): JoinedEntry<T>[] | null {
  const got = joinEntries([{ label_name: text, concentration: null, may_contain: e.may_contain }], joiner);
  if (got.length === 0 || got.some((g) => g.join === null)) return null;
  return got.map((g, i) => ({ ...g, concentration: i === 0 ? e.concentration : null }));
}

/**
 * A header printed before a name in one entry: the name after the entry's last colon, and
 * the name printed before the header when a full stop ends it ("Red 4 (CI 14700). Retinol Youth
 * Renewal Eye Serum: Water" → "Red 4 (CI 14700)", "Water"); null without an inner colon, or when
 * the header is a "may contain" marker (its names are marked, not joined as they stand).
 */
export function headerGlued(label: string): { before: string | null; after: string } | null {
  const at = label.lastIndexOf(':');
  const after = label.slice(at + 1).trim();
  if (at <= 0 || !/[A-Za-z]{2}/.test(after) || /\d:\s*\d/.test(label.slice(at - 1, at + 3))) return null; // "4:1 Root Extract": a ratio
  const head = label.slice(0, at);
  if (mayContainMarker(head)) return null;
  const stop = /^(.*[^.\s][)\]]?)\.\s+\S/.exec(head);
  const before = stop === null ? null : stop[1].trim();
  return { before: before !== null && /[A-Za-z]{2}/.test(before) ? before : null, after };
}

/** "May contain", "Peut contenir", "(+/-)", "±": a marker, not a header. */
function mayContainMarker(text: string): boolean {
  return /\+\s*\/\s*-|±|\bmay contain|\bpeut conten|\bpuede contener|\bkann enthalten/i.test(text);
}

/**
 * A code printed in a list, never INCI syntax: long (a batch or formula number: "#12103/A",
 * "C162587/2", "[V2889A]", "875650", "04932/N") or short (a shade or lot code: "E2", "D1", "Il51-1",
 * "MOSC01"). Not a carbon chain ("C12", "C13-C14"), a colour index ("CI42025"), "#6".
 */
const LONG_CODE =
  /^(?:#[A-Za-z\d][\w/.-]{2,}|\[[A-Za-z]*\d[A-Za-z\d]*\]|[A-Za-z]{1,2}\d{5,}(?:\/[A-Za-z\d]{1,2})?|\d{4,}\/[A-Za-z\d]{1,2}|\d{6,})$/;
const SHORT_CODE = /^[A-Za-z]{1,4}\d{1,3}[A-Za-z]?(?:-\d)?$/;
const INCI_SYNTAX = /^(?:C\d{1,2}(?:-C?\d{1,2})?|CI\d+)$/i;
/** A code's label, printed before it: dotted initials ("F.I.L."), "Code", a colon, or a word in capitals in an entry not printed in capitals ("FORMULA #305-1"). */
function isCodeLabel(word: string, label: string): boolean {
  if (/^(?:(?:[A-Z]\.){2,}[A-Z]?\.?|:|code)$/i.test(word)) return true;
  return /^[A-Z]{4,}$/.test(word) && label !== label.toUpperCase();
}

function codeKind(words: readonly string[], at: number): 'long' | 'short' | null {
  const t = words[at].replace(/[.,;]+$/, '');
  if (INCI_SYNTAX.test(t) || /^ci$/i.test(words[at - 1] ?? '')) return null; // "CI 77491"

  return LONG_CODE.test(t) ? 'long' : SHORT_CODE.test(t) ? 'short' : null;
}

/**
 * The entry without the codes printed at its start or end (with a code's label and the
 * numbers printed after a leading code: "875650 18 Alcohol"); null when it prints none.
 * `rest` is '' when nothing but codes is printed; `long` when a long code was removed.
 */
export function withoutCodes(label: string): { rest: string; long: boolean } | null {
  const words = label.trim().split(/\s+/);
  let from = 0;
  let to = words.length;
  let long = false;
  let any = false;
  for (let k: ReturnType<typeof codeKind>; from < to && (k = codeKind(words, from)) !== null; from++) {
    long ||= k === 'long';
    any = true;
    while (from + 1 < to && /^\d{1,3}$/.test(words[from + 1])) from++;
  }
  for (let k: ReturnType<typeof codeKind>; from < to && (k = codeKind(words, to - 1)) !== null; to--) {
    long ||= k === 'long';
    any = true;
    while (to - 1 > from && isCodeLabel(words[to - 2], label)) to--;
  }
  if (!any) return null;
  const rest = words
    .slice(from, to)
    .join(' ')
    .replace(/[\s.,;:]+$/, '');
  return { rest: /[A-Za-z]{2}/.test(rest) ? rest : '', long };
}

/**
 * The words printed as a drug-facts column beside the names ("Avobenzone Sunscreen", "Sunscreen
 * Octinoxate"): a word no name of the dictionary holds, printed at the same end of two or more
 * unjoined entries of one list that each join without it (upper case).
 */
export function columnWords<T>(
  entries: readonly JoinedEntry<T>[],
  joiner: LabelJoiner<T>,
  dict: Dictionary,
): Set<string> {
  const seen = new Map<string, number>();
  for (const e of entries) {
    if (e.join !== null) continue;
    const words = columnable(e.label_name);
    if (words === null) continue;
    for (const [end, word, rest] of [
      ['first', words[0], words.slice(1)],
      ['last', words[words.length - 1], words.slice(0, -1)],
    ] as const) {
      if (!mayBeColumnWord(word, dict) || joiner.join(rest.join(' ')) === null) continue;
      const k = `${end} ${word.toUpperCase()}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  for (const [k, n] of seen) if (n >= 2) out.add(k.slice(k.indexOf(' ') + 1));
  return out;
}

/**
 * In a list with a column: the entry joined without a column word at either end ("Avobenzone
 * Sunscreen"), else without a first or last word no name holds ("Purpose Avobenzone"); null when none joins.
 */
function withoutColumnWord<T>(
  e: JoinedEntry<T>,
  columns: ReadonlySet<string>,
  joiner: LabelJoiner<T>,
  dict: Dictionary,
): JoinedEntry<T>[] | null {
  const words = columnable(e.label_name);
  if (words === null) return null;
  const first = words[0];
  const last = words[words.length - 1];
  const tries = [
    columns.has(last.toUpperCase()) && words.slice(0, -1),
    columns.has(first.toUpperCase()) && words.slice(1),
    mayBeColumnWord(first, dict) && words.slice(1),
    mayBeColumnWord(last, dict) && words.slice(0, -1),
  ];
  for (const rest of tries) {
    const joined = rest === false ? null : joinedAs(e, rest.join(' '), joiner);
    if (joined !== null) return joined;
  }
  return null;
}

/** A word of letters no name of the dictionary holds, and no word the joins weigh: a part or preparation, a polymer. */
function mayBeColumnWord(word: string, dict: Dictionary): boolean {
  return /^[A-Za-z]{3,}$/.test(word) && !dict.holdsWord(word) && !isPartWord(word) && !namesPolymer(word);
}

/** The words of an entry that may print a column word: two or more, no trailing colon (a header), no unit of an amount last ("80% Vol"). */
function columnable(label: string): string[] | null {
  const t = label.trim();
  const words = t.split(/\s+/);
  if (words.length < 2 || t.endsWith(':')) return null;
  const last = words[words.length - 1];
  if (!/\d/.test(last))
    for (const m of t.matchAll(AMOUNT))
      if (m.index + m[0].length === t.length && m[0].trim().endsWith(last)) return null;
  return words;
}

/**
 * A makeup product's list without its shade names ("Demure", "Keep Going (6)", "50H Deep"): an
 * entry that joined nothing, printed in this product only (`once`), none of whose words a name
 * of the dictionary holds, next to another entry that joined nothing and is printed in this
 * product only — a palette's shades printed in its list. They are notes, dropped.
 */
export function withoutShadeNames<T>(
  entries: readonly JoinedEntry<T>[],
  once: (label: string) => boolean,
  dict: Dictionary,
  counts: FragmentCounts,
): JoinedEntry<T>[] {
  const lone = entries.map((e) => e.join === null && once(e.label_name));
  const out = entries.filter((e, i) => {
    if (!lone[i] || !(lone[i - 1] === true || lone[i + 1] === true)) return true;
    const words = e.label_name.split(/[^A-Za-z]+/).filter((w) => w.length >= 3);
    if (words.length === 0 || words.some((w) => dict.holdsWord(w))) return true;
    counts.dropped.shade++;
    counts.examples.shade.push(`${e.label_name} → (dropped)`);
    return false;
  });
  return out;
}
