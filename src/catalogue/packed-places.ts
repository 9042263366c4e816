// Where each product's packed answer lies in the catalogue file, found once at open, so that
// a product by id reads its bytes with one pread instead of a SQLite statement (binding,
// b-tree descent, an 8 KiB page read into SQLite's cache and a new Buffer for the blob).
// Found by walking the products table's b-tree in the file itself (SQLite file format,
// https://www.sqlite.org/fileformat2.html, 1.6 b-tree pages, 2.1 record format): for each
// row of a leaf page, the offset and length of its `packed` column when the row's payload
// lies wholly in that page (no overflow pages). Guarantees: a place is only ever given for
// a row whose bytes were read from that place and checked against SQLite's own answer for a
// sample of rows at open; anything the walk does not expect (a page type, an overflow, a
// rowid out of range, a read error) leaves no places at all, and the read model then reads
// through SQLite as before. A batch reads its products the same way, one pread each. A read
// gives the bytes only when the whole place was read and they hold one packed answer of
// exactly that length (format.ts packedLength): a file truncated or rewritten under the
// server fails it (the read model then reads through SQLite, as before places), never crashes.
import { fstatSync, readSync } from 'node:fs';
import { packedLength } from './format';

/** The column of `packed` in the products table (ord, id, brand_key, category, origin, flags, summary, packed). */
const PACKED_COLUMN = 7;
const COLUMNS = 8;
/** Rows whose read through a place is compared with SQLite's at open. */
const SAMPLE = 64;
const LEAF = 0x0d;
const INTERIOR = 0x05;
/** Consecutive leaf pages read at once (1 MiB of 8 KiB pages), with a pause (yield) after each run (and after each interior page). */
const RUN_PAGES = 128;

interface Places {
  /** File offset of each ord's packed answer (-1: none). */
  at: Float64Array;
  length: Uint32Array;
}

export class PackedPlaces {
  private scratch = Buffer.allocUnsafeSlow(4096);
  private many = Buffer.allocUnsafeSlow(128 * 1024);

  private constructor(
    private readonly fd: number,
    private readonly places: Places,
  ) {}

