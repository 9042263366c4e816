// The label parser: one label's ingredient text as printed in, its entries in label
// order out. Guarantees: never throws; every entry keeps its printed spelling
// (whitespace collapsed, bullets, footnote marks and a closing full stop removed); a
// header, a marketing sentence, a footnote or a disclaimer never becomes an entry —
// such text is returned in `notes`, so nothing is dropped silently; entries after a
// "May contain" / "+/-" marker are kept and marked; several lists under headers (kits,
// shade ranges) come back as sections, and `mergeSections` is the one rule that makes
// them one product's list (docs/labels.md). Linear in the text's length whatever its
// shape (bench/label-shapes.ts, test/labels-linear.test.ts): each line is measured once
// and no regular expression rescans a run from each of its positions; parseSteps is the
// same parse in steps, for a caller that must not hold the event loop.
import { Type, type Static } from '@sinclair/typebox';
import { compactKey } from './aliases';

export const LabelEntry = Type.Object({
  label_name: Type.String({ description: 'The entry as printed (trimmed).' }),
  concentration: Type.Union([Type.Number(), Type.Null()], { description: 'Percent stated on the label, or null.' }),
  may_contain: Type.Boolean({ description: 'True in a "May contain" / "+/-" colour section.' }),
});
export type LabelEntry = Static<typeof LabelEntry>;

export interface LabelSection {
  /** The header printed before this list (kits, shade ranges), or null. */
  header: string | null;
  entries: LabelEntry[];
}

export interface ParsedLabel {
  sections: LabelSection[];
  /** Text that is not an entry: marketing sentences, footnotes, disclaimers, empty headers. */
  notes: string[];
}

