// Many small pre-rendered JSON fragments (product summaries, ingredient search items) kept
// as UTF-8 bytes in one growing buffer and addressed by ord. Guarantees: no heap object per
// fragment; a list response is one exact allocation into which each fragment is copied once.
export class Fragments {
  private bytes: Buffer;
  private ends: Uint32Array;
  private used = 0;
  private count = 0;

  /** Sized for `count` fragments of `bytes` bytes in all (it grows past them if need be). */
  constructor(count: number, bytes: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(bytes, 64));
    this.ends = new Uint32Array(Math.max(count, 16));
  }

  get length(): number {
    return this.count;
  }

  /** Appends the fragment of the next ord. */
  push(text: string): void {
    const need = this.used + Buffer.byteLength(text);
    if (need > this.bytes.length) this.bytes = grow(this.bytes, need, this.used);
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.used += this.bytes.write(text, this.used);
    this.ends[this.count++] = this.used;
  }

  /** Returns the buffers' unused capacity (if any) once every fragment is in. */
  seal(): this {
    if (this.used < this.bytes.length) this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    if (this.count < this.ends.length) this.ends = this.ends.slice(0, this.count);
    return this;
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

function grow(bytes: Buffer, need: number, used: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(need, bytes.length * 2));
  bytes.copy(next, 0, 0, used);
  return next;
}
