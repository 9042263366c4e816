// Ranked word search over one or more weighted fields of one document kind.
// Guarantees: every query word must match (AND) a whole word of some field, the last
// word also as a prefix; total and per-word counts are exact; ranking is BM25-style
// (idf of each word × field weight, exact words above prefix matches, shorter
// documents first on ties of score), then ascending ord. Work per request: take the
// documents of the rarest word (a word of several lists is merged through a bitset, no
// sort), narrow them by the other words' sorted lists (short lists marked in a bitset
// and probed, a few long ones galloped through), and read each remaining candidate's
// few term ids (forward index) only for words whose match or quality is not yet known
// (a known last word that is a whole term reads it from its exact list), keeping only the
// best rows asked for while scoring (top-rows.ts). Every query's ranking is kept, up to
// the deepest page asked for, in an LRU of at most 4 MiB (the catalogue never changes),
// so a repeated query costs a lookup.
import type { TextIndex } from './text-index';
import { ResultCache, holds, rows } from './result-cache';
import { REACHABLE } from '../shared/paging';
import { TopRows } from './top-rows';

export interface Field {
  index: TextIndex;
  weight: number;
}

export interface SearchResult {
  /** The ords of the requested window, best first (a view of the kept ranking: read, never written). */
  ords: Int32Array;
  total: number;
  /** Per query word: documents it matches on its own. */
  wordCounts: number[];
}

const K1 = 1.2;
const B = 0.75;
const PREFIX_QUALITY = 0.5;
/** What the kept rankings may hold, in ords: 4 MiB (result-cache.ts). */
const CACHE_ORDS = 1 << 20;
/** Per-word document counts kept (several fields; a single field's TextIndex keeps its own). */
const COUNT_ENTRIES = 100_000;
/** A word whose documents are the union of more lists than this (and than MARK_FACTOR × the candidates) is checked in the forward index only. */
const NARROW_MAX_LISTS = 8;
/** Lists of at most this many times the candidates' documents are marked rather than galloped through. */
const MARK_FACTOR = 4;

/** How one query word matches in one field: its exact term id and its prefix range. */
interface FieldWord {
  exact: number;
  lo: number;
  hi: number;
}
/** A query's ranking up to some depth, as kept. */
interface Ranked {
  ords: Int32Array;
  total: number;
  wordCounts: number[];
}
const NONE = new Int32Array(0);

interface Word {
  text: string;
  last: boolean;
  fields: FieldWord[];
  count: number;
  idf: number;
}

export class Searcher {
  private readonly seen: Int32Array;
  /** One bit per document, all zero between calls. */
  private readonly bits: Uint32Array;
  private readonly lengthFactor: Float64Array;
  private readonly matchBuf: Int32Array;
  /** The best rows of the ranking being made. */
  private readonly top = new TopRows(REACHABLE);
  private gen = 1;
  /** Several fields: documents per word ('=' exact or '*' prefix, then the word), see distinctCount. */
  private readonly counts = new Map<string, number>();
  private readonly cache = new ResultCache<Ranked>(CACHE_ORDS);

  constructor(
    private readonly fields: Field[],
    readonly docCount: number,
  ) {
    this.seen = new Int32Array(docCount);
    this.bits = new Uint32Array((docCount + 31) >>> 5);
    this.matchBuf = new Int32Array(docCount);
    const { docStart } = fields[0].index;
    let sum = 0;
    for (let d = 0; d < docCount; d++) sum += docStart[d + 1] - docStart[d];
    const avg = docCount > 0 && sum > 0 ? sum / docCount : 1;
    this.lengthFactor = new Float64Array(docCount);
    for (let d = 0; d < docCount; d++) {
      this.lengthFactor[d] = (K1 + 1) / (1 + K1 * (1 - B + (B * (docStart[d + 1] - docStart[d])) / avg));
    }
  }

  /**
   * `boost(ord)`, when given, returns a key that ranks a document above every plain
   * score (used for "ingredient names starting with the query"); 0 means none.
   */
  search(texts: string[], skip: number, limit: number, boost?: (ord: number) => number): SearchResult {
    const key = texts.join(' ');
    let kept = this.cache.get(key);
    if (kept === undefined || !holds(kept, skip, limit))
      this.cache.set(key, (kept = this.rank(texts, skip + limit, boost)));
    return { ords: rows(kept, skip, limit), total: kept.total, wordCounts: kept.wordCounts };
  }

