// Many small pre-rendered JSON fragments (product summaries, ingredient search items) kept
// as UTF-8 bytes in one buffer and addressed by ord. Guarantees: no heap object per
// fragment; the buffer is sized exactly from the build's meta; a list response is one
// exact allocation into which each fragment is copied once.
export class Fragments {
  private readonly bytes: Buffer;
  private readonly ends: Uint32Array;
  private used = 0;
  private count = 0;
  /** The sum of the bytes results() touched ahead of copying (kept so that the loads are not dropped as unused). */
  touched = 0;

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
  results(ords: ArrayLike<number>, rest: string): Buffer {
    const { bytes, ends } = this;
    const n = ords.length;
    let size = RESULTS.length + Math.max(0, n - 1) + Buffer.byteLength(rest);
    // A page's fragments lie anywhere in tens of MB: load a byte of each of their cache
    // lines first. These loads do not wait on each other, so their misses overlap, and the
    // copies below find the bytes in cache (a copy waiting on its own misses cost 2-3 times
    // as much, measured in process).
    let touched = 0;
    for (let i = 0; i < n; i++) {
      const o = ords[i];
      const end = ends[o];
      const start = o === 0 ? 0 : ends[o - 1];
      size += end - start;
      for (let b = start; b < end; b += 64) touched += bytes[b];
      touched += bytes[end - 1];
    }
    this.touched = touched;
    const out = Buffer.allocUnsafe(size);
    let at = out.write(RESULTS, 0, 'latin1');
    for (let i = 0; i < n; i++) {
      const o = ords[i];
      if (i > 0) out[at++] = 0x2c; // ,
      at += bytes.copy(out, at, o === 0 ? 0 : ends[o - 1], ends[o]);
    }
    out.write(rest, at);
    return out;
  }
}

const RESULTS = '{"results":[';
