// Fixed-size bitsets over document ords, for the filter operation. Guarantees: bits
// past `size` are always zero, so counts and iteration never see phantom documents.
export class Bitset {
  readonly words: Uint32Array;
  constructor(readonly size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
  }
  static fromList(size: number, ords: ArrayLike<number>): Bitset {
    const b = new Bitset(size);
    for (let i = 0; i < ords.length; i++) b.set(ords[i]);
    return b;
  }
  set(i: number): void {
    this.words[i >>> 5] |= 1 << (i & 31);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5] & (1 << (i & 31))) !== 0;
  }
  fill(): this {
    this.words.fill(0xffffffff);
    const tail = this.size & 31;
    if (tail) this.words[this.words.length - 1] = (1 << tail) - 1;
    return this;
  }
  copy(other: Bitset): this {
    this.words.set(other.words);
    return this;
  }
  and(other: Bitset): this {
    const a = this.words,
      b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= b[i];
    return this;
  }
  andNot(other: Bitset): this {
    const a = this.words,
      b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= ~b[i];
    return this;
  }
  /** and(), counting the bits left in the same pass (rather than a pass of count() after it). */
  andCount(other: Bitset): number {
    const a = this.words,
      b = other.words;
    let n = 0;
    for (let i = 0; i < a.length; i++) n += popcount((a[i] &= b[i]));
    return n;
  }
  /** andNot(), counting the bits left in the same pass. */
  andNotCount(other: Bitset): number {
    const a = this.words,
      b = other.words;
    let n = 0;
    for (let i = 0; i < a.length; i++) n += popcount((a[i] &= ~b[i]));
    return n;
  }
  /** Keeps only the listed ords (work in proportion to the list, plus two native passes). */
  andList(ords: ArrayLike<number>, scratch: Bitset): this {
    scratch.words.fill(0);
    for (let i = 0; i < ords.length; i++) if (this.has(ords[i])) scratch.set(ords[i]);
    return this.copy(scratch);
  }
  /** Clears the listed ords. */
  clearList(ords: ArrayLike<number>): this {
    const w = this.words;
    for (let i = 0; i < ords.length; i++) w[ords[i] >>> 5] &= ~(1 << (ords[i] & 31));
    return this;
  }
  count(): number {
    let n = 0;
    const w = this.words;
    for (let i = 0; i < w.length; i++) n += popcount(w[i]);
    return n;
  }
  /** The first `limit` set ords in ascending order. */
  head(limit: number): Int32Array {
    const out = new Int32Array(limit);
    let n = 0;
    const w = this.words;
    for (let i = 0; i < w.length && n < limit; i++) {
      for (let word = w[i]; word !== 0 && n < limit; word &= word - 1)
        out[n++] = (i << 5) + (31 - Math.clz32(word & -word));
    }
    return n === limit ? out : out.slice(0, n);
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