  /** The first `want` rows of the ranking, the total and the per-word counts. */
  private rank(texts: string[], want: number, boost?: (ord: number) => number): Ranked {
    const words = texts.map((t, i) => this.word(t, i === texts.length - 1));
    const wordCounts = words.map((w) => w.count);
    if (wordCounts.some((n) => n === 0)) return { ords: NONE, total: 0, wordCounts };

    let driver = 0;
    for (let i = 1; i < words.length; i++) if (words[i].count < words[driver].count) driver = i;
    // Narrow the driver's documents by the other words' sorted lists (rarest first), so
    // that the forward index is read only for documents that hold every word.
    let [src, n] = this.candidates(words[driver]);
    const known = words.map((_, i) => i === driver);
    const others = words.map((_, i) => i).filter((i) => i !== driver);
    for (const i of others.sort((a, b) => words[a].count - words[b].count)) {
      const w = words[i];
      const kept = this.narrow(
        src,
        n,
        this.fields.flatMap((f, j) => this.lists(f.index, w.text, w.fields[j], w.last)),
      );
      if (kept < 0) continue;
      [src, n, known[i]] = [this.matchBuf, kept, true];
    }
    this.top.reset(Math.min(want, REACHABLE));
    const m = this.match(src, words, n, known, boost);
    return { ords: this.top.rows(), total: m, wordCounts };
  }

  private word(text: string, last: boolean): Word {
    const fields = this.fields.map(({ index }) => {
      const exact = index.termId(text);
      const [lo, hi] = last ? index.prefixRange(text) : [0, 0];
      return { exact, lo, hi };
    });
    let count: number;
    if (this.fields.length === 1) count = this.fields[0].index.count(text, !last);
    else count = this.distinctCount(text, last, fields);
    const n = this.docCount;
    return { text, last, fields, count, idf: Math.log(1 + (n - count + 0.5) / (count + 0.5)) };
  }

  private lists(index: TextIndex, text: string, fw: FieldWord, last: boolean): Int32Array[] {
    if (last) return index.rangeLists(text, fw.lo, fw.hi);
    return fw.exact < 0 ? [] : [index.list(fw.exact)];
  }

  /**
   * The documents matching a word, ascending: its one list as it is, or the union of its
   * lists in matchBuf (set as bits, then read back in order: no sort).
   */
  private candidates(w: Word): [Int32Array, number] {
    const lists = this.fields.flatMap((f, i) => this.lists(f.index, w.text, w.fields[i], w.last));
    if (lists.length === 1) return [lists[0], lists[0].length];
    const { bits, matchBuf } = this;
    let lo = bits.length;
    let hi = -1;
    for (const list of lists) {
      if (list.length === 0) continue;
      for (let k = 0; k < list.length; k++) bits[list[k] >>> 5] |= 1 << (list[k] & 31);
      lo = Math.min(lo, list[0] >>> 5);
      hi = Math.max(hi, list[list.length - 1] >>> 5);
    }
    let m = 0;
    for (let i = lo; i <= hi; i++) {
      let word = bits[i];
      if (word === 0) continue;
      bits[i] = 0;
      for (; word !== 0; word &= word - 1) matchBuf[m++] = (i << 5) + 31 - Math.clz32(word & -word);
    }
    return [matchBuf, m];
  }

  /**
   * Keeps in matchBuf the candidates src[0..n) (ascending) found in any of the ascending
   * lists; returns how many remain. Lists short next to the candidates are marked and the
   * candidates probed; a few long lists are galloped through; many long lists are left to
   * the forward index (returns -1: matchBuf and the candidates are left as they are).
   */
  private narrow(src: Int32Array, n: number, lists: Int32Array[]): number {
    const buf = this.matchBuf;
    let total = 0;
    for (const l of lists) total += l.length;
    let m = 0;
    if (total <= MARK_FACTOR * n) {
      const bits = this.bits;
      for (const list of lists) for (let k = 0; k < list.length; k++) bits[list[k] >>> 5] |= 1 << (list[k] & 31);
      for (let c = 0; c < n; c++) {
        const d = src[c];
        if ((bits[d >>> 5] & (1 << (d & 31))) !== 0) buf[m++] = d;
      }
      bits.fill(0);
      return m;
    }
    if (lists.length > NARROW_MAX_LISTS) return -1;
    const at = lists.map(() => 0);
    for (let c = 0; c < n; c++) {
      const d = src[c];
      for (let j = 0; j < lists.length; j++) {
        const list = lists[j];
        const k = (at[j] = gallop(list, at[j], d));
        if (k < list.length && list[k] === d) {
          buf[m++] = d;
          break;
        }
      }
    }
    return m;
  }

