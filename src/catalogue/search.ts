// Ranked word search over one or more weighted fields of one document kind.
// Guarantees: every query word must match (AND) a whole word of some field, the last
// word also as a prefix; total and per-word counts are exact; ranking is BM25-style
// (idf of each word × field weight, exact words above prefix matches, shorter
// documents first on ties of score), then ascending ord. Per-request work is linear
// in the posting lists touched; scratch arrays are reused, not allocated.
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

interface Lists { lists: Int32Array[]; weights: number[] }

export class Searcher {
  private readonly stamp: Int32Array;
  private readonly seen: Int32Array;
  private readonly cur: Float32Array;
  private readonly score: Float64Array;
  private readonly lengthFactor: Float64Array;
  private gen = 1;

  constructor(private readonly fields: Field[], readonly docCount: number) {
    this.stamp = new Int32Array(docCount);
    this.seen = new Int32Array(docCount);
    this.cur = new Float32Array(docCount);
    this.score = new Float64Array(docCount);
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

    // Collect matches from the first (smallest) word's lists.
    const done = base + words.length;
    const matches: number[] = [];
    for (const list of perWord[order[0]].lists) {
      for (let k = 0; k < list.length; k++) {
        const d = list[k];
        if (stamp[d] === done) {
          stamp[d] = done + 1;
          matches.push(d);
          score[d] = boost ? boost(d) || score[d] * this.lengthFactor[d] : score[d] * this.lengthFactor[d];
        }
      }
    }
    return { ords: topK(matches, score, skip, limit), total: matches.length, wordCounts };
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

/** The window [skip, skip+limit) of `docs` ordered by score descending, then ord ascending. */
function topK(docs: number[], score: Float64Array, skip: number, limit: number): number[] {
  const better = (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && a < b);
  const want = skip + limit;
  if (docs.length <= want * 4) {
    docs.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    return docs.slice(skip, want);
  }
  // Keep the best `want` in a heap whose root is the worst kept.
  const heap: number[] = [];
  const worse = (a: number, b: number) => better(b, a);
  for (const d of docs) {
    if (heap.length < want) {
      heap.push(d);
      siftUp(heap, heap.length - 1, worse);
    } else if (better(d, heap[0])) {
      heap[0] = d;
      siftDown(heap, 0, worse);
    }
  }
  heap.sort((a, b) => (better(a, b) ? -1 : 1));
  return heap.slice(skip, want);
}

function siftUp(h: number[], i: number, worse: (a: number, b: number) => boolean): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!worse(h[i], h[p])) break;
    [h[i], h[p]] = [h[p], h[i]];
    i = p;
  }
}

function siftDown(h: number[], i: number, worse: (a: number, b: number) => boolean): void {
  for (;;) {
    const l = 2 * i + 1, r = l + 1;
    let m = i;
    if (l < h.length && worse(h[l], h[m])) m = l;
    if (r < h.length && worse(h[r], h[m])) m = r;
    if (m === i) return;
    [h[i], h[m]] = [h[m], h[i]];
    i = m;
  }
}
