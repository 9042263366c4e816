// One import row to one catalogue source product. Guarantees: the id is a uuid v5 of
// the row's barcode (leading zeros removed) or, without one, of its brand and name
// (docs/import.md), so re-importing the same rows keeps the ids; every label entry is
// kept in label order, joined to a dictionary ingredient or to a label-only one; a
// value that breaks the source contract is dropped and reported, never written.
import { brandKey, gtinKey, phraseKey } from '../shared/text';
import { joinEntries } from '../labels/join-entries';
import type { LabelJoiner } from '../labels/joiner';
import { mergeSections, parseLabel } from '../labels/parser';
import { uuidV5 } from '../sample/ids';
import { categoryOf } from './categories';
import { valueOf, type Mapping } from './fields';
import type { Row } from './rows';

export interface ImportedEntry {
  label_name: string;
  concentration: number | null;
  /** Dictionary index, or null: a label-only ingredient. */
  ord: number | null;
}

export interface ImportedProduct {
  id: string;
  brand: string | null;
  name: string | null;
  category: string | null;
  origin: string | null;
  image_url: string | null;
  barcodes: string[];
  entries: ImportedEntry[];
  /** How the entries joined (exact, synonym, alias, tolerant), for the report. */
  joinedBy: string[];
  hadText: boolean;
}

/** The product of a row, or a reason to skip it; `notes` collects dropped values. */
export function productOf(
  row: Row,
  map: Mapping,
  joiner: LabelJoiner<number>,
  notes: string[],
): ImportedProduct | string {
  const name = valueOf(row, map.name);
  const brand = firstOf(valueOf(row, map.brand));
  const text = valueOf(row, map.ingredients);
  if (name === null && brand === null && text === null) return 'no name, brand or ingredient text';
  const code = valueOf(row, map.barcode)?.replace(/[\s-]/g, '') ?? null;
  const barcodes = code !== null && /^\d{8,14}$/.test(code) ? [code] : [];
  if (code !== null && barcodes.length === 0)
    notes.push(`barcode "${code.slice(0, 40)}" is not 8 to 14 digits (dropped)`);
  const image = valueOf(row, map.image_url);
  const imageUrl = image !== null && /^https?:\/\/[^\s]+$/i.test(image) ? image : null;
  if (image !== null && imageUrl === null)
    notes.push(`image_url "${image.slice(0, 60)}" is not an http(s) URL (dropped)`);
  const joined = text === null ? [] : joinEntries(mergeSections(parseLabel(text).sections), joiner);
  const key =
    barcodes.length > 0
      ? `barcode:${gtinKey(barcodes[0])}`
      : `product:${brandKey(brand ?? '')}|${phraseKey(name ?? '')}`;
  return {
    id: uuidV5(`import:${key}`),
    brand,
    name,
    category: categoryOf(valueOf(row, map.category)),
    origin: placeOf(valueOf(row, map.origin)),
    image_url: imageUrl,
    barcodes,
    entries: joined.map((e) => ({
      label_name: e.label_name,
      concentration: e.concentration !== null && e.concentration > 0 && e.concentration <= 100 ? e.concentration : null,
      ord: e.join?.target ?? null,
    })),
    joinedBy: joined.map((e) => e.join?.rule ?? e.join?.how ?? 'none'), // colour_index and split said as such
    hadText: text !== null,
  };
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
