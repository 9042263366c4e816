// The catalogue file format: the one contract between `catalogue build` (writer)
// and the read model (reader). Guarantees: every response body the service sends
// for a product or ingredient is rendered here, once, at build time, with the fields
// of its record schema (answers.ts); serving sends these bytes as stored or
// concatenates them. A file whose meta.format/schema_version differ is not a
// catalogue this code can serve.
import { words, brandKey, phraseKey } from '../shared/text';
import { Ingredient, IngredientSearchItem, Product, ProductSummary, pick } from './answers';

export const FORMAT = 'cosmetics-catalogue';
export const SCHEMA_VERSION = '5';

import {
  INGREDIENT_CATEGORIES,
  LIMITS,
  type IngredientCategory,
  type SourceIngredient,
  type SourceProduct,
  type SourceProductEntry,
} from '../source/records';

/**
 * Bit of each free-from tag in products.flags (bit set = the product contains it): bit i for
 * INGREDIENT_CATEGORIES[i] (fragrance 1, drying_alcohol 2, parabens 4, sulfates 8, silicones 16).
 */
export const FLAG_BIT = Object.fromEntries(INGREDIENT_CATEGORIES.map((c, i) => [c, 1 << i])) as Record<
  IngredientCategory,
  number
>;

/** Label join index kinds: label_keys.kind is an index in this list (the tables of src/labels/joiner.ts JoinIndex). */
export { LABEL_KEY_KINDS } from '../labels/joiner';

/** The five contains_* fields of a product (2.3) from its flag bits: the one rule products and label analyses share. */
export function containsFields(flags: number): Readonly<Record<`contains_${IngredientCategory}`, boolean>> {
  return CONTAINS[flags & (CONTAINS.length - 1)];
}
/** containsFields for each of the 32 flag values, made once (a product's render spreads one). */
const CONTAINS = Array.from({ length: 1 << INGREDIENT_CATEGORIES.length }, (_, flags) =>
  Object.freeze(
    Object.fromEntries(INGREDIENT_CATEGORIES.map((c) => [`contains_${c}`, (flags & FLAG_BIT[c]) !== 0])) as Record<
      `contains_${IngredientCategory}`,
      boolean
    >,
  ),
);

/** Term index kinds (search_terms.kind). */
export const TERMS_PRODUCT = 0; // product brand + name
export const TERMS_INGREDIENT_NAME = 1;
export const TERMS_INGREDIENT_OTHER = 2;

/**
 * `ord` is the 0-based line order in the source file: catalogue order for products.
 * products.packed: the product's answer (2.3) as UTF-8 JSON with each entry's ingredient
 * record cut out, and where each goes (packProduct): serving copies the ingredient records,
 * held once in memory, back in (EntryTails), so the file holds each record once.
 * product_encodings: the same answer gzip-compressed at build time, for clients that accept
 * it; nothing is compressed per request.
 * label_keys: the label join index, one row per kind (index in LABEL_KEY_KINDS) whose
 * entries are a JSON array of [key, ingredient ord] (key: exact or compact form,
 * src/labels/joiner.ts), prepared by src/builder/label-keys.ts for label analysis.
 */
