// In-memory word index over one field of one document kind (loaded from the
// catalogue's search_terms table). Guarantees: a word matches a document only as a
// whole word, and a prefix every word starting with it; results are the same as
// scanning every document with words() (tested against that). Terms are numbered in
// sorted order, so the words starting with a prefix are one range of term ids, and a
// forward index (document → its term ids) checks a candidate document in a few steps.
// The terms' lists are views of one buffer (no ArrayBuffer or allocation of their own).
import { decodePostingsInto } from './format';

/**
 * One field's terms as the catalogue stores them, read once by the index: each term and how
 * many documents it has, then the rows [term, postings] (ascending ords, 4 bytes each).
 */
export interface StoredTerms {
  counts: Array<[string, number]>;
  rows: () => Iterable<[string, Buffer]>;
}

export class TextIndex {
  /** Terms in sorted order; a term's id is its index here. */
  private readonly terms: string[];
  private readonly lists: Int32Array[];
  private readonly ids = new Map<string, number>();
  /** Forward index: the term ids of document d are docTerms[docStart[d] .. docStart[d+1]). */
  readonly docStart: Int32Array;
  readonly docTerms: Int32Array;
  /** Distinct documents per prefix, memoised (the index never changes). */
  private readonly counts = new Map<string, number>();
  /** Scratch bits for count(), one per document, all zero between calls (made on first use). */
  private marks: Uint32Array | undefined;
  /** For prefixes of 1–2 characters: every document having a word with that prefix, merged once at load. */
  private readonly shortUnions = new Map<string, Int32Array>();

  constructor(stored: StoredTerms, docCount: number) {
    const counts = [...stored.counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.terms = counts.map((x) => x[0]);
    // Every list is a view of one buffer: no ArrayBuffer object and no allocation per term
    // (19,620 terms of product names: 2.9 MiB less heap, docs/performance.md), and each row's
    // postings are decoded into its view as read (no row kept until all are read).
    const flat = new Int32Array(counts.reduce((n, x) => n + x[1], 0));
    let at = 0;
    this.lists = counts.map((x) => flat.subarray(at, (at += x[1])));
    this.terms.forEach((t, i) => this.ids.set(t, i));
    for (const [term, postings] of stored.rows()) decodePostingsInto(postings, this.lists[this.ids.get(term)!]);

    this.docStart = new Int32Array(docCount + 1);
    for (const list of this.lists) for (let k = 0; k < list.length; k++) this.docStart[list[k] + 1]++;
    for (let d = 0; d < docCount; d++) this.docStart[d + 1] += this.docStart[d];
    this.docTerms = new Int32Array(this.docStart[docCount]);
    const fill = this.docStart.slice(0, docCount);
    this.lists.forEach((list, id) => {
      for (let k = 0; k < list.length; k++) this.docTerms[fill[list[k]]++] = id;
    });
    this.mergeShortPrefixes();
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

  private mergeShortPrefixes(): void {
    const byPrefix = new Map<string, [number, number]>();
    for (let i = 0; i < this.terms.length; i++) {
      for (let n = 1; n <= 2 && n <= this.terms[i].length; n++) {
        const p = this.terms[i].slice(0, n);
        const r = byPrefix.get(p);
        if (r) r[1] = i + 1;
        else byPrefix.set(p, [i, i + 1]);
      }
    }
    for (const [p, [lo, hi]] of byPrefix) {
      if (hi - lo < 2) continue;
      let total = 0;
      for (let i = lo; i < hi; i++) total += this.lists[i].length;
      const all = new Int32Array(total);
      let at = 0;
      for (let i = lo; i < hi; i++) {
        all.set(this.lists[i], at);
        at += this.lists[i].length;
      }
      all.sort();
      let w = 0;
      for (let r = 0; r < all.length; r++) if (r === 0 || all[r] !== all[r - 1]) all[w++] = all[r];
      this.shortUnions.set(p, all.slice(0, w));
    }
  }
}
