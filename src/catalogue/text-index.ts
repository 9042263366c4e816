// In-memory word index over one field of one document kind (loaded from the
// catalogue's search_terms table). Guarantees: a word matches a document only as a
// whole word, and a prefix every word starting with it; results are the same as
// scanning every document with words() (tested against that). Terms are numbered in
// sorted order, so the words starting with a prefix are one range of term ids, and a
// forward index (document → its term ids) checks a candidate document in a few steps.
// The terms' lists are views of one buffer (no ArrayBuffer or allocation of their own).
import { decodePostingsInto } from './format';
import type { Steps } from '../shared/steps';

/** Postings read, placed or merged between two pauses of TextIndex.load. */
const POSTINGS_PER_STEP = 1 << 18;

/**
 * One field's terms as the catalogue stores them, read once by the index: each term and how
 * many documents it has, then the rows [term, postings] (ascending ords, 4 bytes each).
 */
export interface StoredTerms {
  counts: Array<[string, number]>;
  rows: () => Iterable<[string, Buffer]>;
}

/** What TextIndex.load makes: the terms, their lists, and the forward index. */
interface Loaded {
  terms: string[];
  lists: Int32Array[];
  ids: Map<string, number>;
  docStart: Int32Array;
  docTerms: Int32Array;
  shortUnions: Map<string, Int32Array>;
}

export class TextIndex {
  /** Terms in sorted order; a term's id is its index here. */
  private readonly terms: string[];
  private readonly lists: Int32Array[];
  private readonly ids: Map<string, number>;
  /** Forward index: the term ids of document d are docTerms[docStart[d] .. docStart[d+1]). */
  readonly docStart: Int32Array;
  readonly docTerms: Int32Array;
  /** Distinct documents per prefix, memoised (the index never changes). */
  private readonly counts = new Map<string, number>();
  /** Scratch bits for count(), one per document, all zero between calls (made on first use). */
  private marks: Uint32Array | undefined;
  /** For prefixes of 1–2 characters: every document having a word with that prefix, merged once at load. */
  private readonly shortUnions: Map<string, Int32Array>;

  private constructor(l: Loaded) {
    ({ terms: this.terms, lists: this.lists, ids: this.ids, shortUnions: this.shortUnions } = l);
    ({ docStart: this.docStart, docTerms: this.docTerms } = l);
  }

  /** The index of `docCount` documents, pausing (yield) after every few hundred thousand postings read, placed or merged. */
  static *load(stored: StoredTerms, docCount: number): Steps<TextIndex> {
    const counts = [...stored.counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const terms = counts.map((x) => x[0]);
    // Every list is a view of one buffer: no ArrayBuffer object and no allocation per term
    // (19,620 terms of product names: 2.9 MiB less heap, docs/performance.md), and each row's
    // postings are decoded into its view as read (no row kept until all are read).
    const flat = new Int32Array(counts.reduce((n, x) => n + x[1], 0));
    let at = 0;
    const lists = counts.map((x) => flat.subarray(at, (at += x[1])));
    const ids = new Map<string, number>();
    terms.forEach((t, i) => ids.set(t, i));
    yield;
    const pace = new Pace();
    for (const [term, postings] of stored.rows()) {
      const list = lists[ids.get(term)!];
      decodePostingsInto(postings, list);
      if (pace.done(list.length)) yield;
    }
    const { docStart, docTerms } = yield* forwardIndex(lists, docCount, pace);
    const shortUnions = yield* mergeShortPrefixes(terms, lists, docCount, pace);
    return new TextIndex({ terms, lists, ids, docStart, docTerms, shortUnions });
  }

  /** Term id of a whole word, or -1. */
  termId(word: string): number {
    return this.ids.get(word) ?? -1;
  }

  /** [lo, hi): the ids of every term starting with `prefix` (the word itself included). */
  prefixRange(prefix: string): [number, number] {
    let lo = 0,
      hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < this.terms.length && this.terms[end].startsWith(prefix)) end++;
    return [lo, end];
  }

  /** Posting lists covering the documents of a term-id range (a single merged list for short prefixes). */
  rangeLists(prefix: string, lo: number, hi: number): Int32Array[] {
    const merged = this.shortUnions.get(prefix);
    return merged ? [merged] : this.lists.slice(lo, hi);
  }

