// Ranked word search over one or more weighted fields of one document kind.
// Guarantees: every query word must match (AND) a whole word of some field, the last
// word also as a prefix; total and per-word counts are exact; ranking is BM25-style
// (idf of each word × field weight, exact words above prefix matches, shorter
// documents first on ties of score), then ascending ord. Per-request work is linear
// in the posting lists touched; scratch arrays are reused, not allocated; queries with
// thousands of matches are ranked once and their reachable rows kept in a small LRU.
import type { TextIndex } from './text-index';

export interface Field { index: TextIndex; weight: number }

export interface SearchResult {
  /** The ords of the requested window, best first. */
  ords: number[];
  total: number;
  /** Per query word: documents it matches on its own. */
  wordCounts: number[];
}

const K1 = 1.2;
const B = 0.75;
const PREFIX_QUALITY = 0.5;
/** By default, queries matching at least this many documents have all their reachable rows ranked once and cached. */
export const CACHE_MIN_MATCHES = 5000;
const CACHE_ENTRIES = 1024;
const REACHABLE = 1020;

interface Lists { lists: Int32Array[]; weights: number[] }

export class Searcher {
  private readonly stamp: Int32Array;
  private readonly seen: Int32Array;
  private readonly cur: Float32Array;
  private readonly score: Float64Array;
  private readonly lengthFactor: Float64Array;
  private readonly matchBuf: Int32Array;
  private readonly vals: Float64Array;
  private gen = 1;
  /** Ranked rows of recent expensive queries (the catalogue never changes, so they stay exact). */
  private readonly cache = new Map<string, { ords: Int32Array; total: number; wordCounts: number[] }>();

  constructor(private readonly fields: Field[], readonly docCount: number, private readonly cacheMinMatches = CACHE_MIN_MATCHES) {
    this.stamp = new Int32Array(docCount);
    this.seen = new Int32Array(docCount);
    this.cur = new Float32Array(docCount);
    this.score = new Float64Array(docCount);
    this.matchBuf = new Int32Array(docCount);
    this.vals = new Float64Array(docCount);
    const len = fields[0].index.docLengths(docCount);
    let sum = 0;
    for (let i = 0; i < docCount; i++) sum += len[i];
    const avg = docCount > 0 && sum > 0 ? sum / docCount : 1;
    this.lengthFactor = new Float64Array(docCount);
    for (let i = 0; i < docCount; i++) this.lengthFactor[i] = (K1 + 1) / (1 + K1 * (1 - B + (B * len[i]) / avg));
  }