/** Whole cells that are not ingredient lists. */
const JUNK_CELL = /^(no info|visit the .* boutique|#name\?|n\/a|none|-)\.?$/i;
/** Marketing claims that some pages print as list items. */
const CLAIM_ENTRY =
  /(^free of\b|\b[a-z]+-free$|\bsustainably\b|\bindependently tested\b|\bformulated with(out)?\b|\bnon-gmo\b|\bingredients from organic farming\b|^n[º°o]\.? ?\d)/i;
/** Every CLAIM_ENTRY match holds one of these (a quick test first). */
const CLAIM_HINT = /free|sustainabl|independently|formulated|gmo|farming|^n/i;
/** Sentences that end a list and are not ingredients. */
const DISCLAIMER =
  /(please be aware|ingredient lists? (may|are subject to) change|(?<!\(\s*)certified organic|clean at sephora|this product is|\bis free of\b|for the (most (complete|current|up-to-date)|latest)|we are unable to|refer to the (ingredient list|product packaging)|visit the .{1,60} boutique)/i;
/** Prefixes that announce the list ("Ingredients:"). */
const LIST_PREFIX =
  /^(full |key )?(ingredients?( list)?|ingr[ée]dients|inci|composition|active(?: ingredients?)?|inactive(?: ingredients?)?|other ingredients)\s*[:\-–—]\s*/i;
/** Markers that open a "may contain" colour section, with any brackets and colon. */
const MAY_CONTAIN =
  /^[[(]?\s*(may contain|peut contenir|puede contener|kann enthalten|\+\s*\/\s*-|±)\s*[\])]?\s*([[(]\s*(\+\s*\/\s*-|may contain)\s*[\])])?\s*[:\-–—]?\s*([[(]\s*(\+\s*\/\s*-|±)\s*[\])]\s*)?/i;
/** One language's "may contain" words, with an optional "(+/-)" after them. */
const MAY_WORDS =
  '(?:may contain|peut contenir|puede contener|kann enthalten|pu[òo] contenere|kan bevatten|pode conter|mo[żz]e zawiera[ćc])(?:\\s*[[(]\\s*(?:\\+\\s*\\/\\s*-|±)\\s*[\\])])?';
/** "May contain / Peut contenir / Kann enthalten (+/-)": one marker printed in several languages. */
const MAY_TRANSLATED = new RegExp(`(${MAY_WORDS})(?:\\s*\\/\\s*${MAY_WORDS})+`, 'gi');
/** "Ingredients / Ingrédients / Zutaten": one header printed in several languages. */
const LIST_TRANSLATED =
  /\b(ingredients?|ingr[ée]dients|zutaten|ingredientes|ingredienti|inci)(?:\s*\/\s*(?:ingredients?|ingr[ée]dients|zutaten|ingredientes|ingredienti|inci)\b)+/gi;
/** A "May contain" marker inside a footnote sentence ("*Organic. May contain: CI 77891"). */
const MAY_IN_NOTE =
  /[[(]?\s*(?:may contain|peut contenir|puede contener|kann enthalten)\b|[[(]\s*(?:\+\s*\/\s*-|±)\s*[\])]/i;
/** An entry that is only a note on its neighbour: "(preservative)", "(and)", "(organic)", "(nano)", "*certified organic". */
const NOTE_ONLY = /^\(?\s*(preservatives?|and|organic|certified organic|nano|non-nano|vegan|natural)\s*\)?$/i;
/** Function words of marketing prose; INCI names do not use them. */
const PROSE_WORDS = new Set([
  'the',
  'to',
  'your',
  'helps',
  'help',
  'is',
  'are',
  'that',
  'this',
  'skin',
  'away',
  'while',
  'it',
  'you',
  'our',
  'which',
  'be',
  'can',
  'will',
  'for',
  'and',
  'with',
  'a',
  'an',
  'in',
  'on',
  'from',
  'into',
  'without',
]);
/** The longest of PROSE_WORDS (a longer word is none of them). */
const LONGEST_PROSE_WORD = Math.max(...[...PROSE_WORDS].map((w) => w.length));
/** Words whose full stop belongs to the name ("Alcohol Denat."). */
const ABBREVIATION = /\b(denat|ext|no|vit|var|ssp|subsp|spp|sp|st|co|inc|ltd)\.$/i;
const BULLET = /^[-•·–—*+†‡^~>\s]+/;
/** Starts with a letter or digit and holds none of the characters cleanName removes. */
const PLAIN_NAME = /^[\p{L}\p{N}][^*†‡¹²³⁺^~"'.()]*$/u;
const PERCENT = /(\d+(?:[.,]\d+)?)\s*%/g;

/** Lines or entries read between two pauses of parseSteps. */
const STEP = 256;
/** What parseSteps knows of a line, as bits: a note line, a list-like line, a list-like line follows. */
const NOTE = 1;
const LIST_LIKE = 2;
const NEXT_IS_LIST = 4;

/** Parses one label text. */
export function parseLabel(text: string): ParsedLabel {
  const steps = parseSteps(text);
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}

/**
 * parseLabel in steps: the generator pauses (yields) after every STEP lines or entries,
 * so that a caller may let other work run between them (label-analysis.ts); driven to
 * its end it returns what parseLabel returns.
 */
export function* parseSteps(text: string): Generator<void, ParsedLabel> {
  const out: ParsedLabel = { sections: [], notes: [] };
  const t = normalise(text);
  if (t === '' || JUNK_CELL.test(t)) return out;
  const lines = yield* unwrap(t);
  // What each line is, and whether a list line follows it (skipping notes), found once per line (linear),
  // as bits in a typed array (and the rare disclaimers in a map): no array of objects as long as the label.
  const kind = new Uint8Array(lines.length);
  const disclaimers = new Map<number, RegExpExecArray>();
  for (let i = 0; i < lines.length; i++) {
    const f = lineFacts(lines[i]);
    kind[i] = (f.note ? NOTE : 0) | (f.listLike ? LIST_LIKE : 0);
    if (f.disclaimer !== null) disclaimers.set(i, f.disclaimer);
    if (i % STEP === STEP - 1) yield;
  }
  let after = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    kind[i] |= after;
    if ((kind[i] & NOTE) === 0) after = kind[i] & LIST_LIKE ? NEXT_IS_LIST : 0;
  }
  const st: State = { out, section: null, pendingHeaders: [], may: false, language: null };
  let read = 0;
  for (let i = 0; i < lines.length; i++) {
    const note = (kind[i] & NOTE) !== 0;
    const d = disclaimers.get(i) ?? null;
    const list = note ? undefined : readLine(st, lines[i], d, lines[i - 1], (kind[i] & NEXT_IS_LIST) !== 0);
    if (note) out.notes.push(lines[i]);
    else if (list !== undefined) {
      for (const part of splitList(list)) {
        readPart(st, part);
        if (++read % STEP === 0) yield;
      }
    }
    if (++read % STEP === 0) yield;
  }
  if (st.pendingHeaders.length > 0) out.notes.push(...st.pendingHeaders);
  for (const s of out.sections) if (s.entries.length === 0 && s.header !== null) out.notes.push(s.header);
  out.sections = out.sections.filter((s) => s.entries.length > 0);
  return out;
}

/**
 * One product's list from several sections (kits, shade ranges): the union in
 * first-seen label order; an entry is left out when an earlier kept entry has the
 * same key (default: the compact form of its printed name; an importer may pass the
 * joined ingredient). A single section is returned as it is.
 */
export function mergeSections(
  sections: readonly LabelSection[],
  key: (e: LabelEntry) => string = (e) => compactKey(e.label_name) || e.label_name,
): LabelEntry[] {
  if (sections.length === 1) return sections[0].entries;
  const seen = new Set<string>();
  const merged: LabelEntry[] = [];
  for (const s of sections) {
    for (const e of s.entries) {
      const k = key(e);
      if (seen.has(k)) continue;
      seen.add(k);
      merged.push(e);
    }
  }
  return merged;
}

/** The INCI list paragraph of a product page text: kept for callers that want only the last list. */
export function listParagraph(text: string): string {
  const paras = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n|\n(?=-)/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const lists = paras.filter((p) => !p.startsWith('-') && !/^please be aware/i.test(p));
  if (lists.length === 0) return '';
  for (let i = lists.length - 1; i >= 0; i--) if (lists[i].split(',').length >= 3) return lists[i];
  return lists[lists.length - 1];
}

/**
 * Split on commas and semicolons outside parentheses/brackets and not inside locants
 * (1,2-Hexanediol). A bracket left open ("Titanium Dioxide (CI 77891 , Iron Oxides …")
 * is read as a printed character, so one typo cannot fuse the rest of a list into one entry.
 */
export function splitList(text: string): string[] {
  const parts: string[] = [];
  if (scanOutside(text, null, parts) !== null) return parts;
  const unbalanced: string[] = [];
  scanOutside(text, pairedBrackets(text), unbalanced);
  return unbalanced;
}

const [OPEN, CLOSE, OPEN_SQUARE, CLOSE_SQUARE, COMMA, SEMICOLON, AMPERSAND, LESS] = [...'()[],;&<'].map((c) =>
  c.charCodeAt(0),
);

/**
 * The separators (commas, semicolons) at depth 0 of a text, the parts between them pushed
 * to `parts` when given (splitList); null when a bracket is left open and `paired` (the
 * brackets that count) is null.
 */
function scanOutside(text: string, paired: Uint8Array | null, parts: string[] | null): number | null {
  let n = 0;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === OPEN || c === OPEN_SQUARE) && (paired === null || paired[i] === 1)) depth++;
    else if ((c === CLOSE || c === CLOSE_SQUARE) && depth > 0 && (paired === null || paired[i] === 1)) depth--;
    else if ((c === COMMA || c === SEMICOLON) && depth === 0 && !(c === COMMA && isLocant(text, i))) {
      n++;
      parts?.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth > 0 && paired === null) return null;
  parts?.push(text.slice(start));
  return n;
}

/**
 * Positions of the brackets that have a partner. The stack of open brackets is a typed array:
 * an array of numbers as long as a run of "(" (tens of thousands) lives in V8's large-object
 * space, where each push costs several times more (the linearity test's "run of (" shapes).
 */
function pairedBrackets(text: string): Uint8Array {
  const open = new Int32Array(text.length);
  let top = 0;
  const paired = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN || c === OPEN_SQUARE) open[top++] = i;
    else if ((c === CLOSE || c === CLOSE_SQUARE) && top > 0) {
      paired[i] = 1;
      paired[open[--top]] = 1;
    }
  }
  return paired;
}