  list(id: number): Int32Array {
    return this.lists[id];
  }

  /** Distinct documents having a word with this prefix (or this exact word when `exact`). */
  count(word: string, exact: boolean): number {
    if (exact) {
      const id = this.termId(word);
      return id < 0 ? 0 : this.lists[id].length;
    }
    const known = this.counts.get(word);
    if (known !== undefined) return known;
    const [lo, hi] = this.prefixRange(word);
    const lists = this.rangeLists(word, lo, hi);
    let n = 0;
    if (lists.length === 1) n = lists[0].length;
    else if (lists.length > 1) {
      // Mark each document once in a bitset, counting the first marks; then clear the marks.
      const bits = (this.marks ??= new Uint32Array((this.docStart.length + 31) >>> 5));
      for (const l of lists)
        for (let k = 0; k < l.length; k++) {
          const d = l[k];
          const bit = 1 << (d & 31);
          if ((bits[d >>> 5] & bit) === 0) {
            bits[d >>> 5] |= bit;
            n++;
          }
        }
      for (const l of lists) for (let k = 0; k < l.length; k++) bits[l[k] >>> 5] = 0;
    }
    if (this.counts.size > 100_000) this.counts.clear();
    this.counts.set(word, n);
    return n;
  }
}

/** The forward index: the term ids of document d are docTerms[docStart[d] .. docStart[d+1]). */
function* forwardIndex(
  lists: Int32Array[],
  docCount: number,
  pace: Pace,
): Steps<{ docStart: Int32Array; docTerms: Int32Array }> {
  const docStart = new Int32Array(docCount + 1);
  for (const list of lists) for (let k = 0; k < list.length; k++) docStart[list[k] + 1]++;
  for (let d = 0; d < docCount; d++) docStart[d + 1] += docStart[d];
  yield;
  const docTerms = new Int32Array(docStart[docCount]);
  const fill = docStart.slice(0, docCount);
  for (let id = 0; id < lists.length; id++) {
    const list = lists[id];
    for (let k = 0; k < list.length; k++) docTerms[fill[list[k]]++] = id;
    if (pace.done(list.length)) yield;
  }
  return { docStart, docTerms };
}

/**
 * For each prefix of 1–2 characters that begins several terms: every document of those terms,
 * once, in ascending order (marked in a bitset of the documents, then read out: linear in the
 * postings, where sorting them all took up to 0.1 s for one prefix).
 */
function* mergeShortPrefixes(
  terms: string[],
  lists: Int32Array[],
  docCount: number,
  pace: Pace,
): Steps<Map<string, Int32Array>> {
  const byPrefix = new Map<string, [number, number]>();
  for (let i = 0; i < terms.length; i++) {
    for (let n = 1; n <= 2 && n <= terms[i].length; n++) {
      const p = terms[i].slice(0, n);
      const r = byPrefix.get(p);
      if (r) r[1] = i + 1;
      else byPrefix.set(p, [i, i + 1]);
    }
  }
  yield;
  const unions = new Map<string, Int32Array>();
  const bits = new Uint32Array((docCount + 31) >>> 5);
  const out = new Int32Array(docCount);
  for (const [p, [lo, hi]] of byPrefix) {
    if (hi - lo < 2) continue;
    let total = 0;
    for (let i = lo; i < hi; i++) {
      const list = lists[i];
      for (let k = 0; k < list.length; k++) bits[list[k] >>> 5] |= 1 << (list[k] & 31);
      total += list.length;
    }
    let n = 0;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w];
      if (word === 0) continue;
      bits[w] = 0;
      while (word !== 0) {
        const low = word & -word;
        out[n++] = (w << 5) | (31 - Math.clz32(low));
        word ^= low;
      }
    }
    unions.set(p, out.slice(0, n));
    if (pace.done(total + bits.length)) yield;
  }
  return unions;
}

/** Counts work done since the last pause: done() says when a step's worth (POSTINGS_PER_STEP) is done. */
class Pace {
  private work = 0;

  done(postings: number): boolean {
    this.work += postings;
    if (this.work < POSTINGS_PER_STEP) return false;
    this.work = 0;
    return true;
  }
}
