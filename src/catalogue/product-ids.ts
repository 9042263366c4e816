// Product id → ord, in memory: each uuid as four 32-bit words in one sorted array
// (16 bytes a product, no string or object per product), and where each value of an id's
// first 16 bits begins in it (256 KiB). Guarantees: a lookup is a binary search among the
// ids that share the first 16 bits (a handful: random uuids) that allocates nothing; any
// string that is not a catalogue id — including one that is not a lower-case uuid — gives -1.

/** Ids are bucketed by their first BUCKET_BITS bits. */
const BUCKET_BITS = 16;

export class ProductIds {
  private readonly keys: Uint32Array;
  private readonly ords: Int32Array;
  /** Ids whose first bits are b: entries [starts[b], starts[b + 1]). */
  private readonly starts = new Uint32Array(2 ** BUCKET_BITS + 1);
  private readonly scratch = new Uint32Array(4);

  /** `sorted`: every product's lower-case id with its ord, in ascending id order. */
  constructor(count: number, sorted: Iterable<[string, number]>) {
    this.keys = new Uint32Array(count * 4);
    this.ords = new Int32Array(count);
    let i = 0;
    for (const [id, ord] of sorted) {
      if (i === count || !parse(id, this.scratch))
        throw new Error(`product id ${JSON.stringify(id)} is not a lower-case uuid`);
      this.keys.set(this.scratch, i * 4);
      if (i > 0 && compare(this.keys, i - 1, this.scratch) >= 0)
        throw new Error('product ids are not unique and in ascending order');
      this.ords[i++] = ord;
    }
    if (i !== count) throw new Error(`expected ${count} product ids, found ${i}`);
    for (let j = 0; j < count; j++) this.starts[(this.keys[j * 4] >>> (32 - BUCKET_BITS)) + 1]++;
    for (let b = 1; b < this.starts.length; b++) this.starts[b] += this.starts[b - 1];
  }

  /** The ord of a lower-case uuid, or -1. */
  ord(id: string): number {
    const key = this.scratch;
    if (!parse(id, key)) return -1;
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

/** Reads a lower-case 8-4-4-4-12 uuid into four words (most significant first); false if it is not one. */
function parse(id: string, out: Uint32Array): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false; // -
      continue;
    }
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (v < 0) return false;
    word = word * 16 + v; // exact: at most 8 digits a word
    if (++digits % 8 === 0) {
      out[digits / 8 - 1] = word;
      word = 0;
    }
  }
  return true;
}
