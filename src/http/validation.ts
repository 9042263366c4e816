// The request validator's message formatter: turns the schema engine's errors for one
// refused request part (./validator.ts) into the specification's message (api-spec.md
// 3, 400): it names the parameter, body field or array index (ids[N]), lists the
// accepted parameters for an unknown one and says when a parameter is given twice.
// When a part breaks several rules, the message is the first of: an unknown or
// repeated parameter (in the request's order), then the schema's fields in their order,
// each field's rules in the order type, enum, length, pattern.
import type { ErrorObject } from 'ajv';

/** The request parts routes validate. */
export type Part = 'querystring' | 'params' | 'body';

/** The keywords a parameter or body field schema may use (./validator.ts refuses others at startup). */
export interface FieldSchema {
  type?: string;
  items?: FieldSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  enum?: string[];
  default?: unknown;
  /** What a value breaking the type or pattern "must be", after the field's name. */
  'x-message'?: string;
  /** A pattern applied with Unicode semantics, in place of `pattern` (which it implies; schemas.ts). */
  'x-unicode-pattern'?: string;
}

export interface PartSchema {
  properties?: Record<string, FieldSchema>;
  required?: string[];
}

/** The message for a part the engine refused with `errors` (data as it was validated). */
export function refusalMessage(schema: PartSchema, part: Part, data: unknown, errors: readonly ErrorObject[]): string {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  const shape = `the body must be a JSON object with ${names.map((n) => `"${n}"`).join(', ')}`;
  const early = part === 'body' ? bodyShape(props, data, shape) : part === 'querystring' ? queryShape(props, data) : '';
  if (early) return early;
  for (const name of names) {
    const own = errors.filter((e) =>
      e.keyword === 'required' ? e.params.missingProperty === name : fieldOf(e) === name,
    );
    if (own.length === 0) continue;
    if (own.some((e) => e.keyword === 'required'))
      return part === 'body' ? `${name} is required; ${shape}` : `${name} is required`;
    return valueMessage(name, props[name], own);
  }
  return `the request ${part === 'querystring' ? 'query' : part} is invalid`; // not reached: every error names a field
}

/** A body that is not an object, or has an unknown field. */
function bodyShape(props: Record<string, FieldSchema>, data: unknown, shape: string): string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return shape;
  const unknown = Object.keys(data).find((k) => !Object.hasOwn(props, k));
  return unknown === undefined ? '' : `unknown body field "${unknown}"; ${shape}`;
}

/** The first query parameter (in request order) that is unknown or given more than once. */
function queryShape(props: Record<string, FieldSchema>, data: unknown): string {
  const input = (data ?? {}) as Record<string, unknown>;
  const names = Object.keys(props);
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(props, key))
      return `unknown query parameter "${key}"; ${
        names.length ? `accepted parameters: ${names.join(', ')}` : 'this endpoint accepts no query parameters'
      }`;
    if (Array.isArray(input[key]) && props[key].type !== 'array')
      return `query parameter "${key}" is given more than once`;
  }
  return '';
}

/** The top-level field an error is about ("/ids/5" → "ids"). */
function fieldOf(e: ErrorObject): string | undefined {
  return e.instancePath.split('/')[1];
}

function valueMessage(name: string, s: FieldSchema, errors: readonly ErrorObject[]): string {
  if (s.type === 'integer') return `${name} must be an integer from ${s.minimum} to ${s.maximum}`;
  if (s.type !== 'array') return stringMessage(name, name, s, errors);
  if (errors.some((e) => e.instancePath.split('/').length === 2))
    return `${name} must be an array of ${s.minItems} to ${s.maxItems} ${s.items?.pattern ? 'uuids' : 'values'}`;
  const index = Math.min(...errors.map((e) => Number(e.instancePath.split('/')[2])));
  const atIndex = errors.filter((e) => e.instancePath === `/${name}/${index}`);
  return stringMessage(`${name}[${index}]`, name, s.items ?? {}, atIndex);
}

/** A string value's first broken rule; `label` names it (ids[5]), enum messages name the field. */
function stringMessage(label: string, name: string, s: FieldSchema, errors: readonly ErrorObject[]): string {
  const broke = (keyword: string) => errors.some((e) => e.keyword === keyword);
  if (broke('type')) return `${label} ${s['x-message'] ?? 'must be a string'}`;
  if (broke('enum') && s.enum)
    return `${name} must be ${s.enum.length === 2 ? `${s.enum[0]} or ${s.enum[1]}` : `one of ${s.enum.join(', ')}`}`;
  if (broke('minLength'))
    return s.minLength === 1
      ? `${label} must not be empty`
      : `${label} must be at least ${s.minLength} characters long`;
  if (broke('maxLength')) return `${label} must be at most ${s.maxLength} characters long`;
  return `${label} ${s['x-message'] ?? `must match ${s.pattern ?? s['x-unicode-pattern']}`}`;
}
