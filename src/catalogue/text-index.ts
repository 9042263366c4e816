// In-memory word index over one field of one document kind (loaded from the
// catalogue's search_terms table). Guarantees: a word matches a document only as a
// whole word, except `prefix` which matches every word starting with it; results
// are the same as scanning every document with words() (tested against that).
// Short prefixes (1–2 characters), which extend to thousands of words, are merged
// into one posting list at load, so a query never walks thousands of lists.
import { decodePostings } from './format';

export class TextIndex {
  private readonly exact = new Map<string, Int32Array>();
  /** All terms, sorted, for prefix ranges. */
  private readonly sorted: string[];
  private readonly sortedLists: Int32Array[];

  constructor(rows: Iterable<{ term: string; postings: Buffer }>) {
    for (const r of rows) this.exact.set(r.term, decodePostings(r.postings));
    this.sorted = [...this.exact.keys()].sort();
    this.sortedLists = this.sorted.map((t) => this.exact.get(t)!);
    this.merged = mergeShortPrefixes(this.sorted, this.sortedLists);
  }

  private readonly merged: Map<string, Int32Array>;

  /** Documents holding exactly this word (ascending ords), or undefined. */
  word(term: string): Int32Array | undefined {
    return this.exact.get(term);
  }

  /** Posting lists of every word that starts with `prefix` but is longer than it. */
  extensions(prefix: string): Int32Array[] {
    if (prefix.length <= SHORT_PREFIX) {
      const m = this.merged.get(prefix);
      return m ? [m] : [];
    }
    const out: Int32Array[] = [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] <= prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && this.sorted[i].startsWith(prefix); i++) out.push(this.sortedLists[i]);
    return out;
  }

  /** Number of distinct words of each document, for length normalisation. */
  docLengths(docCount: number): Uint16Array {
    const len = new Uint16Array(docCount);
    for (const list of this.sortedLists) for (let i = 0; i < list.length; i++) len[list[i]]++;
    return len;
  }
}

const SHORT_PREFIX = 2;

/** For every prefix of 1..SHORT_PREFIX characters: the ascending, distinct union of the lists of the longer words starting with it. */
function mergeShortPrefixes(sorted: string[], lists: Int32Array[]): Map<string, Int32Array> {
  const parts = new Map<string, Int32Array[]>();
  sorted.forEach((term, i) => {
    for (let n = 1; n <= SHORT_PREFIX && n < term.length; n++) {
      const p = term.slice(0, n);
      const acc = parts.get(p);
      if (acc) acc.push(lists[i]);
      else parts.set(p, [lists[i]]);
    }
  });
  const out = new Map<string, Int32Array>();
  for (const [p, ls] of parts) {
    let total = 0;
    for (const l of ls) total += l.length;
    const all = new Int32Array(total);
    let at = 0;
    for (const l of ls) {
      all.set(l, at);
      at += l.length;
    }
    all.sort();
    let w = 0;
    for (let r = 0; r < all.length; r++) if (r === 0 || all[r] !== all[r - 1]) all[w++] = all[r];
    out.set(p, all.slice(0, w));
  }
  return out;
}