interface State {
  out: ParsedLabel;
  section: LabelSection | null;
  pendingHeaders: string[];
  may: boolean;
  /** The language of the first list header ("ingredient", "ingrédient", "zutaten"…), once one is read. */
  language: string | null;
}

/** A list header after a full stop: the list goes on, or is printed again translated. */
const HEADER_AGAIN = /\.\s+(ingr[ée]dients?|zutaten|ingredientes|ingredienti|inhaltsstoffe)\s*:/gi;

/**
 * The line without the list headers printed in it after a full stop. A header in the list's
 * language continues the list ("…, Glycerin. Ingredients: Mica", as when it starts a new
 * line); at one in another language the rest of the line is the list translated, a note
 * ("… Ingrédients: Aqua, Glycérine.").
 */
function headersAgain(st: State, line: string): string {
  let out = '';
  let from = 0;
  for (const m of line.matchAll(HEADER_AGAIN)) {
    if (languageOf(m[1]) !== (st.language ?? 'ingredient')) {
      st.out.notes.push(line.slice(m.index + 1).trim());
      return out + line.slice(from, m.index + 1);
    }
    out += `${line.slice(from, m.index)}, `;
    from = m.index + m[0].length;
  }
  return out + line.slice(from);
}

/** The language of a list header at the start of a text ("Ingrédients:" → "ingrédient"), or null. */
function languageOf(text: string): string | null {
  const m = /^(?:full |key )?(ingredientes|ingredienti|ingr[ée]dient|zutaten|inhaltsstoffe)/i.exec(text);
  return m === null ? null : m[1].toLowerCase();
}

