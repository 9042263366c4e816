// What an import reads from each row: the product fields and where they come from.
// Guarantees: a preset or a --map names, for each field, the columns tried in order
// (the first non-empty one wins); a mapping that names an unknown field is refused.

export const FIELDS = ['barcode', 'name', 'brand', 'category', 'image_url', 'origin', 'ingredients'] as const;
export type Field = (typeof FIELDS)[number];
export type Mapping = Record<Field, string[]>;

/**
 * Open Beauty Facts: the tab-separated CSV export and the JSONL product dump use the
 * same field names. Origin is where the product is made (manufacturing places, then
 * the origins of its ingredients), never the countries where it is sold.
 */
export const OBF: Mapping = {
  barcode: ['code'],
  name: ['product_name_en', 'product_name'],
  brand: ['brands'],
  category: ['categories_tags', 'categories_en', 'categories'],
  image_url: ['image_url', 'image_front_url'],
  origin: ['manufacturing_places', 'origins'],
  ingredients: ['ingredients_text_en', 'ingredients_text'],
};

/** The generic table: columns named like the fields. */
export const GENERIC: Mapping = {
  barcode: ['barcode', 'gtin', 'ean', 'upc'],
  name: ['name', 'product_name'],
  brand: ['brand'],
  category: ['category'],
  image_url: ['image_url', 'image'],
  origin: ['origin'],
  ingredients: ['ingredients', 'ingredients_text', 'inci'],
};

export const PRESETS: Record<string, Mapping> = { obf: OBF, generic: GENERIC };

/** A preset with `field=column[|column…],…` entries laid over it. */
export function mappingFrom(preset: string, map: string | undefined): Mapping {
  const base = PRESETS[preset];
  if (base === undefined) throw new Error(`unknown preset "${preset}" (obf or generic)`);
  const out: Mapping = { ...base };
  for (const part of (map ?? '').split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const field = part.slice(0, eq).trim() as Field;
    if (eq < 0 || !FIELDS.includes(field))
      throw new Error(`--map: "${part.trim()}" is not field=column (fields: ${FIELDS.join(', ')})`);
    out[field] = part
      .slice(eq + 1)
      .split('|')
      .map((c) => c.trim())
      .filter((c) => c !== '');
  }
  return out;
}

/** The first non-empty value of the field's columns, trimmed; null when none. */
export function valueOf(row: Readonly<Record<string, unknown>>, columns: readonly string[]): string | null {
  for (const c of columns) {
    const v = row[c];
    const s = Array.isArray(v) ? v.join(',') : typeof v === 'string' || typeof v === 'number' ? String(v) : '';
    if (s.trim() !== '') return s.trim();
  }
  return null;
}
