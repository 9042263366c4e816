// Line-local rules of catalogue-source.md: JSON shape, required and unknown fields,
// types, enums, uuids, ranges, URLs, barcodes, and label entries naming a known ingredient. Guarantees: a line is accepted only
// if it breaks no rule, and each broken rule is reported once, as a message that
// names the field (nested ones as `ingredients[3].concentration`) and its value.
// Rules that span lines (duplicates, references, barcode collisions) live elsewhere.
import {
  INGREDIENT_CATEGORIES,
  LIMITS,
  PRODUCT_CATEGORIES,
  RATINGS,
  SourceIngredientSchema,
  SourceProductEntrySchema,
  SourceProductSchema,
  validIngredient,
  validProduct,
  type SourceIngredient,
  type SourceProduct,
} from '../source/records';
import { gtinKey, isBarcode, isUuid } from '../shared/text';

export type Report = (message: string) => void;
type Obj = Record<string, unknown>;

/** The fields of each record, in the order of their one definition (src/source/records.ts). */
export const INGREDIENT_FIELDS = Object.keys(SourceIngredientSchema.properties);
export const PRODUCT_FIELDS = Object.keys(SourceProductSchema.properties);
export const ENTRY_FIELDS = Object.keys(SourceProductEntrySchema.properties);

/** The JSON object on a line, or null after reporting why it is not one. */
export function parseLine(text: string, report: Report): Obj | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    report(`malformed JSON: ${(err as Error).message}`);
    return null;
  }
  if (!isObject(value)) {
    report(`line must be a JSON object, got ${show(value)}`);
    return null;
  }
  return value;
}

/**
 * Checks every line-local rule of an ingredients.jsonl line; true when it passes, and
 * then `o` is an ingredient record as its schema (src/source/records.ts) describes it.
 */
export function checkIngredient(o: Obj, report: Report): o is SourceIngredient {
  const r = counting(report);
  checkKeys(o, INGREDIENT_FIELDS, '', r);
  const has = (k: string) => Object.hasOwn(o, k);
  if (has('id')) uuid(o.id, 'id', r);
  if (has('name')) requiredText(o.name, 'name', r);
  if (has('rating')) oneOf(o.rating, 'rating', RATINGS, r);
  if (has('irritancy')) range(o.irritancy, 'irritancy', r);
  if (has('comedogenicity')) range(o.comedogenicity, 'comedogenicity', r);
  if (has('functions')) functions(o.functions, r);
  for (const k of ['cas_number', 'ec_number', 'ph_eur_name', 'iupac_name', 'other_names'])
    if (has(k)) optionalText(o[k], k, r);
  if (has('category')) oneOf(o.category, 'category', INGREDIENT_CATEGORIES, r);
  return passes(r, validIngredient(o));
}

/**
 * Checks every line-local rule of a products.jsonl line, and that each label entry's id
 * is known (`known` gets the lower-cased id); true when it passes, and then `o` is a
 * product record as its schema (src/source/records.ts) describes it.
 */
export function checkProduct(o: Obj, known: (id: string) => boolean, report: Report): o is SourceProduct {
  const r = counting(report);
  checkKeys(o, PRODUCT_FIELDS, '', r);
  const has = (k: string) => Object.hasOwn(o, k);
  if (has('id')) uuid(o.id, 'id', r);
  if (has('brand')) optionalText(o.brand, 'brand', r);
  if (has('name')) optionalText(o.name, 'name', r);
  if (has('category')) oneOf(o.category, 'category', PRODUCT_CATEGORIES, r);
  if (has('origin')) optionalText(o.origin, 'origin', r);
  if (has('image_url')) imageUrl(o.image_url, r);
  if (has('barcodes')) barcodes(o.barcodes, r);
  if (has('ingredients')) entries(o.ingredients, known, r);
  return passes(r, validProduct(o));
}

/** A value as it appeared in the source (JSON), shortened when long. */
export function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}

/**
 * True when no rule was broken and the compiled schema agrees. The rules above are at
 * least as strict as the schema, so a disagreement is a bug here; it is still reported
 * rather than dropping the line silently.
 */
function passes(r: Report & { count: number }, schemaAccepts: boolean): boolean {
  if (r.count === 0 && !schemaAccepts) r('does not match its record schema (src/source/records.ts)');
  return r.count === 0;
}

