// Checking one source record against the contract, shared by `catalogue build` and
// `catalogue import`: the compiled checker of its schema (src/source/records.ts; for a
// product, less the uuid pattern of its entries' ids, which finding each among the
// ingredients' ids stands for; for an ingredient, less its functions' uniqueness, which a Set
// of them stands for) first, and only when it refuses, or a rule beyond the schema is broken,
// the explanation of every broken rule (source/explain.ts). Rules beyond the schema: a
// product's barcodes differ once leading zeros are removed, and each label entry names a known
// ingredient. Guarantees: a record is accepted exactly when its schema and those rules accept
// it; an accepted product comes with the ord of each label entry's ingredient, in entry order.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { gtinKey } from '../shared/text';
import { explain, show, type Report, type Rule, type Rules } from './explain';
import {
  SourceIngredientFirstCheck,
  SourceIngredientSchema,
  SourceProductEntrySchema,
  SourceProductKnownIdsCheck,
  SourceProductSchema,
  type SourceIngredient,
  type SourceProduct,
} from './records';

export { show, type Report } from './explain';

const BARCODE = SourceProductSchema.properties.barcodes.items;
const ENTRY_ID = SourceProductEntrySchema.properties.id;

/**
 * The ord of the ingredient with this id (compared ignoring case), or undefined when there is
 * none. Every ingredient id is a uuid, so an id it knows is one: lower-casing turns no other
 * character into a hex digit or a hyphen.
 */
export type OrdOf = (id: string) => number | undefined;

/** True when `o` is an ingredient record; otherwise every broken rule was reported. */
export function checkIngredient(o: unknown, report: Report): o is SourceIngredient {
  if (SourceIngredientFirstCheck.Check(o) && new Set(o.functions).size === o.functions.length) return true;
  explainAll(SourceIngredientSchema, o, report, new Map());
  return false;
}

/**
 * The ord of each label entry's ingredient when `o` is a product record whose entries all
 * name known ingredients; otherwise null, after reporting every broken rule.
 */
export function checkProduct(o: unknown, ordOf: OrdOf, report: Report): number[] | null {
  // Entry ids are not matched against the uuid pattern here: each is looked up (entryOrds), and
  // a known id is a uuid (OrdOf); a record refused goes through the whole schema below.
  if (SourceProductKnownIdsCheck.Check(o) && distinctCodes(o.barcodes)) {
    const ords = entryOrds(o, ordOf);
    if (ords !== null) return ords;
  }
  const rules = new Map<TSchema, Rule>([
    [SourceProductSchema.properties.barcodes, sameCodes],
    [ENTRY_ID, knownId(ordOf)],
  ]);
  explainAll(SourceProductSchema, o, report, rules);
  return null;
}

function entryOrds(p: SourceProduct, ordOf: OrdOf): number[] | null {
  const ords = new Array<number>(p.ingredients.length);
  for (let i = 0; i < ords.length; i++) {
    const ord = ordOf(p.ingredients[i].id);
    if (ord === undefined) return null;
    ords[i] = ord;
  }
  return ords;
}

/** Explains why `o` was refused; a refusal the explanation cannot name is still reported. */
function explainAll(schema: TSchema, o: unknown, report: Report, rules: Rules): void {
  let count = 0;
  explain(schema, o, (m) => (count++, report(m)), rules);
  if (count === 0) report('does not match its record schema (src/source/records.ts)');
}

function distinctCodes(codes: readonly string[]): boolean {
  if (codes.length < 2) return true;
  return new Set(codes.map(gtinKey)).size === codes.length;
}

/** Each barcode of a product differs from its others once leading zeros are removed. */
function sameCodes(v: unknown, field: string, report: Report): void {
  if (!Array.isArray(v)) return;
  const seen = new Map<string, number>();
  v.forEach((code: unknown, i) => {
    if (typeof code !== 'string' || !Value.Check(BARCODE, code)) return;
    const first = seen.get(gtinKey(code));
    if (first === undefined) return void seen.set(gtinKey(code), i);
    report(
      `${field}[${i}] ${show(code)} is the same code as ${field}[${first}] ${show(v[first])} once leading zeros are removed`,
    );
  });
}

/** A label entry's id, once a uuid, names a known ingredient. */
function knownId(ordOf: OrdOf): Rule {
  return (v, field, report) => {
    if (typeof v === 'string' && Value.Check(ENTRY_ID, v) && ordOf(v) === undefined)
      report(`${field} ${show(v)} is not the id of any line in ingredients.jsonl`);
  };
}
