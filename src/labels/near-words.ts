// Corrections of a misspelt word beyond the joiner's one-letter respelling, each a joiner
// step of its own: two letters away in a word of 8 letters or more (respelt_two:
// `Nyacinnamide`), one letter away in a word of 4–5 letters (respelt_short: `Alcohol Dena`),
// and the prefix mono- that INCI names leave out (mono_prefix: `Sorbitan Monostearate`).
// Guarantees: a name is corrected only when exactly one of its words is unknown (every other
// word is a word of the names as printed) and that word stands whole between spaces; the word
// is never dropped (no shorter record); the known words are given with their distance to it,
// the next distance too, so the joiner can ask for one nearest record and a margin to the
// second (LabelJoiner.nearRespelled). The work is bounded: only words of the right length,
// with the same first or last letter and near letters, are measured (a bounded edit distance
// with swapped neighbours, written here because it stops at the bound), and each unknown
// word's answer is remembered.
/** A kind of correction; each is the joiner step of the same name. */
export type NearKind = 'respelt_two' | 'respelt_short' | 'mono_prefix';

/** The words an unknown word may stand for: by distance, nearest first (distance 1 is index 0). */
export interface NearWord {
  kind: NearKind;
  /** Where the unknown word is in the key: key.slice(start, end). */
  start: number;
  end: number;
  /** Known words at distance 1, 2 and 3 (mono_prefix: the word without mono- at distance 1). */
  byDistance: string[][];
}

/** A long word is corrected by two letters (missing, extra, changed or swapped neighbours) from this length on. */
const LONG = 8;
/** A short word (one letter of slack): this long to SHORT_MAX. */
const SHORT_MIN = 4;
const SHORT_MAX = 5;
/** The prefix INCI names leave out (GLYCERYL STEARATE, printed Glyceryl Monostearate), before a known word of six letters or more. */
const MONO = 'MONO';
/** At most this many answers are remembered (a few MB). */
const MAX_REMEMBERED = 20_000;

export class NearWords<T> {
  private readonly keys: string[] = [];
  private readonly targets: T[] = [];
  private all: Set<string> | null = null;
  /** Known words by length and first letter, and by length and last letter (bucketOf): the words and their letter masks. */
  private buckets: Map<number, { words: string[]; masks: Int32Array }> | null = null;
  private readonly remembered = new Map<string, string[][]>();

  /** `weak`: a record that joins only as printed (a label-only record): its words are not known words. */
  constructor(private readonly weak: ReadonlySet<T>) {}

  addWords(key: string, target: T): void {
    this.keys.push(key);
    this.targets.push(target);
    this.all = null;
    this.buckets = null;
  }

  prepare(): void {
    this.known();
  }

  private known(): Set<string> {
    if (this.all !== null) return this.all;
    const all = new Set<string>();
    for (let i = 0; i < this.keys.length; i++) {
      if (this.weak.has(this.targets[i])) continue;
      for (const w of this.keys[i].split(/[^A-Z]+/)) if (w !== '') all.add(w);
    }
    const lists = new Map<number, string[]>();
    for (const w of all)
      for (const b of [bucketOf(w.length, w, 0), bucketOf(w.length, w, -1)]) {
        const l = lists.get(b);
        if (l === undefined) lists.set(b, [w]);
        else l.push(w);
      }
    this.buckets = new Map();
    for (const [b, words] of lists) this.buckets.set(b, { words, masks: Int32Array.from(words, maskOf) });
    this.remembered.clear();
    return (this.all = all);
  }

  /**
   * The one unknown word of an exact key that a correction may stand for, with the known
   * words near it; null when the key has no such word or more than one unknown word.
   */
  near(key: string): NearWord | null {
    const all = this.known();
    let start = -1;
    let end = -1;
    for (let i = 0; i < key.length;) {
      if (!letter(key.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < key.length && letter(key.charCodeAt(j))) j++;
      if (!all.has(key.slice(i, j))) {
        if (start >= 0) return null; // two unknown words: too little of the name is known
        start = i;
        end = j;
      }
      i = j;
    }
    // A whole word between spaces: not a syllable of a chemical name ("…)hexan-3-ol") nor a code ("ZQ1A2BX").
    if (start < 0 || (start > 0 && key[start - 1] !== ' ') || (end < key.length && key[end] !== ' ')) return null;
    const w = key.slice(start, end);
    const kind = kindOf(w, all);
    if (kind === null) return null;
    if (kind === 'mono_prefix') return { kind, start, end, byDistance: [[w.slice(MONO.length)], [], []] };
    let byDistance = this.remembered.get(w);
    if (byDistance === undefined) {
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      byDistance = this.measure(w, kind === 'respelt_two' ? 3 : 2);
      this.remembered.set(w, byDistance);
    }
    return byDistance.every((d) => d.length === 0) ? null : { kind, start, end, byDistance };
  }

  /**
   * The known words within `max` edits of w (optimal string alignment), by distance, among
   * those with w's first or last letter (a word misprinted at both ends is not corrected,
   * and such a word is not seen as a rival either): a few hundred words measured, not all.
   */
  private measure(w: string, max: number): string[][] {
    const out: string[][] = [[], [], []];
    const m = maskOf(w);
    const first = w.charCodeAt(0);
    const buckets = this.buckets as Map<number, { words: string[]; masks: Int32Array }>;
    for (let n = Math.max(1, w.length - max); n <= w.length + max; n++)
      for (const end of [0, -1] as const) {
        const list = buckets.get(bucketOf(n, w, end));
        if (list === undefined) continue;
        for (let i = 0; i < list.words.length; i++) {
          const k = list.words[i];
          // By its last letter: those with w's first letter were measured by their first.
          if (end < 0 && k.charCodeAt(0) === first) continue;
          // Each edit adds or removes at most two letters from the set of letters.
          if (bits(list.masks[i] ^ m) > 2 * max) continue;
          const d = distance(w, k, max);
          if (d >= 1 && d <= max) out[d - 1].push(k);
        }
      }
    return out;
  }
}

/** The correction a word may have, by its length (mono-: a known word after the prefix). */
function kindOf(w: string, all: Set<string>): NearKind | null {
  if (w.startsWith(MONO) && w.length - MONO.length >= 6 && all.has(w.slice(MONO.length))) return 'mono_prefix';
  if (w.length >= LONG) return 'respelt_two';
  if (w.length >= SHORT_MIN && w.length <= SHORT_MAX) return 'respelt_short';
  return null;
}

/** The bucket of words of length n whose first (end 0) or last (end -1) letter is w's. */
function bucketOf(n: number, w: string, end: 0 | -1): number {
  return n * 64 + (end === 0 ? w.charCodeAt(0) - 65 : 32 + w.charCodeAt(w.length - 1) - 65);
}

function letter(c: number): boolean {
  return c >= 65 && c <= 90;
}

function maskOf(w: string): number {
  let m = 0;
  for (let i = 0; i < w.length; i++) m |= 1 << (w.charCodeAt(i) - 65);
  return m;
}

function bits(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** The optimal string alignment distance of a and b (letters missing, extra, changed, neighbours swapped), or max + 1 when over max. */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let low = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < low) low = v;
    }
    if (low > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] > max ? max + 1 : prev[n];
}