  /**
   * Scores the candidates src[0..n) (ascending) that match every word, offering them to
   * `top`; returns how many match. `known[i]`: every candidate has word i (it was narrowed
   * by its lists), so in a single field its quality is the same for all, or, for a last
   * word that is a whole term and starts others, 1 for the documents of its exact list
   * (walked alongside the candidates) and a prefix match for the rest: its terms need not
   * be read.
   */
  private match(src: Int32Array, words: Word[], n: number, known: boolean[], boost?: (ord: number) => number): number {
    const { lengthFactor, fields, top } = this;
    const single = fields.length === 1;
    const fixed = words.map((w, i) => (known[i] && single ? this.fixedQuality(w) : 0));
    // Words whose quality is read from their exact list: the list and a cursor in it.
    const exact = words.map((w, i) =>
      known[i] && single && fixed[i] === 0 ? fields[0].index.list(w.fields[0].exact) : undefined,
    );
    const at = words.map(() => 0);
    const weight = fields[0].weight;
    const last = words.length - 1;
    if (fixed.every((q, i) => q > 0 || (i === last && exact[i] !== undefined)))
      return this.matchFixed(src, n, words, fixed, exact[last], boost);
    let m = 0;
    for (let c = 0; c < n; c++) {
      const d = src[c];
      let s = 0;
      let ok = true;
      for (let i = 0; i < words.length && ok; i++) {
        const w = words[i];
        let q = fixed[i];
        const list = exact[i];
        if (list !== undefined) {
          let k = at[i];
          while (k < list.length && list[k] < d) k++;
          at[i] = k;
          q = (k < list.length && list[k] === d ? 1 : PREFIX_QUALITY) * weight;
        }
        for (let f = 0; f < fields.length && q === 0; f++) {
          const { docStart, docTerms } = fields[f].index;
          const fw = w.fields[f];
          let fq = 0;
          for (let t = docStart[d], end = docStart[d + 1]; t < end; t++) {
            const id = docTerms[t];
            if (id === fw.exact) {
              fq = 1;
              break;
            }
            if (id >= fw.lo && id < fw.hi) fq = PREFIX_QUALITY;
          }
          const wq = fq * fields[f].weight;
          if (wq > q) q = wq;
        }
        if (q === 0) ok = false;
        else s += w.idf * q;
      }
      if (!ok) continue;
      top.offer(boost ? boost(d) || s * lengthFactor[d] : s * lengthFactor[d], d);
      m++;
    }
    return m;
  }

  /**
   * match() when every word's quality is the same for all candidates, but for a last word
   * read from its exact list (`lastExact`): every candidate matches, and its score is one
   * sum (added in word order, as match() adds it; two sums with the exact list: in it or
   * not) times its length factor.
   */
  private matchFixed(
    src: Int32Array,
    n: number,
    words: Word[],
    fixed: number[],
    lastExact: Int32Array | undefined,
    boost?: (ord: number) => number,
  ): number {
    const { lengthFactor, top } = this;
    const last = words.length - 1;
    let before = 0;
    for (let i = 0; i < last; i++) before += words[i].idf * fixed[i];
    const idf = words[last].idf;
    const weight = this.fields[0].weight;
    const sIn = lastExact === undefined ? before + idf * fixed[last] : before + idf * (1 * weight);
    const sOut = lastExact === undefined ? sIn : before + idf * (PREFIX_QUALITY * weight);
    const list = lastExact ?? NONE;
    let k = 0;
    for (let c = 0; c < n; c++) {
      const d = src[c];
      while (k < list.length && list[k] < d) k++;
      const s = k < list.length && list[k] === d ? sIn : sOut;
      top.offer(boost ? boost(d) || s * lengthFactor[d] : s * lengthFactor[d], d);
    }
    return n;
  }

  /**
   * The quality × weight of a word that every candidate has in the one field, when it is
   * the same for all: a word before the last matches exactly; a last word that is no
   * whole term matches as a prefix only, and one that starts no other term exactly.
   * 0 when it must be read from each candidate's terms.
   */
  private fixedQuality(w: Word): number {
    const { exact, lo, hi } = w.fields[0];
    const weight = this.fields[0].weight;
    if (!w.last || (exact >= 0 && hi - lo === 1)) return 1 * weight;
    return exact < 0 ? PREFIX_QUALITY * weight : 0;
  }

  /** Documents having the word in any field, memoised per word (the index never changes). */
  private distinctCount(text: string, last: boolean, fields: FieldWord[]): number {
    const key = (last ? '*' : '=') + text;
    let count = this.counts.get(key);
    if (count === undefined) {
      count = this.distinct(this.fields.flatMap((f, i) => this.lists(f.index, text, fields[i], last)));
      if (this.counts.size >= COUNT_ENTRIES) this.counts.clear();
      this.counts.set(key, count);
    }
    return count;
  }

  private distinct(lists: Int32Array[]): number {
    if (lists.length === 1) return lists[0].length;
    const g = this.nextGen();
    const seen = this.seen;
    let count = 0;
    for (const list of lists) {
      for (let k = 0; k < list.length; k++) {
        if (seen[list[k]] !== g) {
          seen[list[k]] = g;
          count++;
        }
      }
    }
    return count;
  }

  private nextGen(): number {
    if (this.gen >= 0x7ffffff0) {
      this.seen.fill(0);
      this.gen = 1;
    }
    return this.gen++;
  }
}

/** The first index at or after `from` whose value is at least `target` (exponential, then binary search). */
function gallop(list: Int32Array, from: number, target: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < list.length && list[hi] < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > list.length) hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