/** Some character that one of normalise's character replacements changes. */
const SPECIAL_CHARACTER =
  /[\u00ad\u200b-\u200d\u2060\ufeff\u00a0\u2000-\u200a\u202f\u205f\u3000\t\u2018\u2019\u201a\u2032\u201c\u201d\u201e\u2033\u2010-\u2015\u2212\u2028\u2029]/;

/**
 * The text with each tag, printed ("&lt;b&gt;") or not ("<b>"), made a space: what
 * text.replace(/&lt;[^&]*&gt;|<\/?[a-z][^>]*>/gi, ' ') gives, in linear time (that scan
 * looks for a ">" to the end of the text after each "<" that has none).
 */
function withoutMarkup(text: string): string {
  let out = '';
  let from = 0; // text before this is in out
  let closes = true; // some ">" may follow
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let end = -1; // the tag's end (exclusive), if one starts at i
    if (c === AMPERSAND && text.slice(i, i + 4).toLowerCase() === '&lt;') {
      const amp = text.indexOf('&', i + 4);
      if (amp >= 0 && text.slice(amp, amp + 4).toLowerCase() === '&gt;') end = amp + 4;
    } else if (c === LESS && closes) {
      const name = text[i + 1] === '/' ? i + 2 : i + 1;
      if (/[a-z]/i.test(text[name] ?? '')) {
        const gt = text.indexOf('>', name + 1);
        if (gt < 0) closes = false;
        else end = gt + 1;
      }
    }
    if (end < 0) continue;
    out += `${text.slice(from, i)} `;
    from = end;
    i = end - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** One text for the parser: markup and entities decoded, spaces, quotes and dashes of one kind. */
function normalise(text: string): string {
  // Each group of replacements runs only when the text holds a character it needs (a replacement that matches nothing is a scan of the whole text).
  let t = String(text);
  if (t.includes('&') || t.includes('<'))
    t = withoutMarkup(t.replace(/&lt;br\s*\/?&gt;|<br\s*\/?>/gi, '\n'))
      .replace(/&amp;/g, '&')
      .replace(/&nbsp;/g, ' ')
      .replace(/&#39;|&apos;/g, "'")
      .replace(/&quot;/g, '"');
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  if (SPECIAL_CHARACTER.test(t))
    t = t
      .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '')
      .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t]/g, ' ')
      .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
      .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\u2028|\u2029/g, '\n');
  if (/[•·●]/.test(t)) t = t.replace(/(\S)[ ]+[•·●][ ]+(?=\S)/g, '$1, '); // "Aqua • Glycerin": a bullet between names separates them
  if (t.includes('/'))
    t = t
      .replace(MAY_TRANSLATED, '$1') // a marker printed in several languages is one marker
      .replace(LIST_TRANSLATED, '$1'); // and so is a list header
  if (t.includes(':'))
    t = t.replace(/(?:\.|(?<![. ]))[ ]+(?=(inactive(?: ingredients?)?|other ingredients?)\s*:)/gi, '\n'); // "Active Ingredient: X. Inactive Ingredients: …": two lists (a run of spaces tried once)
  return t.trim();
}

