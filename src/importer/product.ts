// One import row to one catalogue source product record (SourceProduct). Guarantees:
// the id is a uuid v5 of the row's barcode (leading zeros removed) or, without one, of
// its brand and name (docs/import.md), so re-importing the same rows keeps the ids;
// every label entry is kept in label order, with the id of the dictionary ingredient it
// joined to or of a label-only one (IngredientTable); a barcode or image URL that breaks
// the source contract is dropped and noted. Whether the record as a whole may be written
// is decided by the caller, with the build's checker.
import { joinEntries } from '../labels/join-entries';
import type { LabelJoiner } from '../labels/joiner';
import { mergeSections, parseLabel } from '../labels/parser';
import { explainField } from '../source/explain';
import { uuidV5 } from '../source/ids';
import { SourceProductSchema, type SourceProduct } from '../source/records';
import { brandKey, gtinKey, phraseKey } from '../shared/text';
import { Value } from '@sinclair/typebox/value';
import { categoryOf } from './categories';
import { valueOf, type Mapping } from './fields';
import type { IngredientTable } from './ingredients';
import type { Row } from './rows';

/** A row as a product record, with how each of its entries joined (for the report). */
export interface ImportedRow {
  product: SourceProduct;
  /** Per entry: how it joined (exact, synonym, alias, tolerant, …), or 'none' for a label-only ingredient. */
  joinedBy: string[];
  hadText: boolean;
}

const IMAGE_URL = SourceProductSchema.properties.image_url;
const BARCODE = SourceProductSchema.properties.barcodes.items;

/** The product of a row, or a reason to skip it; `notes` collects dropped values. */
export function productOf(
  row: Row,
  map: Mapping,
  joiner: LabelJoiner<number>,
  table: IngredientTable,
  notes: string[],
): ImportedRow | string {
  const name = valueOf(row, map.name);
  const brand = firstOf(valueOf(row, map.brand));
  const text = valueOf(row, map.ingredients);
  if (name === null && brand === null && text === null) return 'no name, brand or ingredient text';
  const barcodes = barcodesOf(valueOf(row, map.barcode), notes);
  const joined = text === null ? [] : joinEntries(mergeSections(parseLabel(text).sections), joiner);
  const key =
    barcodes.length > 0
      ? `barcode:${gtinKey(barcodes[0])}`
      : `product:${brandKey(brand ?? '')}|${phraseKey(name ?? '')}`;
  const product: SourceProduct = {
    id: uuidV5(`import:${key}`),
    brand,
    name,
    category: categoryOf(valueOf(row, map.category)),
    origin: placeOf(valueOf(row, map.origin)),
    image_url: imageUrlOf(valueOf(row, map.image_url), notes),
    barcodes,
    ingredients: joined.map((e) => ({
      id: e.join ? table.dictionary[e.join.target].id : table.idFor(e.label_name),
      label_name: e.label_name,
      concentration: e.concentration !== null && e.concentration > 0 && e.concentration <= 100 ? e.concentration : null,
    })),
  };
  // colour_index, cas_number and split said as such
  return { product, joinedBy: joined.map((e) => e.join?.rule ?? e.join?.how ?? 'none'), hadText: text !== null };
}

/** The row's barcode, spaces and dashes removed, when it is 8 to 14 digits. */
function barcodesOf(value: string | null, notes: string[]): string[] {
  const code = value?.replace(/[\s-]/g, '') ?? null;
  if (code === null) return [];
  const valid: boolean = Value.Check(BARCODE, code);
  if (valid) return [code];
  notes.push(`barcode "${code.slice(0, 40)}" is not 8 to 14 digits (dropped)`);
  return [];
}

/** The image URL when the source contract accepts it (records.ts), else null and a note saying why. */
function imageUrlOf(value: string | null, notes: string[]): string | null {
  if (value === null || Value.Check(IMAGE_URL, value)) return value;
  explainField(IMAGE_URL, value, 'image_url', (m) => notes.push(`${m} (dropped)`));
  return null;
}

/** "Nivea,Beiersdorf" → "Nivea". */
function firstOf(list: string | null): string | null {
  const first = list?.split(',')[0].trim() ?? '';
  return first === '' ? null : first;
}

/** The first place of a list, without a language prefix: "en:france, Spain" → "France". */
function placeOf(list: string | null): string | null {
  const first =
    firstOf(list)
      ?.replace(/^[a-z]{2}:/, '')
      .replace(/-/g, ' ')
      .trim() ?? '';
  return first === '' ? null : first.charAt(0).toUpperCase() + first.slice(1);
}