function counting(report: Report): Report & { count: number } {
  const r = ((m: string) => {
    r.count++;
    report(m);
  }) as Report & { count: number };
  r.count = 0;
  return r;
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function blank(s: string): boolean {
  return s.trim() === '';
}

function checkKeys(o: Obj, fields: readonly string[], prefix: string, r: Report): void {
  for (const f of fields) if (!Object.hasOwn(o, f)) r(`${prefix}missing field "${f}"`);
  for (const k of Object.keys(o)) if (!fields.includes(k)) r(`${prefix}unknown field ${JSON.stringify(k)}`);
}

function uuid(v: unknown, field: string, r: Report): void {
  if (!isUuid(v)) r(`${field} ${show(v)} is not a uuid (8-4-4-4-12 hex digits)`);
}

function requiredText(v: unknown, field: string, r: Report): void {
  if (typeof v !== 'string') r(`${field} must be a string, got ${show(v)}`);
  else if (blank(v)) r(`${field} ${show(v)} must not be empty`);
  else maxLength(v, field, r);
}

/** The documented length limit of a text field (LIMITS, catalogue-source.md "Limits"). */
function limitOf(field: string): number {
  if (field === 'other_names') return LIMITS.otherNames;
  if (field === 'name' || field === 'brand') return LIMITS.name;
  return LIMITS.text;
}

function maxLength(v: string, field: string, r: Report, max = limitOf(field)): void {
  if (v.length > max)
    r(
      `${field} ${show(v)} is ${v.length.toLocaleString('en-US')} characters long; the limit is ${max.toLocaleString('en-US')}`,
    );
}

function maxItems(v: unknown[], field: string, max: number, r: Report): void {
  if (v.length > max)
    r(`${field} has ${v.length.toLocaleString('en-US')} items; the limit is ${max.toLocaleString('en-US')}`);
}

function optionalText(v: unknown, field: string, r: Report): void {
  if (v === null) return;
  if (typeof v !== 'string') r(`${field} must be a string or null, got ${show(v)}`);
  else if (blank(v)) r(`${field} ${show(v)} must not be empty (use null for none)`);
  else maxLength(v, field, r);
}

function oneOf(v: unknown, field: string, values: readonly string[], r: Report): void {
  if (v === null) return;
  if (typeof v !== 'string' || !values.includes(v)) r(`${field} ${show(v)} is not one of ${values.join(', ')}`);
}

const RANGE = /^([0-5])(?:-([0-5]))?$/;
function range(v: unknown, field: string, r: Report): void {
  if (v === null) return;
  const m = typeof v === 'string' ? RANGE.exec(v) : null;
  if (!m || (m[2] !== undefined && +m[1] >= +m[2])) {
    r(`${field} ${show(v)} is not "N" or "N-M" with integers 0 <= N < M <= 5 (or null)`);
  }
}

function functions(v: unknown, r: Report): void {
  if (!Array.isArray(v)) return r(`functions must be an array of strings, got ${show(v)}`);
  maxItems(v, 'functions', LIMITS.functions, r);
  const seen = new Map<string, number>();
  v.forEach((f, i) => {
    if (typeof f !== 'string' || blank(f)) return r(`functions[${i}] ${show(f)} is not a non-empty string`);
    maxLength(f, `functions[${i}]`, r);
    const first = seen.get(f);
    if (first !== undefined) r(`functions[${i}] ${show(f)} repeats functions[${first}]`);
    else seen.set(f, i);
  });
}

function imageUrl(v: unknown, r: Report): void {
  if (v === null) return;
  if (typeof v === 'string' && v.length > LIMITS.url) return maxLength(v, 'image_url', r, LIMITS.url);
  if (typeof v === 'string' && /^https?:\/\//i.test(v) && URL.canParse(v)) return;
  r(`image_url ${show(v)} is not an absolute http or https URL (or null)`);
}

function barcodes(v: unknown, r: Report): void {
  if (!Array.isArray(v)) return r(`barcodes must be an array of strings, got ${show(v)}`);
  maxItems(v, 'barcodes', LIMITS.barcodes, r);
  const seen = new Map<string, number>();
  v.forEach((code, i) => {
    if (!isBarcode(code)) return r(`barcodes[${i}] ${show(code)} is not a string of 8 to 14 digits`);
    const key = gtinKey(code);
    const first = seen.get(key);
    if (first === undefined) return void seen.set(key, i);
    r(
      `barcodes[${i}] ${show(code)} is the same code as barcodes[${first}] ${show(v[first])} once leading zeros are removed`,
    );
  });
}

function entries(v: unknown, known: (id: string) => boolean, r: Report): void {
  if (!Array.isArray(v)) return r(`ingredients must be an array of objects, got ${show(v)}`);
  maxItems(v, 'ingredients', LIMITS.ingredients, r);
  v.forEach((e, i) => {
    if (plainEntry(e, known)) return; // the common case, checked without making the names of its fields
    const at = `ingredients[${i}]`;
    if (!isObject(e)) return r(`${at} must be an object, got ${show(e)}`);
    checkKeys(e, ENTRY_FIELDS, `${at}: `, r);
    if (Object.hasOwn(e, 'id')) entryId(e.id, `${at}.id`, known, r);
    if (Object.hasOwn(e, 'label_name')) requiredText(e.label_name, `${at}.label_name`, r);
    if (Object.hasOwn(e, 'concentration') && !isConcentration(e.concentration)) {
      r(`${at}.concentration ${show(e.concentration)} is not a number with 0 < value <= 100 (or null)`);
    }
  });
}

/**
 * True when a label entry breaks none of the rules `entries` checks (exactly its fields, a known
 * id, a label_name that is a non-blank string within the limit, a null or valid concentration);
 * `known` is asked last, only when everything else holds.
 */
function plainEntry(e: unknown, known: (id: string) => boolean): boolean {
  if (!isObject(e)) return false;
  // every field present and no more fields than those: exactly its fields
  if (Object.keys(e).length !== ENTRY_FIELDS.length || !ENTRY_FIELDS.every((f) => Object.hasOwn(e, f))) return false;
  const { id, label_name: label, concentration } = e;
  if (typeof label !== 'string' || label.length > LIMITS.text || blank(label)) return false;
  if (!isConcentration(concentration)) return false;
  return typeof id === 'string' && known(id.toLowerCase());
}

/** A label entry's concentration: null, or a percentage with 0 < value <= 100. */
function isConcentration(c: unknown): boolean {
  return c === null || (typeof c === 'number' && c > 0 && c <= 100);
}

function entryId(v: unknown, field: string, known: (id: string) => boolean, r: Report): void {
  if (typeof v === 'string' && known(v.toLowerCase())) return; // known ids are valid uuids
  if (!isUuid(v)) r(`${field} ${show(v)} is not a uuid (8-4-4-4-12 hex digits)`);
  else r(`${field} ${show(v)} is not the id of any line in ingredients.jsonl`);
}