/**
 * The text's lines, trimmed, without the empty ones, and with a list line wrapped mid-name
 * joined to the list line after it ("Tetra-Di-" + "T-Butyl…", "Sodium" + "Hydroxide, …").
 * Each printed line is looked at once, and a joined line is kept in pieces until it is
 * complete (linear in the text). The lines are cut out one at a time, not split into an
 * array first: a long label has tens of thousands of lines, and each array of that length
 * costs V8 far more than the cuts (docs/labels.md).
 */
function* unwrap(text: string): Generator<void, string[]> {
  const out: string[] = [];
  let n = 0;
  let pieces: string[] = []; // the line being kept, in printed pieces
  let joinable = false; // the kept line is list-like and its last printed line ends without [,;.:]
  let prevListLike = false; // the kept line has a separator (counted on its first printed line)
  for (let start = 0, end = 0; start <= text.length; start = end + 1) {
    end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const l = text.slice(start, end).trim();
    if (l === '') continue;
    const listLike = separators(l) >= 1;
    if (joinable && listLike && !/^[^,]*:/.test(l)) {
      pieces.push(pieces[pieces.length - 1].endsWith('-') ? l : ` ${l}`);
    } else {
      if (pieces.length > 0) out.push(pieces.length === 1 ? pieces[0] : pieces.join(''));
      pieces = [l];
      prevListLike = listLike;
    }
    joinable = prevListLike && !/[,;.:]$/.test(l);
    if (++n % STEP === 0) yield;
  }
  if (pieces.length > 0) out.push(pieces.length === 1 ? pieces[0] : pieces.join(''));
  return out;
}

/** A comma between digits of a locant ("1,2-Hexanediol", "1, 2-Hexanediol", "1,2"), not a separator. */
function isLocant(text: string, i: number): boolean {
  if (!isDigit(text.charCodeAt(i - 1))) return false;
  const end = Math.min(text.length, i + 8); // the 7 characters after the comma
  let j = i + 1;
  if (j < end && isDigit(text.charCodeAt(j))) return true;
  if (j < end && text[j] === ' ') j++;
  const digits = j;
  while (j < end && isDigit(text.charCodeAt(j))) j++;
  return j > digits && j < end && text[j] === '-';
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The last line separators counted, and its count (a line is counted by unwrap, lineFacts and readLine). */
let counted = { line: '', separators: 0 };

/** Separators at depth 0 in a line (as splitList counts them, without making the parts). */
function separators(line: string): number {
  if (!line.includes(',') && !line.includes(';')) return 0;
  if (line !== counted.line)
    counted = {
      line,
      separators: scanOutside(line, null, null) ?? (scanOutside(line, pairedBrackets(line), null) as number),
    };
  return counted.separators;
}

interface LineFacts {
  /** A note line (footnote, disclaimer, claim, prose), never a list. */
  note: boolean;
  /** Where a disclaimer starts in the line, if it holds one. */
  disclaimer: RegExpExecArray | null;
  /** The line has a separator (splitList). */
  listLike: boolean;
}

function lineFacts(whole: string): LineFacts {
  const d = disclaimer(whole);
  const line = d ? whole.slice(0, d.index) : whole; // the disclaimer itself is cut off later
  const seps = separators(line);
  const listLike = (d ? separators(whole) : seps) >= 1;
  return { note: isNoteLine(whole, d, line, seps), disclaimer: d, listLike };
}

/** The disclaimer in a text, if any (every DISCLAIMER phrase holds a space). */
function disclaimer(text: string): RegExpExecArray | null {
  return text.includes(' ') ? DISCLAIMER.exec(text) : null;
}

/** `line`: the whole line up to its disclaimer `d`; `seps`: separators(line). */
function isNoteLine(whole: string, d: RegExpExecArray | null, line: string, seps: number): boolean {
  if (/^[*†‡]/.test(whole) && (d ? separators(whole) : seps) < 2) return true; // footnote
  if (d && seps < 1) return true;
  if (/^[-•·>]\s*[^:]{1,200}:\s/.test(line)) return true; // "-Sunflower Seed Cake, Barley Extract: help strengthen…"
  if (/^[-•·>]/.test(line) && CLAIM_ENTRY.test(line.replace(BULLET, '').replace(/\.$/, ''))) return true;
  return seps < 2 ? isProse(line) : proseShare(line) >= 0.12;
}

/** Marketing prose: four words or more, two of them function words. */
function isProse(text: string): boolean {
  if (wordCountBelow4(text)) return false;
  const c = proseWords(text);
  return c.words >= 4 && c.prose >= 2;
}

/** Share of function words in a line of three of them or more (0 otherwise): a paragraph with commas. */
function proseShare(text: string): number {
  const c = proseWords(text);
  return c.prose >= 3 ? c.prose / c.words : 0;
}

/**
 * The words of a text (runs of a-z once lower-cased) and how many of them are function words,
 * counted in one pass with no array of them (a list line of 100,000 characters has some 15,000).
 */
function proseWords(text: string): { words: number; prose: number } {
  const lower = text.toLowerCase();
  let words = 0;
  let prose = 0;
  for (let i = 0; i < lower.length;) {
    if (!isLowerLetter(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < lower.length && isLowerLetter(lower.charCodeAt(i))) i++;
    words++;
    if (i - start <= LONGEST_PROSE_WORD && PROSE_WORDS.has(lower.slice(start, i))) prose++;
  }
  return { words, prose };
}

/** a-z (the words proseWords counts). */
function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Fewer than four runs of letters a-z (the words isProse counts): a quick test before the word split. */
function wordCountBelow4(text: string): boolean {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < text.length && runs < 4; i++) {
    const c = text.charCodeAt(i) | 0x20; // ASCII letters folded to lower case
    const letter = c >= 97 && c <= 122;
    if (letter && !inRun) runs++;
    inRun = letter;
  }
  return runs < 4;
}

/** Has a word that begins in lower case after the first (sentence case, not an INCI name). */
function sentenceCase(text: string): boolean {
  return /\s[a-z]{3,}/.test(withoutBracketed(text));
}

/** The text without each "(…)" (as text.replace(/\([^)]*\)/g, '') does, in linear time). */
function withoutBracketed(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('(', from);
    const close = open < 0 ? -1 : text.indexOf(')', open + 1);
    if (close < 0) return from === 0 ? text : out + text.slice(from); // no ")" after this "(": none after any later one either
    out += text.slice(from, open);
    from = close + 1;
  }
}

