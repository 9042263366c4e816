// Strict request validation driven by the routes' own schemas (the same schemas
// that produce the OpenAPI document). Guarantees: an unknown or repeated query
// parameter, an unknown body field, a missing required value or a value outside its
// schema is a 400 whose message names the parameter (or ids[N]); query strings are
// parsed from text exactly (no coercion of "1.0", " 1" or "+1" into integers).
// A parameter schema with a type or keyword this validator does not enforce makes
// route registration throw at startup (it is never silently treated as a string).
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError } from '../shared/errors';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  enum?: string[];
  default?: unknown;
  'x-message'?: string;
  'x-unicode-pattern'?: string;
}

type Check = (value: unknown) => unknown;

export const compileValidator: FastifySchemaCompiler<Schema> = ({ schema, httpPart }) => {
  const check = httpPart === 'body' ? bodyCheck(schema) : partCheck(schema, httpPart === 'querystring');
  return (data: unknown) => {
    try {
      return { value: check(data) };
    } catch (err) {
      if (err instanceof ApiError) return { error: err };
      throw err;
    }
  };
};

function partCheck(schema: Schema, isQuery: boolean): Check {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  const required = new Set(schema.required ?? []);
  const fields = names.map((n) => [n, valueCheck(n, props[n], true)] as const);
  const accepted = names.length
    ? `accepted parameters: ${names.join(', ')}`
    : 'this endpoint accepts no query parameters';
  return (data) => {
    const input = (data ?? {}) as Record<string, unknown>;
    if (isQuery) {
      for (const key of Object.keys(input)) {
        if (!Object.hasOwn(props, key)) throw bad(`unknown query parameter "${key}"; ${accepted}`);
        if (Array.isArray(input[key])) throw bad(`query parameter "${key}" is given more than once`);
      }
    }
    const out: Record<string, unknown> = {};
    for (const [name, check] of fields) {
      const v = input[name];
      if (v === undefined) {
        if (required.has(name)) throw bad(`${name} is required`);
        if (props[name].default !== undefined) out[name] = props[name].default;
        continue;
      }
      out[name] = check(v);
    }
    return out;
  };
}

function bodyCheck(schema: Schema): Check {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  const fields = names.map((n) => [n, valueCheck(n, props[n], false)] as const);
  const shape = `the body must be a JSON object with ${names.map((n) => `"${n}"`).join(', ')}`;
  return (data) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad(shape);
    const input = data as Record<string, unknown>;
    for (const key of Object.keys(input))
      if (!Object.hasOwn(props, key)) throw bad(`unknown body field "${key}"; ${shape}`);
    const out: Record<string, unknown> = {};
    for (const [name, check] of fields) {
      if (input[name] === undefined) throw bad(`${name} is required; ${shape}`);
      out[name] = check(input[name]);
    }
    return out;
  };
}

/** Keywords each enforced type honours; the others only document (description, examples…). */
const ENFORCED: Record<string, readonly string[]> = {
  integer: ['minimum', 'maximum'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['minLength', 'maxLength', 'pattern', 'enum', 'x-message', 'x-unicode-pattern'],
};
const DOCUMENTING = ['type', 'default', 'description', 'examples', 'title', 'deprecated'];

/** Throws (at startup) when `s` has a type or keyword the checks below do not enforce. */
export function assertEnforced(name: string, s: Schema): void {
  const keywords = s.type === undefined ? undefined : ENFORCED[s.type];
  if (!keywords)
    throw new Error(
      `parameter ${name}: schema type ${JSON.stringify(s.type)} is not enforced by the request validator`,
    );
  for (const k of Object.keys(s)) {
    if (!keywords.includes(k) && !DOCUMENTING.includes(k))
      throw new Error(`parameter ${name}: schema keyword "${k}" is not enforced by the request validator`);
  }
}

/** A checker for one value; `text` when it arrives as URL text (query or path). */
function valueCheck(name: string, s: Schema, text: boolean): (v: unknown, label?: string) => unknown {
  assertEnforced(name, s);
  switch (s.type) {
    case 'integer': {
      const rule = `${name} must be an integer from ${s.minimum} to ${s.maximum}`;
      return (v) => {
        const n = text ? (typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : NaN) : v;
        if (
          typeof n !== 'number' ||
          !Number.isInteger(n) ||
          n < (s.minimum ?? -Infinity) ||
          n > (s.maximum ?? Infinity)
        )
          throw bad(rule);
        return n;
      };
    }
    case 'array': {
      const item = valueCheck(name, s.items ?? {}, false);
      const rule = `${name} must be an array of ${s.minItems} to ${s.maxItems} ${s.items?.pattern ? 'uuids' : 'values'}`;
      return (v) => {
        if (!Array.isArray(v) || v.length < (s.minItems ?? 0) || v.length > (s.maxItems ?? Infinity)) throw bad(rule);
        return v.map((x, i) => item(x, `${name}[${i}]`));
      };
    }
    default: {
      const source = s.pattern ?? s['x-unicode-pattern'];
      const re = source ? new RegExp(source, 'u') : null;
      const oneOf = s.enum
        ? `${name} must be ${s.enum.length === 2 ? `${s.enum[0]} or ${s.enum[1]}` : `one of ${s.enum.join(', ')}`}`
        : '';
      return (v, label = name) => {
        if (typeof v !== 'string') throw bad(`${label} ${s['x-message'] ?? 'must be a string'}`);
        if (s.enum && !s.enum.includes(v)) throw bad(oneOf);
        const len = s.minLength !== undefined || s.maxLength !== undefined ? codePoints(v) : 0;
        if (s.minLength !== undefined && len < s.minLength)
          throw bad(
            s.minLength === 1
              ? `${label} must not be empty`
              : `${label} must be at least ${s.minLength} characters long`,
          );
        if (s.maxLength !== undefined && len > s.maxLength)
          throw bad(`${label} must be at most ${s.maxLength} characters long`);
        if (re && !re.test(v)) throw bad(`${label} ${s['x-message'] ?? `must match ${source}`}`);
        return v;
      };
    }
  }
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      n++;
      i++;
    }
  }
  return n;
}

function bad(message: string): ApiError {
  return new ApiError('bad_request', message);
}
