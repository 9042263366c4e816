// Many small pre-rendered JSON fragments (product summaries, ingredient search items) kept
// as UTF-8 bytes in one buffer and addressed by ord. Guarantees: no heap object per
// fragment; the buffer is sized exactly from the build's meta; a list response is one
// exact allocation into which each fragment is copied once.
export class Fragments {
  private readonly bytes: Buffer;
  private readonly ends: Uint32Array;
  private used = 0;
  private count = 0;

  /** For `count` fragments of `bytes` bytes in all, as the build recorded them. */
  constructor(count: number, bytes: number) {
    this.bytes = Buffer.allocUnsafe(bytes);
    this.ends = new Uint32Array(count);
  }

  /** Appends the fragment of the next ord. */
  push(text: string): void {
    if (this.count === this.ends.length || this.used + Buffer.byteLength(text) > this.bytes.length) {
      throw new Error('catalogue meta does not match its rows (fragment sizes)');
    }
    this.used += this.bytes.write(text, this.used);
    this.ends[this.count++] = this.used;
  }

  /** `{"results":[`, the fragments of `ords` comma-separated, then `rest` (the JSON after the array's ']', which is included). */
  results(ords: readonly number[], rest: string): Buffer {
    const { bytes, ends } = this;
    let size = RESULTS.length + Math.max(0, ords.length - 1) + Buffer.byteLength(rest);
    for (const o of ords) size += ends[o] - (o === 0 ? 0 : ends[o - 1]);
    const out = Buffer.allocUnsafe(size);
    let at = out.write(RESULTS, 0, 'latin1');
    ords.forEach((o, i) => {
      if (i > 0) out[at++] = 0x2c; // ,
      at += bytes.copy(out, at, o === 0 ? 0 : ends[o - 1], ends[o]);
    });
    out.write(rest, at);
    return out;
  }
}

const RESULTS = '{"results":[';