/**
 * Reads one line that is not a note line (isNoteLine), `d` its disclaimer; returns the
 * text to read as a list, if any (listText).
 */
function readLine(
  st: State,
  raw: string,
  d: RegExpExecArray | null,
  prev: string | undefined,
  nextIsList: boolean,
): string | undefined {
  let line = raw;
  // A disclaimer ends the line's list.
  if (d) {
    st.out.notes.push(line.slice(d.index).trim());
    line = line.slice(0, d.index).trim();
  }
  // A full stop followed by a footnote mark ends the list ("…, Tocopherol. *Organic").
  const foot = line.includes('.') ? /\.\s*[*†‡]/.exec(line) : null;
  if (foot) {
    // A "May contain" section after the footnote goes on the list ("*Organic. May contain: CI 77891").
    const rest = line.slice(foot.index + 1);
    const may = MAY_IN_NOTE.exec(rest);
    const note = (may ? rest.slice(0, may.index) : rest).trim();
    if (note !== '') st.out.notes.push(note);
    line = line.slice(0, foot.index + 1) + (may ? ` ${rest.slice(may.index)}` : '');
  }
  // A line that says it is a list ("Active Ingredient: Salicylic Acid 2%") is never a header.
  const listed = /[:-]/.test(line) && LIST_PREFIX.test(line);
  // The list printed again in another language ("Ingrédients: Aqua, Glycérine.") is a translation: a note.
  const language = listed ? languageOf(line) : null;
  if (language !== null && st.language !== null && language !== st.language) return void st.out.notes.push(line);
  if (listed) line = line.replace(LIST_PREFIX, '');
  st.language ??= language;
  if (line.includes('.')) line = headersAgain(st, line);
  // "Shampoo Ingredients: Water, …": what precedes the prefix names the list.
  const named = line.includes(':') ? /^([^,:]{1,60}?)\s*\bingr[ée]dients?\s*:\s*/i.exec(line) : null;
  if (named && !/^(full|key|active|inactive|other)$/i.test(named[1].trim())) {
    st.pendingHeaders.push(named[1].trim());
    line = line.slice(named[0].length);
  }
  if (line === '') return;
  const seps = separators(line);
  // "Header:" alone on its line.
  if (!listed && seps === 0 && /:$/.test(line) && line.length <= 120) {
    const h = line.replace(/:$/, '').replace(BULLET, '').trim();
    if (MAY_CONTAIN.test(h + ':')) return void (st.may = true);
    return void st.pendingHeaders.push(h);
  }
  // "Name: what it does." (no list after the colon) is marketing; "Shade: Sunset Glow" before a list is a header.
  const colon = !listed && seps === 0 && line.includes(':') ? /^([^,:()]{1,80}):\s+(.+)$/.exec(line) : null;
  if (colon && !MAY_CONTAIN.test(line)) {
    if (sentenceCase(colon[2]) || isProse(colon[2])) return void st.out.notes.push(line);
    if (nextIsList) return void st.pendingHeaders.push(line);
  }
  // A short line without separators right before a list, not continuing one, is a header ("Shade 238").
  if (
    !listed &&
    seps === 0 &&
    nextIsList &&
    line.length <= 60 &&
    !/[,;]$/.test(prev ?? '') &&
    !/[.,;]$/.test(line) &&
    !MAY_CONTAIN.test(line)
  ) {
    return void st.pendingHeaders.push(line);
  }
  return listText(line);
}

