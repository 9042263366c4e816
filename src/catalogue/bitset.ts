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
  clear(i: number): void {
    this.words[i >>> 5] &= ~(1 << (i & 31));
  }
}