export const DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE ingredients (
  ord INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  record TEXT NOT NULL,
  search_item TEXT NOT NULL
);
CREATE TABLE products (
  ord INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  brand_key TEXT,
  category TEXT,
  origin TEXT,
  flags INTEGER NOT NULL,
  summary TEXT NOT NULL,
  packed BLOB NOT NULL
);
CREATE TABLE product_encodings (ord INTEGER PRIMARY KEY, gzip BLOB NOT NULL);
CREATE TABLE barcodes (gtin TEXT PRIMARY KEY, product_ord INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE ingredient_products (ingredient_ord INTEGER PRIMARY KEY, postings BLOB NOT NULL);
CREATE TABLE search_terms (kind INTEGER NOT NULL, term TEXT NOT NULL, postings BLOB NOT NULL, PRIMARY KEY (kind, term)) WITHOUT ROWID;
CREATE TABLE label_keys (kind INTEGER PRIMARY KEY, entries TEXT NOT NULL);
`;

export interface IngredientRow {
  ord: number;
  id: string;
  name: string;
  name_key: string;
  record: string;
  search_item: string;
}
export interface ProductRow {
  ord: number;
  id: string;
  brand_key: string | null;
  category: string | null;
  origin: string | null;
  flags: number;
  summary: string;
  packed: Buffer;
}

/** Renders one ingredient (ids lower-cased) into its row: record (2.5) and search item (2.6). */
export function renderIngredient(ord: number, ing: SourceIngredient): IngredientRow {
  const id = ing.id.toLowerCase();
  const fields = { ...ing, id };
  const record = JSON.stringify(pick(Ingredient, fields));
  const search_item = JSON.stringify(pick(IngredientSearchItem, fields));
  return { ord, id, name: ing.name, name_key: phraseKey(ing.name), record, search_item };
}

/** What rendering a product needs to know of the ingredients already rendered. */
export interface RenderedIngredients {
  /** The ingredient ord of each of a product's entries, in order. */
  ords(p: SourceProduct): readonly number[];
  /** Free-from tag of an ingredient ord. */
  category(ord: number): IngredientCategory | null;
  /** An ingredient ord's record (2.5) as JSON text (an entry is its label fields followed by these). */
  record(ord: number): string;
}

/** Renders one product: its row, whose `packed` answer leaves out the ingredient records. */
export function renderProduct(ord: number, p: SourceProduct, ingredients: RenderedIngredients): ProductRow {
  const id = p.id.toLowerCase();
  const summary = JSON.stringify(pick(ProductSummary, { ...p, id }));
  const ords = ingredients.ords(p);
  let flags = 0;
  for (let i = 0; i < ords.length; i++) {
    const cat = ingredients.category(ords[i]);
    if (cat) flags |= FLAG_BIT[cat];
  }
  const full = JSON.stringify(pick(Product, { ...p, id, ...containsFields(flags), ingredients: [] }));
  return {
    ord,
    id,
    brand_key: p.brand === null ? null : brandKey(p.brand),
    category: p.category,
    origin: p.origin,
    flags,
    summary,
    packed: packProduct(full.slice(0, -2), p.ingredients, ords),
  };
}

/**
 * A packed answer: the entry count n (uint32 LE), the byte length of the head (uint32 LE), then
 * per entry its ingredient ord (uint32 LE) and the byte lengths of its label_name and
 * concentration JSON (uint16 LE each: at most 6 × 4,000 + 2 bytes; 0 for a null
 * concentration), then the head (the answer up to and including `"ingredients":[`) and each
 * entry's label_name and concentration JSON.
 * Entry i of the answer is `{"position":i,"label_name":L,"concentration":C,` followed by the
 * ingredient's record (2.5) without its '{'; entries are comma-separated and the answer ends `]}`:
 * JSON.stringify({ position, label_name, concentration, ...record }) for each entry.
 */
function packProduct(head: string, entries: readonly SourceProductEntry[], ords: readonly number[]): Buffer {
  const n = entries.length;
  const lengths = PACK_LENGTHS; // label_name, concentration JSON bytes of each entry
  let text = head;
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const label = JSON.stringify(e.label_name);
    const c = e.concentration === null ? '' : JSON.stringify(e.concentration); // a number's JSON: ASCII
    lengths[2 * i] = Buffer.byteLength(label);
    lengths[2 * i + 1] = c.length;
    text += label + c;
  }
  const at = 8 + n * 8;
  const out = Buffer.allocUnsafe(at + Buffer.byteLength(text));
  out.writeUInt32LE(n, 0);
  out.writeUInt32LE(Buffer.byteLength(head), 4);
  for (let i = 0; i < n; i++) {
    out.writeUInt32LE(ords[i], 8 + i * 8);
    out.writeUInt16LE(lengths[2 * i], 12 + i * 8);
    out.writeUInt16LE(lengths[2 * i + 1], 14 + i * 8);
  }
  out.write(text, at);
  return out;
}
/** packProduct's scratch: two lengths per entry, at most LIMITS.ingredients entries. */
const PACK_LENGTHS = new Uint16Array(2 * LIMITS.ingredients);

const OPEN = '{"position":';
const NULL_CONCENTRATION = ',"concentration":null,';
const CONCENTRATION = ',"concentration":';
/** What ends every tail (below): the close of an entry and the opening of the next one. */
const NEXT = '},{"position":';
/** Bytes an answer's last tail leaves after the '}' that closes its last entry (written over). */
const OVERHANG = NEXT.length - 1;
/** The input and work regions' first sizes (they grow when an answer needs more). */
const INPUT_BYTES = 128 * 1024;
const WORK_BYTES = 1024 * 1024;
/** A region of the arena an HTTP answer may be written in place (a batch of 50 answers of up to about 15 KB). */
export const ANSWER_SLAB_BYTES = 768 * 1024;
/** The start of the packed product alone (EntryTails#product). */
const ALONE = [0];

/** Little-endian reads from a plain Uint8Array (Buffer#readUInt32LE checks its arguments on every call). */
const u32 = (a: Uint8Array, at: number) => (a[at] | (a[at + 1] << 8) | (a[at + 2] << 16) | (a[at + 3] << 24)) >>> 0;
const u16 = (a: Uint8Array, at: number) => a[at] | (a[at + 1] << 8);
const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);

/** The byte length of the packed product starting at `at` in `p`. */
export function packedLength(p: Uint8Array, at: number): number {
  const n = u32(p, at);
  let size = 8 + n * 8 + u32(p, at + 4);
  for (let e = at + 8, end = e + n * 8; e < end; e += 8) size += u16(p, e + 4) + u16(p, e + 6);
  return size;
}

/**
 * Turns packed products back into their answers (2.3). Every piece of an answer lies in one
 * buffer, the arena, laid out once: per ingredient ord its tail — what follows an entry's
 * label_name when it states no concentration: `,"concentration":null,`, the ingredient's
 * record (2.5) without its braces, and `},{"position":`, which closes the entry and opens the
 * next (after an answer's last entry it is written over by the answer's end) — then
 * `i,"label_name":` for every position i and two constants; after them an input region (the
 * packed products being unpacked, copied in once) and a work region (the answer is written
 * there, then copied out whole; or, when the answer's buffer is one of the arena's slabs, in
 * place). So each piece is one TypedArray#copyWithin between offsets
 * read from Uint32Arrays: no view object per ingredient to load (30,000 of them, touched at
 * random, cost more than the copies), no byte loop. The regions grow when an answer needs
 * more. One answer at a time (the service has one thread).
 */
export class EntryTails {
  private arena: Uint8Array;
  /** Tail of ord k: arena[tailAt[k], tailAt[k + 1]). */
  private readonly tailAt: Uint32Array;
  /** `i,"label_name":`: arena[positionAt[i], positionAt[i + 1]). */
  private readonly positionAt: Uint32Array;
  private readonly openAt: number;
  private readonly concentrationAt: number;
  private readonly inputAt: number;
  private workAt: number;
  private workBytes = WORK_BYTES;
  /** Slabs not yet given out (slab()): the last ones of the arena. */
  private slabs: number;

  /** `slabs`: how many slabs (ANSWER_SLAB_BYTES) the arena holds for answers written in place. */
  constructor(records: readonly Buffer[], slabs = 0) {
    // The tails are copied from the records' bytes (no string made per record: 8 MB of them
    // for 30,000 ingredients held the event loop 50–100 ms at a catalogue swap); the rest is text.
    const rest = [...Array.from({ length: LIMITS.ingredients }, (_, i) => `${i},"label_name":`), OPEN, CONCENTRATION];
    const at = new Uint32Array(records.length + rest.length + 1);
    records.forEach((r, k) => (at[k + 1] = at[k] + NULL_CONCENTRATION.length + r.length - 2 + NEXT.length));
    rest.forEach((piece, i) => (at[records.length + i + 1] = at[records.length + i] + piece.length)); // latin1: a byte a char
    this.tailAt = at.subarray(0, records.length + 1);
    this.positionAt = at.subarray(records.length, records.length + LIMITS.ingredients + 1);
    this.openAt = at[records.length + LIMITS.ingredients];
    this.concentrationAt = this.openAt + OPEN.length;
    this.inputAt = this.concentrationAt + CONCENTRATION.length;
    this.workAt = this.inputAt + INPUT_BYTES;
    this.slabs = slabs;
    this.arena = new Uint8Array(this.workAt + WORK_BYTES + slabs * ANSWER_SLAB_BYTES);
    const text = Buffer.from(this.arena.buffer);
    records.forEach((r, k) => {
      const from = at[k] + text.write(NULL_CONCENTRATION, at[k], 'latin1');
      text.write(NEXT, from + r.copy(text, from, 1, r.length - 1), 'latin1');
    });
    rest.forEach((piece, i) => text.write(piece, at[records.length + i], 'latin1'));
  }

  /**
   * A slab of the arena to lend for answers (batch() writes in it in place, without a copy),
   * or undefined when all have been given out. A slab is never given out twice; its holder
   * lends it again.
   */
  slab(): Buffer | undefined {
    if (this.slabs === 0) return undefined;
    this.slabs--;
    return Buffer.from(this.arena.buffer, this.arena.length - (this.slabs + 1) * ANSWER_SLAB_BYTES, ANSWER_SLAB_BYTES);
  }

  /** The answer a packed product stands for, in a buffer of its own. */
  product(packed: Buffer): Buffer {
    return this.unpack(packed, ALONE, false, (size) => Buffer.allocUnsafe(size));
  }

  /**
   * A JSON array of the packed answers starting at `starts` in `packed` (packed products one
   * after the other), `null` where a start is negative, in one buffer from `alloc` (at least
   * the size asked; a new exact one by default); the answer is its first bytes.
   */
  batch(
    packed: Buffer,
    starts: ArrayLike<number>,
    alloc: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
  ): Buffer {
    return this.unpack(packed, starts, true, alloc);
  }

  private unpack(packed: Buffer, starts: ArrayLike<number>, array: boolean, alloc: (size: number) => Buffer): Buffer {
    const p = bytes(packed);
    let size = array ? 1 + Math.max(1, starts.length) : 0;
    for (let i = 0; i < starts.length; i++) size += starts[i] < 0 ? 4 : this.unpackedLength(p, starts[i]);
    const out = alloc(size);
    const inPlace = () => out.buffer === this.arena.buffer && out.length >= size + OVERHANG;
    this.reserve(packed.length, inPlace() ? 0 : size + OVERHANG);
    const direct = inPlace(); // (reserve may have made a new arena)
    const a = this.arena;
    a.set(p, this.inputAt);
    const start = direct ? out.byteOffset : this.workAt;
    let to = start;
    if (array) a[to++] = 0x5b; // [
    for (let i = 0; i < starts.length; i++) {
      if (i > 0) a[to++] = 0x2c; // ,
      if (starts[i] < 0) to += Buffer.from(a.buffer).write('null', to, 'latin1');
      else to = this.unpackInto(this.inputAt + starts[i], to);
    }
    if (array) a[to] = 0x5d; // ]
    if (!direct) out.set(a.subarray(start, start + size));
    return out.length === size ? out : out.subarray(0, size);
  }

  /** Makes the input and work regions at least this large (a larger arena, the pieces copied over). */
  private reserve(input: number, work: number): void {
    const inputBytes = this.workAt - this.inputAt;
    if (input <= inputBytes && work <= this.workBytes) return;
    const old = this.arena;
    this.workAt = this.inputAt + Math.max(input, inputBytes);
    this.workBytes = Math.max(work, this.workBytes);
    this.arena = new Uint8Array(this.workAt + this.workBytes);
    this.arena.set(old.subarray(0, this.inputAt));
    this.slabs = 0; // the slabs given out stay in the old arena, and are written with a copy
  }

  /** The byte length of the answer the packed product at `at` in `p` stands for. */
  private unpackedLength(p: Uint8Array, at: number): number {
    const n = u32(p, at);
    let size = u32(p, at + 4) + 2; // the head, then ]}
    if (n === 0) return size;
    const { tailAt, positionAt } = this;
    size += OPEN.length - OVERHANG + positionAt[n] - positionAt[0];
    for (let e = at + 8, end = e + n * 8; e < end; e += 8) {
      const ord = u32(p, e);
      const concentration = u16(p, e + 6);
      size += u16(p, e + 4) + tailAt[ord + 1] - tailAt[ord];
      if (concentration !== 0) size += CONCENTRATION.length + concentration + 1 - NULL_CONCENTRATION.length;
    }
    return size;
  }

  /**
   * Writes the answer the packed product at `at` in the arena stands for at `to` in the arena;
   * returns where it ends (OVERHANG bytes past it may be written too). Hot path (every product
   * answer, 50 a batch): per entry three copies (its position, its label_name, its tail),
   * five for the rare entry that states a concentration.
   */
  private unpackInto(at: number, to: number): number {
    const { arena: a, tailAt, positionAt } = this;
    const n = u32(a, at);
    let from = at + 8 + n * 8;
    const headEnd = from + u32(a, at + 4);
    a.copyWithin(to, from, headEnd);
    to += headEnd - from;
    from = headEnd;
    if (n > 0) {
      a.copyWithin(to, this.openAt, this.openAt + OPEN.length);
      to += OPEN.length;
      for (let i = 0, e = at + 8; i < n; i++, e += 8) {
        const position = positionAt[i];
        const positionEnd = positionAt[i + 1];
        a.copyWithin(to, position, positionEnd);
        to += positionEnd - position;
        const labelEnd = from + u16(a, e + 4);
        a.copyWithin(to, from, labelEnd);
        to += labelEnd - from;
        from = labelEnd;
        const ord = u32(a, e);
        let rest = tailAt[ord];
        const restEnd = tailAt[ord + 1];
        const concentration = u16(a, e + 6);
        if (concentration !== 0) {
          a.copyWithin(to, this.concentrationAt, this.concentrationAt + CONCENTRATION.length);
          to += CONCENTRATION.length;
          a.copyWithin(to, from, from + concentration);
          to += concentration;
          from += concentration;
          a[to++] = 0x2c; // ,
          rest += NULL_CONCENTRATION.length;
        }
        a.copyWithin(to, rest, restEnd);
        to += restEnd - rest;
      }
      to -= OVERHANG;
    }
    a[to++] = 0x5d; // ]
    a[to++] = 0x7d; // }
    return to;
  }
}

/** Accumulates word → ascending unique doc ords, for the search_terms table. Docs must be added in ord order. */
export class TermIndexBuilder {
  private readonly lists = new Map<string, number[]>();
  add(ord: number, text: string | null): void {
    if (text === null) return;
    for (const w of words(text)) {
      let list = this.lists.get(w);
      if (!list) this.lists.set(w, (list = []));
      if (list[list.length - 1] !== ord) list.push(ord);
    }
  }
  *entries(): IterableIterator<[string, Buffer]> {
    for (const [term, list] of this.lists) yield [term, encodePostings(list)];
  }
}

export function encodePostings(ords: readonly number[]): Buffer {
  const buf = Buffer.allocUnsafe(ords.length * 4);
  for (let i = 0; i < ords.length; i++) buf.writeInt32LE(ords[i], i * 4);
  return buf;
}

export function decodePostings(blob: Buffer): Int32Array {
  return decodePostingsInto(blob, new Int32Array(blob.length >>> 2));
}

/** The same, written into `out` (of blob.length / 4 entries). */
export function decodePostingsInto(blob: Buffer, out: Int32Array): Int32Array {
  // Copy into an aligned buffer: SQLite blobs are not guaranteed 4-byte aligned.
  for (let i = 0; i < out.length; i++) out[i] = blob.readInt32LE(i * 4);
  return out;
}
