// Test helper: writes a catalogue source directory (catalogue-source.md) from JS
// values, with small factories for valid ingredient, product and label-entry lines.
// A line given as a string is written verbatim (for malformed input); objects are
// written as JSON in the order of their keys.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type {
  SourceIngredient as IngredientSource,
  SourceProductEntry as ProductEntrySource,
  SourceProduct as ProductSource,
} from '../../src/source/records';

export type SourceLine = object | string;
/** Overrides for a factory: any field, of any type (tests write bad lines too). */
export type Overrides<T> = { [K in keyof T]?: unknown } & Record<string, unknown>;
export interface SourceOptions {
  gzip?: boolean;
  crlf?: boolean;
}

/** Writes DIR/ingredients.jsonl and DIR/products.jsonl (.gz with gzip); creates DIR. */
export function writeSource(
  dir: string,
  source: { ingredients: readonly SourceLine[]; products: readonly SourceLine[] },
  options: SourceOptions = {},
): void {
  fs.mkdirSync(dir, { recursive: true });
  writeLines(path.join(dir, 'ingredients.jsonl'), source.ingredients, options);
  writeLines(path.join(dir, 'products.jsonl'), source.products, options);
}

/** Writes one source file (FILE.gz when gzip); returns the path written. */
export function writeLines(file: string, lines: readonly SourceLine[], options: SourceOptions = {}): string {
  const eol = options.crlf ? '\r\n' : '\n';
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)) + eol).join('');
  const target = options.gzip ? file + '.gz' : file;
  fs.writeFileSync(target, options.gzip ? zlib.gzipSync(text) : text);
  return target;
}

/** A deterministic uuid for test number n (n >= 0), e.g. uuid(1, 'b') = "bbbbbbbb-0000-4000-8000-000000000001". */
export function uuid(n: number, prefix = 'a'): string {
  return `${prefix.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A valid ingredients.jsonl line; fields may be overridden. */
export function ingredient(n: number, over: Overrides<IngredientSource> = {}): IngredientSource {
  return <IngredientSource>{
    id: uuid(n, 'a'),
    name: `Ingredient ${n}`,
    rating: null,
    irritancy: null,
    comedogenicity: null,
    functions: [],
    cas_number: null,
    ec_number: null,
    ph_eur_name: null,
    iupac_name: null,
    other_names: null,
    category: null,
    ...over,
  };
}

/** A valid products.jsonl line; fields may be overridden. */
export function product(n: number, over: Overrides<ProductSource> = {}): ProductSource {
  return <ProductSource>{
    id: uuid(n, 'b'),
    brand: `Brand ${n}`,
    name: `Product ${n}`,
    category: 'skincare',
    origin: null,
    image_url: null,
    barcodes: [],
    ingredients: [],
    ...over,
  };
}

/** A valid label entry referring to ingredient line n (see ingredient()). */
export function entry(n: number, over: Overrides<ProductEntrySource> = {}): ProductEntrySource {
  return <ProductEntrySource>{ id: uuid(n, 'a'), label_name: `Ingredient ${n}`, concentration: null, ...over };
}

/** The records of a gzipped JSON Lines file in DIR (what `catalogue import` writes), one per line. */
export function readJsonlGz<T = Record<string, unknown>>(dir: string, file: string): T[] {
  return zlib
    .gunzipSync(fs.readFileSync(path.join(dir, file)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}
