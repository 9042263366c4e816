// In-memory word index over one field of one document kind (loaded from the
// catalogue's search_terms table). Guarantees: a word matches a document only as a
// whole word, except `prefix` which matches every word starting with it; results
// are the same as scanning every document with words() (tested against that).
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
  }

  /** Documents holding exactly this word (ascending ords), or undefined. */
  word(term: string): Int32Array | undefined {
    return this.exact.get(term);
  }

  /** Posting lists of every word that starts with `prefix` but is longer than it. */
  extensions(prefix: string): Int32Array[] {
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
