// The ingredient records (2.5) of one opened catalogue as UTF-8 bytes in one block of shared
// memory, held once in the process: the request thread answers an ingredient from it and
// the label worker threads (label-source.ts) read the same bytes, never a copy of them.
// Guarantees: record(ord) is the stored record's bytes, as a view (no copy, no heap object
// kept per record), copy(ord) the same bytes in a buffer of their own, text(ord) decoded; the block never changes once made.
// Layout: u32 N, then N + 1 u32 ends (record k is bytes [ends[k], ends[k + 1]) after the
// header), then the bytes.
export class SharedRecords {
  readonly length: number;
  private readonly ends: Uint32Array;
  private readonly bytes: Buffer;

  /** The records of a block made by SharedRecords.of (on any thread). */
  constructor(readonly memory: SharedArrayBuffer) {
    this.length = new Uint32Array(memory, 0, 1)[0];
    this.ends = new Uint32Array(memory, 4, this.length + 1);
    const head = 4 * (this.length + 2);
    this.bytes = Buffer.from(memory, head, memory.byteLength - head);
  }

  /** The records in ord order, copied into a new block. */
  static of(records: readonly string[]): SharedRecords {
    const head = 4 * (records.length + 2);
    let size = head;
    for (const r of records) size += Buffer.byteLength(r);
    const memory = new SharedArrayBuffer(size);
    new Uint32Array(memory, 0, 1)[0] = records.length;
    const ends = new Uint32Array(memory, 4, records.length + 1);
    const bytes = Buffer.from(memory, head);
    records.forEach((r, ord) => (ends[ord + 1] = ends[ord] + bytes.write(r, ends[ord])));
    return new SharedRecords(memory);
  }

  /** The record of `ord` as bytes: a view of the block. */
  record(ord: number): Buffer {
    return this.bytes.subarray(this.ends[ord], this.ends[ord + 1]);
  }

  /** The record of `ord` as bytes of its own (an ArrayBuffer's, not shared memory: what fastify sends as is). */
  copy(ord: number): Buffer {
    const start = this.ends[ord];
    const out = Buffer.allocUnsafe(this.ends[ord + 1] - start);
    this.bytes.copy(out, 0, start, start + out.length);
    return out;
  }

  /** The record of `ord` as text. */
  text(ord: number): string {
    return this.bytes.toString('utf8', this.ends[ord], this.ends[ord + 1]);
  }

  /** The same as text(), as an array's at() reads (LabelAnalyser takes either). */
  at(ord: number): string {
    return this.text(ord);
  }
}