  /**
   * The places of the products (ords 0 … count-1) of the file open as `fd` (the caller's:
   * it closes it, after SQLite's connection, as closing any descriptor of a file drops the
   * process's POSIX locks on it), or undefined when they cannot be found as expected;
   * `viaSqlite(ord)` is SQLite's answer, for the check. Pauses (yield) after each run of pages read.
   */
  static *find(
    fd: number,
    root: number,
    count: number,
    viaSqlite: (ord: number) => Buffer | undefined,
  ): Generator<void, PackedPlaces | undefined> {
    try {
      const places = yield* walk(fd, root, count);
      if (places === undefined) return undefined;
      const found = new PackedPlaces(fd, places);
      return found.agrees(count, viaSqlite) ? found : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The packed answer of `ord`, in a buffer reused by the next call (copy it before then),
   * or undefined when it has no place; throws when the file no longer holds it there.
   */
  read(ord: number): Buffer | undefined {
    const length = this.places.length[ord];
    if (!(this.places.at[ord] >= 0)) return undefined;
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafeSlow(length * 2);
    this.readAt(ord, this.scratch, 0);
    return this.scratch.subarray(0, length);
  }

  /**
   * The packed answers of distinct `ords` (every one with a place), one pread each, back to
   * back in a buffer reused by the next call, and where each starts in it; throws as read() does.
   */
  readMany(ords: readonly number[]): { packed: Buffer; startOf: Map<number, number> } {
    let size = 0;
    for (const ord of ords) size += this.places.length[ord];
    if (this.many.length < size) this.many = Buffer.allocUnsafeSlow(size * 2);
    const startOf = new Map<number, number>();
    let at = 0;
    for (const ord of ords) {
      startOf.set(ord, at);
      at += this.readAt(ord, this.many, at);
    }
    return { packed: this.many.subarray(0, at), startOf };
  }

  /** Reads `ord`'s packed answer into `into` at `at`; its length. */
  private readAt(ord: number, into: Buffer, at: number): number {
    const length = this.places.length[ord];
    const got = readSync(this.fd, into, at, length, this.places.at[ord]);
    // Short (truncated), or not one packed answer of this length (rewritten in place).
    if (got !== length || length < 8 || 8 + into.readUInt32LE(at) * 8 > length || packedLength(into, at) !== length)
      throw new Error('packed answer not where the catalogue put it');
    return length;
  }

  /** True when every ord has a place and a sample of them (ord 0 and the last one included) gives SQLite's bytes. */
  private agrees(count: number, viaSqlite: (ord: number) => Buffer | undefined): boolean {
    if (this.places.at.some((at) => at < 0)) return false;
    const step = Math.max(1, Math.floor(count / SAMPLE));
    const ords = [count - 1];
    for (let ord = 0; ord < count; ord += step) ords.push(ord);
    for (const ord of ords) {
      const stored = viaSqlite(ord);
      const read = this.read(ord);
      if (stored === undefined || read === undefined || !stored.equals(read)) return false;
    }
    return true;
  }
}

/**
 * Reads the products table's b-tree from its root page: the interior pages one by one, then
 * the leaves in file order, runs of consecutive pages read at once. Undefined when it is not
 * as expected.
 */
function* walk(fd: number, root: number, count: number): Generator<void, Places | undefined> {
  const header = Buffer.alloc(100);
  if (readSync(fd, header, 0, 100, 0) !== 100 || header.toString('latin1', 0, 15) !== 'SQLite format 3')
    return undefined;
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const usable = pageSize - header[20];
  const pages = Math.floor(fstatSync(fd).size / pageSize);
  const valid = (n: number) => n >= 2 && n <= pages; // page 1 is the schema's
  const page = Buffer.allocUnsafe(pageSize);
  const found: number[] = [];
  for (const todo = [root]; todo.length > 0;) {
    const n = todo.pop()!;
    if (!valid(n) || readSync(fd, page, 0, pageSize, (n - 1) * pageSize) !== pageSize) return undefined;
    const cells = page.readUInt16BE(3);
    if (page[0] === LEAF) found.push(n);
    else if (page[0] !== INTERIOR) return undefined;
    else {
      todo.push(page.readUInt32BE(8));
      for (let c = 0; c < cells; c++) todo.push(page.readUInt32BE(page.readUInt16BE(12 + 2 * c)));
      yield;
    }
  }
  const leaves = Uint32Array.from(found).sort(); // numeric order, without a comparator called per pair
  yield;
  const places: Places = { at: new Float64Array(count).fill(-1), length: new Uint32Array(count) };
  const run = Buffer.allocUnsafe(RUN_PAGES * pageSize);
  for (let i = 0; i < leaves.length;) {
    let j = i + 1;
    while (j < leaves.length && j - i < RUN_PAGES && leaves[j] === leaves[j - 1] + 1) j++;
    const bytes = (j - i) * pageSize;
    if (readSync(fd, run, 0, bytes, (leaves[i] - 1) * pageSize) !== bytes) return undefined;
    for (let k = i; k < j; k++) {
      const p = run.subarray((k - i) * pageSize, (k - i + 1) * pageSize);
      if (p[0] !== LEAF) return undefined;
      for (let c = 0, cells = p.readUInt16BE(3); c < cells; c++) {
        const place = cellPlace(p, p.readUInt16BE(8 + 2 * c), usable);
        if (place === undefined || place.rowid < 0 || place.rowid >= count) return undefined;
        places.at[place.rowid] = (leaves[k] - 1) * pageSize + place.offset;
        places.length[place.rowid] = place.length;
      }
    }
    i = j;
    yield;
  }
  return places;
}

/** The rowid of the leaf cell at `cell` and where its packed column lies in the page; undefined if it overflows. */
function cellPlace(page: Buffer, cell: number, usable: number) {
  let p = cell;
  const [payload, a] = varint(page, p);
  const [rowid, b] = varint(page, a);
  p = b;
  if (payload > usable - 35 || p + payload > page.length) return undefined; // overflow pages: not read here
  const start = p;
  const [headerSize, c] = varint(page, p);
  let t = c;
  let body = start + headerSize;
  for (let col = 0; col < COLUMNS; col++) {
    if (t >= start + headerSize) return undefined;
    const [serial, next] = varint(page, t);
    t = next;
    const size = serialSize(serial);
    if (size < 0) return undefined;
    if (col === PACKED_COLUMN) {
      if (serial < 12 || serial % 2 !== 0 || body + size > start + payload) return undefined; // a blob
      return { rowid, offset: body, length: size };
    }
    body += size;
  }
  return undefined;
}

/** Bytes of a value of a record's serial type; -1 for a type that is not one. */
function serialSize(serial: number): number {
  if (serial >= 12) return serial % 2 === 0 ? (serial - 12) / 2 : (serial - 13) / 2;
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1][serial];
}

/** A SQLite varint at `at`: its value and the offset after it (values here stay below 2^53). */
function varint(b: Buffer, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i];
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) return [v, at + i + 1];
  }
  return [v * 256 + b[at + 8], at + 9];
}