function openSection(st: State, header: string | null): LabelSection {
  const s: LabelSection = { header, entries: [] };
  st.out.sections.push(s);
  st.section = s;
  st.may = false;
  return s;
}

/** A list line made ready for splitList: markers that open a colour section or a second list become separators. */
function listText(line: string): string {
  // ". May contain" and ". +/-" go on the list in a new colour section.
  let text = line;
  if (text.includes('.'))
    text = text.replace(/\.(?=(\s+))\1(?=[[(]?\s*(may contain|peut contenir|\+\s*\/\s*-))/gi, ', '); // the spaces taken whole, once;
  if (text.includes(':'))
    text = text.replace(/(?:[.,;]\s*|(?<!\s)\s+|)\b(inactive(?: ingredients?)?|other ingredients?)\s*:\s*/gi, ', '); // a run of spaces tried once;
  if (text.includes('[')) text = text.replace(/(?<![,;(\s])\s*(?=\[\s*(\+\s*\/\s*-|±|may contain))/gi, ', ');
  return text;
}

function readPart(st: State, raw: string): void {
  let s = /[^\S ]|\s\s/.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw.trim();
  if (s === '') return;
  if (/[:-]/.test(s)) s = s.replace(LIST_PREFIX, '');
  // "[+/- CI 77891, CI 77491]": every entry inside is a may-contain entry; the section goes on after it.
  const bracket = s[0] === '[' ? /^\[\s*(may contain|\+\s*\/\s*-|±)\s*:?\s*([^\]]*)\]\s*\.?$/i.exec(s) : null;
  if (bracket) {
    const section = current(st);
    const may = st.may;
    st.may = true;
    for (const p of splitList(bracket[2])) readPart(st, p);
    st.may = may;
    st.section = section;
    return;
  }
  const m = /^[[(]?\s*[mpk+±]/i.test(s) ? MAY_CONTAIN.exec(s) : null;
  if (m && m[0].trim() !== '') {
    current(st);
    st.may = true;
    s = s.slice(m[0].length);
  } else {
    // "Capri Eau de Parfum: Alcohol Denat." — a header inside the list starts a new section
    // ("Rich Warm 51.5:Aqua": no space is needed before a capital).
    const colon = s.includes(':') ? /^([^:()]{1,80}?):(?:\s+|(?=\p{Lu}))(\S.*)$/u.exec(s) : null;
    if (colon) {
      if (isProse(colon[2]) || sentenceCase(colon[2])) return void st.out.notes.push(s);
      const [last, header] = gluedHeader(colon[1]);
      if (last !== '') readPart(st, last);
      st.pendingHeaders.push(header.replace(BULLET, '').trim());
      openSection(st, takeHeaders(st));
      s = colon[2];
    }
  }
  const name = cleanName(s);
  if (name === '') return;
  if (
    (CLAIM_HINT.test(name) && CLAIM_ENTRY.test(name)) ||
    (name.length > 40 && disclaimer(name) !== null) ||
    isProse(name) ||
    (name.length < 24 && NOTE_ONLY.test(name))
  )
    return void st.out.notes.push(name);
  current(st).entries.push({ label_name: name, concentration: concentrationOf(name), may_contain: st.may });
}

/** The section entries go to: a new one when headers are waiting. */
/**
 * A header glued to the previous list's last entry ("CI 15850/Red 7].D247442/7Rich Warm 51.5"):
 * [that entry, the header], split after the last full stop that closes a bracket or touches the
 * next word (not a decimal point or an abbreviation); ['', header] when there is none.
 */
function gluedHeader(text: string): [string, string] {
  for (let i = text.lastIndexOf('.'); i > 0; i = text.lastIndexOf('.', i - 1)) {
    const before = text[i - 1];
    const next = text[i + 1] ?? '';
    const closes = before === ']' || before === ')';
    const touches = /[\p{L}\p{N}]/u.test(next) && !(/\d/.test(before) && /\d/.test(next));
    if ((closes || touches) && !ABBREVIATION.test(text.slice(0, i + 1))) {
      const last = text.slice(0, i + 1).trim();
      const header = text.slice(i + 1).trim();
      if (header !== '' && /[\p{L}\p{N}]/u.test(last)) return [last, header];
    }
  }
  return ['', text];
}

function current(st: State): LabelSection {
  if (st.pendingHeaders.length > 0) return openSection(st, takeHeaders(st));
  return st.section ?? openSection(st, null);
}

function takeHeaders(st: State): string {
  const h = st.pendingHeaders.join(': ');
  st.pendingHeaders = [];
  return h;
}

/** An entry without bullets, footnote marks and closing full stop; '' when nothing printable is left. */
function cleanName(raw: string): string {
  let s = raw;
  if (!PLAIN_NAME.test(s)) {
    // Runs at the ends are cut by trimEnd/trimStart: a regex such as /[*]+$/ is tried at each mark of a run.
    s = trimEnd(trimStart(trimEnd(s.replace(BULLET, ''), MARKS), QUOTES), QUOTES).trim();
    if (s.endsWith('.') && !ABBREVIATION.test(s)) s = trimEnd(s, '.').trim();
    s = trimEnd(s, MARKS).trim();
    if (s.length > 1 && s.startsWith('(') && s.endsWith(')') && !twoGroups(s.slice(1, -1))) s = s.slice(1, -1).trim();
    if (s.startsWith('(') && !s.includes(')')) s = s.slice(1).trim();
    if (s.endsWith(')') && !s.includes('(')) s = s.slice(0, -1).trim();
    if (s.endsWith(']') && !s.includes('[')) s = s.slice(0, -1).trim();
  }
  return /[\p{L}\p{N}]/u.test(s) ? s : '';
}

/** Footnote marks cut from the end of a name. */
const MARKS = '*†‡¹²³⁺^~';
const QUOTES = `"'`;

/** s without the run of `chars` it ends with (s.replace(/[chars]+$/, '') in linear time). */
function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** s without the run of `chars` it starts with. */
function trimStart(s: string, chars: string): string {
  let start = 0;
  while (start < s.length && chars.includes(s[start])) start++;
  return start === 0 ? s : s.slice(start);
}

/** "A) x (B": a closing bracket, then printed text, then an opening one (the outer brackets of "(A) x (B)" are not one pair). */
function twoGroups(inner: string): boolean {
  const close = inner.indexOf(')');
  const open = inner.lastIndexOf('(');
  return close >= 0 && open > close && /\S/.test(inner.slice(close + 1, open));
}

/** The one percentage an entry states ("Niacinamide (10%)", "Zinc Oxide 20%"), or null. */
function concentrationOf(name: string): number | null {
  if (!name.includes('%')) return perGram(name);
  PERCENT.lastIndex = 0;
  const one = PERCENT.exec(name);
  if (one === null || PERCENT.exec(name) !== null) return null; // none, or two or more
  const v = Number(one[1].replace(',', '.'));
  return v > 0 && v <= 100 ? v : null;
}

/** An amount per gram printed with a name ("Octyl Salicylate 50mg/g"): the % w/w it is (5), when it prints one. */
function perGram(name: string): number | null {
  if (!name.includes('/')) return null;
  const all = name.match(MG_PER_G);
  if (all === null || all.length !== 1) return null;
  const v = Number(/\d+(?:[.,]\d+)?/.exec(all[0])?.[0].replace(',', '.')) / 10;
  return v > 0 && v <= 100 ? v : null;
}
const MG_PER_G = /(?<![\d.,])\d+(?:[.,]\d+)?\s*mg\s*\/\s*g\b/gi;
