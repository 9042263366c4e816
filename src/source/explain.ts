// Why a value breaks its source record schema (src/source/records.ts), in words a curator
// can act on: each broken rule once, as `field message` naming the field (nested ones as
// `ingredients[3].concentration`) and the value as it appeared (JSON). Guarantees: the
// messages are read off the schema itself (its field names, enumerations, limits and each
// leaf's `broken` words), never from a second copy of the rules; a value that passes the
// schema gets no message; `rules` adds checks a schema cannot state, run right after the
// node they extend, so every message of a record comes in field order.
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export type Report = (message: string) => void;
/** A check a schema cannot state, run on the value of the schema node it is keyed by. */
export type Rule = (value: unknown, field: string, report: Report) => void;
export type Rules = ReadonlyMap<TSchema, Rule>;

const NO_RULES: Rules = new Map();

/** A value as it appeared in the source (JSON), shortened when long. */
export function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}

/** Reports every rule of `schema` (an object schema) that the record `o` breaks, in field order. */
export function explain(schema: TSchema, o: unknown, report: Report, rules: Rules = NO_RULES): void {
  explainNode(schema, o, '', false, report, rules);
}

/** Reports every rule of `schema` (any node of a record schema) that `v`, the value of `field`, breaks. */
export function explainField(schema: TSchema, v: unknown, field: string, report: Report): void {
  explainNode(schema, v, field, false, report, NO_RULES);
}

function explainNode(s: TSchema, v: unknown, field: string, nullable: boolean, r: Report, rules: Rules): void {
  const inner = nonNull(s);
  if (inner !== undefined) {
    if (v !== null) explainNode(inner, v, field, true, r, rules);
  } else if (s[Kind] === 'Object') explainObject(s, v, field, r, rules);
  else if (s[Kind] === 'Array') explainArray(s, v, field, r, rules);
  else if (s[Kind] === 'String') explainString(s, v, field, nullable, r);
  else if (s[Kind] === 'Union') {
    const values = (s.anyOf as TSchema[]).map((m) => m.const as string);
    if (!Value.Check(s, v)) r(`${field} ${show(v)} is not one of ${values.join(', ')}`);
  } else if (!Value.Check(s, v)) r(`${field} ${show(v)} ${s.broken}`);
  rules.get(s)?.(v, field, r);
}

/** The non-null member of `T | null`, or undefined when `s` is not such a union. */
function nonNull(s: TSchema): TSchema | undefined {
  if (s[Kind] !== 'Union') return undefined;
  const members = s.anyOf as TSchema[];
  return members.length === 2 && members[1][Kind] === 'Null' ? members[0] : undefined;
}

function explainObject(s: TSchema, v: unknown, field: string, r: Report, rules: Rules): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return r(`${field} must be an object, got ${show(v)}`);
  const o = v as Record<string, unknown>;
  const properties = s.properties as Record<string, TSchema>;
  const fields = Object.keys(properties);
  const prefix = field === '' ? '' : `${field}: `;
  for (const f of fields) if (!Object.hasOwn(o, f)) r(`${prefix}missing field "${f}"`);
  for (const k of Object.keys(o)) if (!Object.hasOwn(properties, k)) r(`${prefix}unknown field ${JSON.stringify(k)}`);
  for (const f of fields) {
    if (Object.hasOwn(o, f)) explainNode(properties[f], o[f], field === '' ? f : `${field}.${f}`, false, r, rules);
  }
}

function explainArray(s: TSchema, v: unknown, field: string, r: Report, rules: Rules): void {
  const items = s.items as TSchema;
  if (!Array.isArray(v)) {
    return r(`${field} must be an array of ${items[Kind] === 'Object' ? 'objects' : 'strings'}, got ${show(v)}`);
  }
  const max = s.maxItems as number | undefined;
  if (max !== undefined && v.length > max) r(`${field} has ${count(v.length)} items; the limit is ${count(max)}`);
  const seen = new Map<string, number>();
  v.forEach((item, i) => {
    const at = `${field}[${i}]`;
    explainNode(items, item, at, false, r, rules);
    if (s.uniqueItems !== true || !Value.Check(items, item)) return;
    const key = JSON.stringify(item);
    const first = seen.get(key);
    if (first !== undefined) r(`${at} ${show(item)} repeats ${field}[${first}]`);
    else seen.set(key, i);
  });
}

function explainString(s: TSchema, v: unknown, field: string, nullable: boolean, r: Report): void {
  if (typeof v !== 'string') {
    return r(
      s.broken
        ? `${field} ${show(v)} ${s.broken}`
        : `${field} must be a string${nullable ? ' or null' : ''}, got ${show(v)}`,
    );
  }
  const max = s.maxLength as number | undefined;
  if (max !== undefined && v.length > max) {
    return r(`${field} ${show(v)} is ${count(v.length)} characters long; the limit is ${count(max)}`);
  }
  if (Value.Check(s, v)) return;
  if (s.broken === undefined && s.minLength === 1)
    r(`${field} ${show(v)} must not be empty${nullable ? ' (use null for none)' : ''}`);
  else r(`${field} ${show(v)} ${s.broken}`);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
