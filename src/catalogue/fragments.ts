// Many small pre-rendered JSON fragments (product summaries, ingredient search items) kept
// as UTF-8 bytes in one buffer and addressed by ord. Guarantees: no heap object per
// fragment; the buffer is sized exactly from the build's meta; a list response is one
// exact allocation into which each fragment is copied once. With `idFirst` (product
// summaries, which all begin `{"id":"<lower-case uuid>",`), a fragment's id is kept as its
// 16 bytes and written back as the same 36 characters: 29 bytes less a fragment (5.5 MiB
// at 200,000 products), the bytes answered unchanged.
import { parseUuid } from './uuid-ords';

export class Fragments {
  private readonly bytes: Buffer;
  private readonly ends: Uint32Array;
  private used = 0;
  private count = 0;
  /** Bytes a fragment's answer has beyond what is kept of it: ID_SAVED with idFirst, else 0. */
  private readonly extra: number;
  /** The sum of the bytes results() touched ahead of copying (kept so that the loads are not dropped as unused). */
  touched = 0;

  /** For `count` fragments of `bytes` bytes in all, as the build recorded them. */
  constructor(count: number, bytes: number, idFirst = false) {
    this.extra = idFirst ? ID_SAVED : 0;
    this.bytes = Buffer.allocUnsafe(Math.max(0, bytes - count * this.extra));
    this.ends = new Uint32Array(count);
  }

  /** Appends the fragment of the next ord. */
  push(text: string): void {
    const size = Buffer.byteLength(text) - this.extra;
    if (this.count === this.ends.length || size < 0 || this.used + size > this.bytes.length) {
      throw new Error('catalogue meta does not match its rows (fragment sizes)');
    }
    if (this.extra === 0) this.used += this.bytes.write(text, this.used);
    else {
      if (!packId(text, this.bytes, this.used)) throw new Error('catalogue row does not begin with its id (summary)');
      this.used += ID_BYTES;
      this.used += this.bytes.write(text.slice(ID_HEAD_CHARS), this.used);
    }
    this.ends[this.count++] = this.used;
  }

  /** `{"results":[`, the fragments of `ords` comma-separated, then `rest` (the JSON after the array's ']', which is included). */
  results(ords: ArrayLike<number>, rest: string): Buffer {
    const { bytes, ends, extra } = this;
    const n = ords.length;
    let size = RESULTS.length + Math.max(0, n - 1) + Buffer.byteLength(rest) + n * extra;
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
      let start = o === 0 ? 0 : ends[o - 1];
      if (extra !== 0) {
        at = unpackId(bytes, start, out, at);
        start += ID_BYTES;
      }
      at += bytes.copy(out, at, start, ends[o]);
    }
    out.write(rest, at);
    return out;
  }
}

const RESULTS = '{"results":[';

/** What an idFirst fragment begins with: `{"id":"`, 36 characters of uuid, then `",`. */
const ID_OPEN = '{"id":"';
const ID_HEAD_CHARS = ID_OPEN.length + 36 + 2;
/** The id as kept: its 16 bytes. */
const ID_BYTES = 16;
const ID_SAVED = ID_HEAD_CHARS - ID_BYTES;
/** Each byte's two lower-case hex digits, as char codes (high digit in the high byte). */
const HEX = new Uint16Array(256).map(
  (_, b) => ('0123456789abcdef'.charCodeAt(b >>> 4) << 8) | '0123456789abcdef'.charCodeAt(b & 15),
);

/** Writes the 16 bytes of the lower-case uuid `text` begins with (after ID_OPEN, then `",`) at `at`; false when it does not begin so. */
function packId(text: string, out: Buffer, at: number): boolean {
  if (!text.startsWith(ID_OPEN) || !text.startsWith('",', ID_HEAD_CHARS - 2)) return false;
  if (!parseUuid(text.slice(ID_OPEN.length, ID_HEAD_CHARS - 2), idWords, false)) return false;
  for (let w = 0; w < 4; w++) out.writeUInt32BE(idWords[w], at + w * 4);
  return true;
}
const idWords = new Uint32Array(4);

/** Writes `{"id":"<uuid>",` for the 16 bytes at `from` in `bytes` into `out` at `at`; the offset after it. */
function unpackId(bytes: Buffer, from: number, out: Buffer, at: number): number {
  out[at++] = 0x7b; // {
  out[at++] = 0x22; // "
  out[at++] = 0x69; // i
  out[at++] = 0x64; // d
  out[at++] = 0x22; // "
  out[at++] = 0x3a; // :
  out[at++] = 0x22; // "
  at = hex(bytes, from, 4, out, at);
  out[at++] = 0x2d; // -
  at = hex(bytes, from + 4, 2, out, at);
  out[at++] = 0x2d;
  at = hex(bytes, from + 6, 2, out, at);
  out[at++] = 0x2d;
  at = hex(bytes, from + 8, 2, out, at);
  out[at++] = 0x2d;
  at = hex(bytes, from + 10, 6, out, at);
  out[at++] = 0x22; // "
  out[at++] = 0x2c; // ,
  return at;
}

/** Writes the `n` bytes at `from` as lower-case hex; the offset after them. */
function hex(bytes: Buffer, from: number, n: number, out: Buffer, at: number): number {
  for (let b = from; b < from + n; b++) {
    const h = HEX[bytes[b]];
    out[at] = h >>> 8;
    out[at + 1] = h & 0xff;
    at += 2;
  }
  return at;
}
