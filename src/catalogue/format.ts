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
export function containsFields(flags: number): Record<`contains_${IngredientCategory}`, boolean> {
  return Object.fromEntries(INGREDIENT_CATEGORIES.map((c) => [`contains_${c}`, (flags & FLAG_BIT[c]) !== 0])) as Record<
    `contains_${IngredientCategory}`,
    boolean
  >;
}

/** Term index kinds (search_terms.kind). */
export const TERMS_PRODUCT = 0; // product brand + name
export const TERMS_INGREDIENT_NAME = 1;
export const TERMS_INGREDIENT_OTHER = 2;

/**
 * `ord` is the 0-based line order in the source file: catalogue order for products.
 * products.packed: the product's answer (2.3) as UTF-8 JSON with each entry's ingredient
 * record cut out, and where each goes (packProduct): serving copies the ingredient records,
 * held once in memory, back in (unpackProduct), so the file holds each record once.
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
  let flags = 0;
  const ords = ingredients.ords(p);
  const entries = p.ingredients.map((e, i) => {
    const iord = ords[i];
    const cat = ingredients.category(iord);
    if (cat) flags |= FLAG_BIT[cat];
    return { ord: iord, label: JSON.stringify(e.label_name), concentration: e.concentration };
  });
  const full = JSON.stringify(pick(Product, { ...p, id, ...containsFields(flags), ingredients: [] }));
  return {
    ord,
    id,
    brand_key: p.brand === null ? null : brandKey(p.brand),
    category: p.category,
    origin: p.origin,
    flags,
    summary,
    packed: packProduct(full.slice(0, -2), entries),
  };
}

/** What a packed entry holds: the ingredient's ord, its label_name as JSON text and its concentration. */
interface PackedEntry {
  ord: number;
  label: string;
  concentration: number | null;
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
function packProduct(head: string, entries: PackedEntry[]): Buffer {
  const n = entries.length;
  const headBytes = Buffer.byteLength(head);
  const labelBytes: number[] = [];
  const concentrations: string[] = [];
  let text = head;
  let size = 8 + n * 8 + headBytes;
  for (const e of entries) {
    const c = e.concentration === null ? '' : JSON.stringify(e.concentration); // a number's JSON: ASCII
    const bytes = Buffer.byteLength(e.label);
    labelBytes.push(bytes);
    concentrations.push(c);
    text += e.label + c;
    size += bytes + c.length;
  }
  const out = Buffer.allocUnsafe(size);
  out.writeUInt32LE(n, 0);
  out.writeUInt32LE(headBytes, 4);
  entries.forEach((e, i) => {
    out.writeUInt32LE(e.ord, 8 + i * 8);
    out.writeUInt16LE(labelBytes[i], 12 + i * 8);
    out.writeUInt16LE(concentrations[i].length, 14 + i * 8);
  });
  out.write(text, 8 + n * 8);
  return out;
}

/**
 * Plain Uint8Arrays, not Buffers, for every piece unpackInto copies: a Buffer's subarray is
 * made through its species constructor, several times slower than a Uint8Array's.
 */
const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length);
/** `{"position":i,"label_name":` for every position a product may have (`,` before all but the first). */
const POSITION = Array.from({ length: LIMITS.ingredients }, (_, i) =>
  bytes(Buffer.from(`${i === 0 ? '' : ','}{"position":${i},"label_name":`)),
);
const CONCENTRATION = bytes(Buffer.from(',"concentration":'));
const NULL_CONCENTRATION = Buffer.from(',"concentration":null,');
const END = bytes(Buffer.from(']}'));

/**
 * Per ingredient ord, what follows an entry's label_name when it states no concentration:
 * `,"concentration":null,` and the ingredient's record (2.5) without its '{' (its `tail`),
 * and the record alone (`body`, a view of the tail).
 */
export interface EntryTails {
  tail: Uint8Array[];
  body: Uint8Array[];
}

export function entryTails(records: readonly Buffer[]): EntryTails {
  const tail = records.map((r) => bytes(Buffer.concat([NULL_CONCENTRATION, r.subarray(1)])));
  return { tail, body: tail.map((t) => t.subarray(NULL_CONCENTRATION.length)) };
}

