// Request validation by the schema engine (Ajv) from the routes' own schemas, the same
// schemas that produce the OpenAPI document; ./validation.ts words the refusals.
// Guarantees: an unknown or repeated query parameter, an unknown body field, a missing
// required value (required exactly when the schema says so) or a value outside its
// schema is a 400 naming it; no coercion: URL text becomes an integer only when it is 1
// to 9 ASCII digits (never "1.0", " 1" or "+1"); a string's minLength and maxLength count
// code points, as the engine does, counted only when the UTF-16 length does not decide. A
// parameter schema with a type or keyword the formatter has no message for makes route
// registration throw at startup.
import Ajv, { type ValidateFunction } from 'ajv';
import ucs2length from 'ajv/dist/runtime/ucs2length';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError } from '../shared/errors';
import { refusalMessage, type FieldSchema, type Part, type PartSchema } from './validation';

/** allErrors: the formatter picks the error the specification's order puts first. */
const engine = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true });
engine.addKeyword({ keyword: 'x-message', schemaType: 'string' });

/**
 * minLength and maxLength as the engine's own: a length in code points (ucs2length), the error
 * named by the keyword. A string of n UTF-16 code units holds n/2 to n code points, so the
 * code points are counted only when n does not decide: the engine's keywords count them on every
 * string, a pass over a 100,000-character label text (about 2 ms) on the request thread.
 */
function lengthKeyword(keyword: 'minLength' | 'maxLength', within: (codePoints: number, limit: number) => boolean) {
  engine.removeKeyword(keyword);
  engine.addKeyword({
    keyword,
    type: 'string',
    schemaType: 'number',
    validate: (limit: number, data: string) => {
      const n = data.length;
      if (within(n, limit) && within(Math.ceil(n / 2), limit)) return true;
      if (!within(n, limit) && !within(Math.ceil(n / 2), limit)) return false;
      return within(ucs2length(data), limit);
    },
  });
}
lengthKeyword('minLength', (codePoints, limit) => codePoints >= limit);
lengthKeyword('maxLength', (codePoints, limit) => codePoints <= limit);

/** An integer as URL text: digits only, at most 9 (so always a safe integer). */
const DIGITS = /^[0-9]{1,9}$/;

export const compileValidator: FastifySchemaCompiler<PartSchema> = ({ schema, httpPart }) => {
  const part = (httpPart === 'body' || httpPart === 'params' ? httpPart : 'querystring') satisfies Part;
  const props = schema.properties ?? {};
  for (const [name, s] of Object.entries(props)) assertEnforced(name, s);
  const validate: ValidateFunction = engine.compile(engineSchema(schema));
  const integers = part === 'body' ? [] : Object.keys(props).filter((n) => props[n].type === 'integer');
  return (data: unknown) => {
    const input = part === 'body' ? data : ((data ?? {}) as Record<string, unknown>);
    for (const name of integers) fromText(input as Record<string, unknown>, name);
    if (validate(input)) return { value: input };
    return { error: new ApiError('bad_request', refusalMessage(schema, part, input, validate.errors ?? [])) };
  };
};

/** Turns a URL text integer into a number; any other text is left for the engine to refuse. */
function fromText(input: Record<string, unknown>, name: string): void {
  const v = input[name];
  if (typeof v === 'string' && DIGITS.test(v)) input[name] = Number(v);
}

/**
 * The part's schema as the engine checks it: closed to unknown fields, Unicode patterns as
 * patterns. A field with both keeps only its x-unicode-pattern, which must imply the
 * portable `pattern` it is published with (schemas.ts NOT_ONLY_PUNCTUATION; a test checks it).
 */
function engineSchema(schema: PartSchema): object {
  const properties: Record<string, object> = {};
  for (const [name, s] of Object.entries(schema.properties ?? {})) properties[name] = engineField(s);
  return { type: 'object', properties, required: schema.required ?? [], additionalProperties: false };
}

function engineField(s: FieldSchema): object {
  const { 'x-unicode-pattern': unicode, items, ...rest } = s;
  const out: Record<string, unknown> = { ...rest };
  if (items !== undefined) out.items = engineField(items);
  if (unicode !== undefined) out.pattern = unicode; // the engine compiles patterns with the u flag
  return out;
}

/** Keywords each type's messages cover; the others only document (description, examples…). */
const ENFORCED: Record<string, readonly string[]> = {
  integer: ['minimum', 'maximum'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['minLength', 'maxLength', 'pattern', 'enum', 'x-message', 'x-unicode-pattern'],
};
const DOCUMENTING = ['type', 'default', 'description', 'examples', 'title', 'deprecated'];

/** Throws (at startup) when `s` has a type or keyword this validator and its messages do not cover. */
export function assertEnforced(name: string, s: FieldSchema): void {
  const keywords = s.type === undefined ? undefined : ENFORCED[s.type];
  if (!keywords)
    throw new Error(
      `parameter ${name}: schema type ${JSON.stringify(s.type)} is not enforced by the request validator`,
    );
  for (const k of Object.keys(s)) {
    if (!keywords.includes(k) && !DOCUMENTING.includes(k))
      throw new Error(`parameter ${name}: schema keyword "${k}" is not enforced by the request validator`);
  }
  if (s.items !== undefined) assertEnforced(name, s.items);
}
