// The catalogue file format: the one contract between `catalogue build` (writer)
// and the read model (reader). Guarantees: every response body the service sends
// for a product or ingredient is rendered here, once, at build time; serving sends
// these bytes as stored or concatenates them. A file whose meta.format/schema_version differ is
// not a catalogue this code can serve.
import { words, brandKey, phraseKey } from '../shared/text';

export const FORMAT = 'cosmetics-catalogue';
export const SCHEMA_VERSION = '4';

import type { IngredientCategory, SourceIngredient, SourceProduct } from '../source/records';

/** Bit of each free-from tag in products.flags (bit set = the product contains it). */
export const FLAG_BIT: Record<IngredientCategory, number> = {
  fragrance: 1,
  drying_alcohol: 2,
  parabens: 4,
  sulfates: 8,
  silicones: 16,
};

/** Label join index kinds (label_keys.kind): the tables of src/labels/joiner.ts JoinIndex. */
export const LABEL_KEY_KINDS = ['exact', 'compact', 'alias', 'synonym', 'spelling'] as const;
export type LabelKeyKind = (typeof LABEL_KEY_KINDS)[number];

/** The five contains_* fields of a product (2.3) from its flag bits: the one rule products and label analyses share. */
export function containsFields(flags: number): Record<`contains_${IngredientCategory}`, boolean> {
  const has = (c: IngredientCategory) => (flags & FLAG_BIT[c]) !== 0;
  return {
    contains_fragrance: has('fragrance'),
    contains_drying_alcohol: has('drying_alcohol'),
    contains_parabens: has('parabens'),
    contains_sulfates: has('sulfates'),
    contains_silicones: has('silicones'),
  };
}

/** Term index kinds (search_terms.kind). */
export const TERMS_PRODUCT = 0; // product brand + name
export const TERMS_INGREDIENT_NAME = 1;
export const TERMS_INGREDIENT_OTHER = 2;

/**
 * `ord` is the 0-based line order in the source file: catalogue order for products.
 * products.payload: the product's whole answer (2.3) as UTF-8 JSON, ingredient records
 * included, so serving sends the blob as read.
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
  payload BLOB NOT NULL
);
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
  payload: Buffer;
}

/** Renders one ingredient (ids lower-cased) into its row: record (2.5) and search item (2.6). */
export function renderIngredient(ord: number, ing: SourceIngredient): IngredientRow {
  const id = ing.id.toLowerCase();
  const record = JSON.stringify({
    id,
    name: ing.name,
    rating: ing.rating,
    irritancy: ing.irritancy,
    comedogenicity: ing.comedogenicity,
    functions: ing.functions,
    cas_number: ing.cas_number,
    ec_number: ing.ec_number,
    ph_eur_name: ing.ph_eur_name,
    iupac_name: ing.iupac_name,
    other_names: ing.other_names,
    category: ing.category,
  });
  const search_item = JSON.stringify({ id, name: ing.name, other_names: ing.other_names, rating: ing.rating });
  return { ord, id, name: ing.name, name_key: phraseKey(ing.name), record, search_item };
}

/** What rendering a product needs to know of the ingredients already rendered. */
export interface RenderedIngredients {
  /** Ord of a lower-case ingredient id. */
  ord(id: string): number;
  /** Free-from tag of an ingredient ord. */
  category(ord: number): IngredientCategory | null;
  /** An ingredient ord's record (2.5) as JSON text (an entry is its label fields followed by these). */
  record(ord: number): string;
}

/** Renders one product. */
export function renderProduct(ord: number, p: SourceProduct, ingredients: RenderedIngredients): ProductRow {
  const id = p.id.toLowerCase();
  let flags = 0;
  let entries = '';
  p.ingredients.forEach((e, position) => {
    const iord = ingredients.ord(e.id.toLowerCase());
    const cat = ingredients.category(iord);
    if (cat) flags |= FLAG_BIT[cat];
    // Same text as JSON.stringify({ position, label_name, concentration, ...record }), built directly (hot path).
    entries +=
      (position === 0 ? '{"position":' : ',{"position":') +
      position +
      ',"label_name":' +
      JSON.stringify(e.label_name) +
      ',"concentration":' +
      JSON.stringify(e.concentration) +
      ',' +
      ingredients.record(iord).slice(1);
  });
  const summary = JSON.stringify({ id, brand: p.brand, name: p.name, category: p.category, image_url: p.image_url });
  const full = JSON.stringify({
    id,
    brand: p.brand,
    name: p.name,
    image_url: p.image_url,
    category: p.category,
    origin: p.origin,
    ...containsFields(flags),
    ingredients: [],
  });
  return {
    ord,
    id,
    brand_key: p.brand === null ? null : brandKey(p.brand),
    category: p.category,
    origin: p.origin,
    flags,
    summary,
    payload: Buffer.from(full.slice(0, -2) + entries + ']}'),
  };
}

/** A JSON array of pre-rendered JSON values, `null` where a value is null: one exact allocation. */
export function jsonArray(values: ReadonlyArray<Buffer | null>): Buffer {
  let size = 1 + Math.max(1, values.length);
  for (const v of values) size += v === null ? 4 : v.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  out[at++] = 0x5b; // [
  values.forEach((v, i) => {
    if (i > 0) out[at++] = 0x2c; // ,
    at += v === null ? out.write('null', at, 'latin1') : v.copy(out, at);
  });
  out[at] = 0x5d; // ]
  return out;
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