/** Little-endian reads from a plain Uint8Array (Buffer#readUInt32LE checks its arguments on every call). */
const u32 = (a: Uint8Array, at: number) => (a[at] | (a[at + 1] << 8) | (a[at + 2] << 16) | (a[at + 3] << 24)) >>> 0;
const u16 = (a: Uint8Array, at: number) => a[at] | (a[at + 1] << 8);

/** The byte length of the answer (2.3) a packed product stands for. */
export function unpackedLength(packed: Buffer, t: EntryTails): number {
  const p = bytes(packed);
  const n = u32(p, 0);
  let size = p.length - 8 - n * 8 + END.length;
  for (let i = 0, at = 8; i < n; i++, at += 8) {
    const concentration = u16(p, at + 6);
    const ord = u32(p, at);
    size +=
      POSITION[i].length + (concentration === 0 ? t.tail[ord].length : CONCENTRATION.length + 1 + t.body[ord].length);
  }
  return size;
}

/**
 * Writes the answer a packed product stands for into `out` at `to`; returns where it ends.
 * Hot path (every product answer): the long pieces (head, position prefix, an ingredient's
 * record) are copied with TypedArray#set, a native copy (a Buffer#copy or a subarray per
 * piece costs more); a label_name or concentration, a few dozen bytes, is copied byte by
 * byte, which costs less than making a subarray of it to set. With the byte reads above,
 * a third less time than setting every piece (in process, 50-answer batches of the 200k
 * catalogue: 430–470 against 660–680 µs). An entry without a concentration (nearly all)
 * is two copies and a label.
 */
export function unpackInto(packed: Buffer, t: EntryTails, out: Buffer, to: number): number {
  const p = bytes(packed);
  const n = u32(p, 0);
  let from = 8 + n * 8;
  const headEnd = from + u32(p, 4);
  out.set(p.subarray(from, headEnd), to);
  to += headEnd - from;
  from = headEnd;
  for (let i = 0, at = 8; i < n; i++, at += 8) {
    const position = POSITION[i];
    out.set(position, to);
    to += position.length;
    to = copyBytes(p, from, (from += u16(p, at + 4)), out, to);
    const ord = u32(p, at);
    const concentration = u16(p, at + 6);
    if (concentration === 0) {
      const tail = t.tail[ord];
      out.set(tail, to);
      to += tail.length;
      continue;
    }
    out.set(CONCENTRATION, to);
    to += CONCENTRATION.length;
    to = copyBytes(p, from, (from += concentration), out, to);
    out[to++] = 0x2c; // ,
    const body = t.body[ord];
    out.set(body, to);
    to += body.length;
  }
  out.set(END, to);
  return to + END.length;
}

/** Copies src[from, end) to out at `to`; returns where it ends. */
function copyBytes(src: Uint8Array, from: number, end: number, out: Uint8Array, to: number): number {
  while (from < end) out[to++] = src[from++];
  return to;
}

/** The answer a packed product stands for: one exact allocation. */
export function unpackProduct(packed: Buffer, t: EntryTails): Buffer {
  const out = Buffer.allocUnsafe(unpackedLength(packed, t));
  unpackInto(packed, t, out, 0);
  return out;
}

/**
 * A JSON array of packed answers, `null` where one is null, in one buffer from `alloc` (at
 * least the size asked; a new exact one by default); the answer is its first bytes.
 */
export function unpackArray(
  packed: ReadonlyArray<Buffer | null>,
  t: EntryTails,
  alloc: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
): Buffer {
  let size = 1 + Math.max(1, packed.length);
  for (const p of packed) size += p === null ? 4 : unpackedLength(p, t);
  const out = alloc(size);
  let at = 0;
  out[at++] = 0x5b; // [
  packed.forEach((p, i) => {
    if (i > 0) out[at++] = 0x2c; // ,
    at = p === null ? at + out.write('null', at, 'latin1') : unpackInto(p, t, out, at);
  });
  out[at] = 0x5d; // ]
  return out.length === size ? out : out.subarray(0, size);
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
  // Copy into an aligned buffer: SQLite blobs are not guaranteed 4-byte aligned.
  const out = new Int32Array(blob.length >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = blob.readInt32LE(i * 4);
  return out;
}