  /**
   * `boost(ord)`, when given, returns a key that ranks a document above every plain
   * score (used for "ingredient names starting with the query"); 0 means none.
   */
  search(words: string[], skip: number, limit: number, boost?: (ord: number) => number): SearchResult {
    const key = words.join(' ');
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, hit);
      return { ords: Array.from(hit.ords.subarray(skip, skip + limit)), total: hit.total, wordCounts: hit.wordCounts };
    }
    const perWord = words.map((w, i) => this.lists(w, i === words.length - 1));
    const wordCounts = perWord.map((l) => this.distinct(l.lists));
    if (wordCounts.some((n) => n === 0)) return { ords: [], total: 0, wordCounts };

    const order = wordCounts.map((_, i) => i).sort((a, b) => wordCounts[a] - wordCounts[b]);
    const base = this.nextGen(words.length + 2);
    const { stamp, cur, score } = this;
    const n = this.docCount;
    order.forEach((wi, j) => {
      const { lists, weights } = perWord[wi];
      const idf = Math.log(1 + (n - wordCounts[wi] + 0.5) / (wordCounts[wi] + 0.5));
      const want = base + j;
      const first = j === 0;
      for (let l = 0; l < lists.length; l++) {
        const list = lists[l], qw = weights[l];
        for (let k = 0; k < list.length; k++) {
          const d = list[k];
          if (first ? stamp[d] < want : stamp[d] === want) {
            stamp[d] = want + 1;
            cur[d] = qw;
            if (first) score[d] = 0;
          } else if (stamp[d] === want + 1 && cur[d] < qw) cur[d] = qw;
        }
      }
      for (let l = 0; l < lists.length; l++) {
        const list = lists[l];
        for (let k = 0; k < list.length; k++) {
          const d = list[k];
          if (stamp[d] === want + 1 && cur[d] !== 0) {
            score[d] += idf * cur[d];
            cur[d] = 0;
          }
        }
      }
    });

    // Collect the matches in ascending ord, with their final scores.
    const done = base + words.length;
    const m = this.collect(perWord[order[0]].lists, done);
    const { matchBuf } = this;
    for (let i = 0; i < m; i++) {
      const d = matchBuf[i];
      score[d] = boost ? boost(d) || score[d] * this.lengthFactor[d] : score[d] * this.lengthFactor[d];
    }
    if (m < this.cacheMinMatches) return { ords: this.window(m, skip, limit), total: m, wordCounts };
    // Expensive: rank every reachable row once and keep it for the other pages and repeats.
    const ranked = Int32Array.from(this.window(m, 0, REACHABLE));
    this.cache.set(key, { ords: ranked, total: m, wordCounts });
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return { ords: Array.from(ranked.subarray(skip, skip + limit)), total: m, wordCounts };
  }

  /** Writes the documents stamped `done` into matchBuf in ascending ord; returns how many. */
  private collect(lists: Int32Array[], done: number): number {
    const { stamp, matchBuf } = this;
    let m = 0;
    let postings = 0;
    for (const l of lists) postings += l.length;
    if (lists.length === 1 || postings > this.docCount >>> 3) {
      if (lists.length === 1) {
        for (const d of lists[0]) if (stamp[d] === done) matchBuf[m++] = d;
      } else {
        for (let d = 0; d < this.docCount; d++) if (stamp[d] === done) matchBuf[m++] = d;
      }
      return m;
    }
    for (const list of lists) {
      for (let k = 0; k < list.length; k++) {
        const d = list[k];
        if (stamp[d] === done) {
          stamp[d] = done + 1;
          matchBuf[m++] = d;
        }
      }
    }
    matchBuf.subarray(0, m).sort();
    return m;
  }

  /**
   * The window [skip, skip+limit) of matchBuf[0..m) (ascending ords) ordered by score
   * descending, then ord: a quickselect finds the cut-off score, so only the at most
   * skip+limit winners are sorted.
   */
  private window(m: number, skip: number, limit: number): number[] {
    const { matchBuf, score, vals } = this;
    const want = skip + limit;
    let cutoff = -Infinity;
    let above = 0;
    if (m > want) {
      for (let i = 0; i < m; i++) vals[i] = score[matchBuf[i]];
      cutoff = kthLargest(vals, m, want);
      for (let i = 0; i < m; i++) if (score[matchBuf[i]] > cutoff) above++;
    }
    const picked: number[] = [];
    let ties = want - above;
    for (let i = 0; i < m && picked.length < want; i++) {
      const d = matchBuf[i];
      const s = score[d];
      if (s > cutoff) picked.push(d);
      else if (s === cutoff && ties > 0) {
        picked.push(d);
        ties--;
      }
    }
    picked.sort((a, b) => score[b] - score[a]); // stable: equal scores stay in ord order
    return picked.slice(skip, want);
  }

  private lists(word: string, prefix: boolean): Lists {
    const lists: Int32Array[] = [];
    const weights: number[] = [];
    for (const f of this.fields) {
      const exact = f.index.word(word);
      if (exact) {
        lists.push(exact);
        weights.push(f.weight);
      }
      if (prefix) {
        for (const ext of f.index.extensions(word)) {
          lists.push(ext);
          weights.push(f.weight * PREFIX_QUALITY);
        }
      }
    }
    return { lists, weights };
  }

  private distinct(lists: Int32Array[]): number {
    if (lists.length === 1) return lists[0].length;
    const g = this.nextGen(1);
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

  private nextGen(span: number): number {
    if (this.gen > 0x7fffff00 - span) {
      this.stamp.fill(0);
      this.seen.fill(0);
      this.gen = 1;
    }
    const g = this.gen;
    this.gen += span;
    return g;
  }
}

/** The k-th largest of a[0..n) (1-based k <= n); reorders a. Iterative quickselect. */
function kthLargest(a: Float64Array, n: number, k: number): number {
  let lo = 0, hi = n - 1;
  const target = k - 1; // index in descending order
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // median of three as pivot
    const x = a[lo], y = a[mid], z = a[hi];
    const pivot = x > y ? (y > z ? y : x > z ? z : x) : (x > z ? x : y > z ? z : y);
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i] > pivot) i++;
      while (a[j] < pivot) j--;
      if (i <= j) {
        const t = a[i]; a[i] = a[j]; a[j] = t;
        i++; j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target];
  }
  return a[target];
}
