// Uuid → ord, in memory (the product ids, and the ingredient ids): each uuid as four 32-bit
// words in one sorted array (16 bytes an id, no string or object per id), and where each
// value of an id's first 16 bits begins in it (256 KiB). Guarantees: a lookup is a binary
// search among the ids that share the first 16 bits (a handful: random uuids) that
// allocates nothing and ignores letter case (no lower-cased copy of the id is made); any
// string that is not a catalogue id — including one that is not a uuid — gives -1. Against
// a Map of the id strings (30,000 ingredients), this saves hashing a fresh string and a
// probe of a large table with string compares: about 1 µs a request in the server.
import type { Steps } from '../shared/steps';

/** Ids are bucketed by their first BUCKET_BITS bits. */
const BUCKET_BITS = 16;

export class UuidOrds {
  /** Ids whose first bits are b: entries [starts[b], starts[b + 1]). */
  private readonly starts = new Uint32Array(2 ** BUCKET_BITS + 1);
  private readonly scratch = new Uint32Array(4);

  private constructor(
    private readonly keys: Uint32Array,
    private readonly ords: Int32Array,
  ) {
    const count = ords.length;
    for (let j = 0; j < count; j++) this.starts[(keys[j * 4] >>> (32 - BUCKET_BITS)) + 1]++;
    for (let b = 1; b < this.starts.length; b++) this.starts[b] += this.starts[b - 1];
  }

  /** `sorted`: every lower-case id with its ord, in ascending id order; pauses (yield) after every `every` ids. */
  static *load(count: number, sorted: Iterable<[string, number]>, every: number): Steps<UuidOrds> {
    const keys = new Uint32Array(count * 4);
    const ords = new Int32Array(count);
    const key = new Uint32Array(4);
    let i = 0;
    for (const [id, ord] of sorted) {
      if (i === count || !parseUuid(id, key, false))
        throw new Error(`id ${JSON.stringify(id)} is not a lower-case uuid`);
      keys.set(key, i * 4);
      if (i > 0 && compare(keys, i - 1, key) >= 0) throw new Error('ids are not unique and in ascending order');
      ords[i++] = ord;
      if (i % every === 0) yield;
    }
    if (i !== count) throw new Error(`expected ${count} ids, found ${i}`);
    return new UuidOrds(keys, ords);
  }

  /** The ord of a uuid (either letter case), or -1. */
  ord(id: string): number {
    const key = this.scratch;
    if (!parseUuid(id, key, true)) return -1;
    const bucket = key[0] >>> (32 - BUCKET_BITS);
    let lo = this.starts[bucket];
    let hi = this.starts[bucket + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = compare(this.keys, mid, key);
      if (c === 0) return this.ords[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** Compares entry `i` of `keys` with `key`: negative, zero or positive. */
function compare(keys: Uint32Array, i: number, key: Uint32Array): number {
  const at = i * 4;
  for (let w = 0; w < 4; w++) {
    const a = keys[at + w];
    const b = key[w];
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/**
 * Reads an 8-4-4-4-12 uuid into four words (most significant first); false if it is not one
 * (with `anyCase` false, also if it holds an upper-case letter).
 */
export function parseUuid(id: string, out: Uint32Array, anyCase: boolean): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false; // -
      continue;
    }
    const v =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : anyCase && c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (v < 0) return false;
    word = word * 16 + v; // exact: at most 8 digits a word
    if (++digits % 8 === 0) {
      out[digits / 8 - 1] = word;
      word = 0;
    }
  }
  return true;
}
