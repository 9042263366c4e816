// The best rows of a ranking, kept while it is scored. Guarantees: after offering
// documents in ascending ord, rows() returns the best `want` of them by score descending,
// then ord ascending (the same as sorting them all and cutting), whatever their number;
// each offer is one comparison unless it beats the worst kept row (a bounded heap, no
// buffer per document).

export class TopRows {
  /** A min-heap of the kept rows: the worst kept (lowest score, then highest ord) at 0. */
  private readonly heapScore: Float64Array;
  private readonly heapOrd: Int32Array;
  private size = 0;
  private want = 0;

  constructor(capacity: number) {
    this.heapScore = new Float64Array(capacity);
    this.heapOrd = new Int32Array(capacity);
  }

  /** Starts a ranking keeping the best `want` (at most the capacity). */
  reset(want: number): void {
    this.size = 0;
    this.want = Math.min(want, this.heapOrd.length);
  }

  /**
   * Offers a document; ords must come in ascending order, so a later document with an
   * equal score ranks below every kept one.
   */
  offer(score: number, ord: number): void {
    if (this.size < this.want) this.push(score, ord);
    else if (this.want > 0 && score > this.heapScore[0]) this.sift(score, ord); // it replaces the worst kept
  }

  /** The kept rows, best first; ends the ranking. */
  rows(): Int32Array {
    const out = new Int32Array(this.size);
    for (let i = this.size - 1; i >= 0; i--) {
      out[i] = this.heapOrd[0];
      this.size--;
      if (this.size > 0) this.sift(this.heapScore[this.size], this.heapOrd[this.size]);
    }
    return out;
  }

  private push(score: number, ord: number): void {
    const { heapScore, heapOrd } = this;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >>> 1;
      if (!worse(score, ord, heapScore[p], heapOrd[p])) break;
      heapScore[i] = heapScore[p];
      heapOrd[i] = heapOrd[p];
      i = p;
    }
    heapScore[i] = score;
    heapOrd[i] = ord;
  }

  /** Puts (score, ord) at the root and sifts it down over heap[0..size). */
  private sift(score: number, ord: number): void {
    const { heapScore, heapOrd, size } = this;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && worse(heapScore[r], heapOrd[r], heapScore[l], heapOrd[l]) ? r : l;
      if (!worse(heapScore[c], heapOrd[c], score, ord)) break;
      heapScore[i] = heapScore[c];
      heapOrd[i] = heapOrd[c];
      i = c;
    }
    heapScore[i] = score;
    heapOrd[i] = ord;
  }
}

/** True when row a ranks below row b: a lower score, or the same score and a higher ord. */
function worse(sa: number, oa: number, sb: number, ob: number): boolean {
  return sa < sb || (sa === sb && oa > ob);
}
