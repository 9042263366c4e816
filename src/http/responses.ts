// The responses the operations document: what each status means, the headers it can carry
// and the one error body every refusal shares (the ErrorBody component, api-spec.md 2.9).
// Guarantees: these are plain schema annotations read once, when the routes are
// registered (fastify compiles the error body's serializer from them; @fastify/swagger
// publishes them): nothing here runs per request, and fastify neither checks nor writes
// response headers from a schema. The headers are set where they always were
// (access-hooks.ts, answer-encoding.ts, batch-products.ts, catalogue-outage.ts);
// test/openapi-conformance.test.ts checks real answers, headers included, against this.
import { Type, type TSchema } from '@sinclair/typebox';
import { securityHeaders } from './security-headers';

/** The body of every refusal: one shared schema, published as #/components/schemas/ErrorBody. */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status code, repeated.' }),
    error: Type.String({ description: 'HTTP reason phrase, for example Bad Request.' }),
    message: Type.String({
      description:
        'What went wrong, naming the parameter, body field (or index) or id; for an unknown query parameter it lists the parameters the operation accepts.',
    }),
  },
  {
    $id: 'ErrorBody',
    additionalProperties: false,
    description: 'The body of every refusal (api-spec.md 2.9).',
    examples: [
      {
        statusCode: 400,
        error: 'Bad Request',
        message: 'unknown query parameter "limit"; accepted parameters: q, page',
      },
    ],
  },
);

interface Header {
  type: 'integer' | 'string';
  description: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
}
type Headers = Readonly<Record<string, Header>>;

/** The response headers of this API, by the name it sends them with. */
export const HEADERS = {
  trialRemaining: {
    'X-Trial-Requests-Remaining': {
      type: 'integer',
      minimum: 0,
      description:
        "Trial keys only: requests left of the account's trial allowance (100 requests) once this one is counted. Sent on every answer to a request that was charged.",
    },
  },
  itemCount: {
    'X-Item-Count': {
      type: 'integer',
      minimum: 1,
      maximum: 50,
      description: 'Always sent: the calls this request is charged, the number of ids, duplicates included.',
    },
  },
  encoding: {
    Vary: {
      type: 'string',
      enum: ['Accept-Encoding'],
      description: "Always sent: the answer's form depends on the request's Accept-Encoding.",
    },
    'Content-Encoding': {
      type: 'string',
      enum: ['gzip'],
      description:
        'gzip when the request\'s Accept-Encoding accepts gzip (q > 0, by name or by "*"); absent otherwise (plain JSON).',
    },
  },
  retryAfter: {
    'Retry-After': {
      type: 'integer',
      minimum: 0,
      description:
        'Seconds to wait before retrying: sent while the catalogue file is being replaced, or label analysis is busy; absent when access cannot be verified (retry shortly).',
    },
  },
} satisfies Record<string, Headers>;

/** Headers every answer carries (security-headers.ts), documented once in the document's description. */
export function everyAnswerHeaders(): string {
  return Object.entries(securityHeaders('/v1'))
    .map(([name, value]) => `\`${name}: ${value}\``)
    .join(', ');
}

/**
 * A documented response: its body schema (or null for none), what it means, the headers it
 * can carry and an example body. @fastify/swagger reads `x-response-description` and
 * `headers` for the response object and moves a single `examples` entry to the media type.
 */
export function answer(body: TSchema | null, description: string, headers: Headers = {}, example?: unknown): TSchema {
  const schema: Record<string, unknown> = body === null ? { type: 'null' } : { ...body };
  schema['x-response-description'] = description;
  if (Object.keys(headers).length > 0) schema.headers = headers;
  if (example !== undefined) schema.examples = [example];
  return schema as TSchema;
}

/** What each refusal means, as every operation that can give it says it. */
export const REFUSED: Readonly<Record<number, string>> = {
  400: 'The request breaks a rule: a missing, unknown or repeated parameter, a value out of bounds or of the wrong type, or an invalid body. The message names the parameter, body field or index; it is not charged.',
  402: 'Trial expired or payment required: resolve billing on the dashboard.',
  403: 'Missing, invalid or disabled API key.',
  404: 'No record has this id; the message echoes it.',
  413: 'The request body is larger than the operation accepts.',
  415: 'No Content-Type, or one other than application/json.',
  429: 'Trial allowance used up, per-second rate limit exceeded, or the monthly ceiling of the key reached (the message says which). No rate-limit headers are sent: back off and retry with exponential delay.',
  431: 'Request headers larger than 16 KiB: answered by the HTTP layer before the service, and the connection closed.',
  503: 'Access cannot be verified, or the catalogue file is being replaced: retry shortly.',
};

/** Headers each refusal can carry. */
const REFUSAL_HEADERS: Record<number, Headers> = {
  404: HEADERS.trialRemaining, // charged, then not found
  503: HEADERS.retryAfter,
};

/** The refusals every /v1 operation can give (api-spec.md 4 and 7), and any request a 431. */
export const V1_REFUSALS = [400, 402, 403, 429, 431, 503] as const;

/**
 * The refusals of an operation, each the ErrorBody with its meaning; `say` gives an
 * operation's own wording for a status (what a 404 did not find, a 413's limit).
 * The meaning is the response's `description` (beside a $ref, @fastify/swagger keeps no
 * other keyword; the body's example is the component's).
 */
export function refusals(
  statuses: readonly number[],
  say: Readonly<Record<number, string>> = {},
): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    const headers = REFUSAL_HEADERS[status];
    out[status] = Type.Unsafe({
      $ref: ErrorBody.$id,
      description: say[status] ?? REFUSED[status],
      ...(headers ? { headers } : {}),
    });
  }
  return out;
}
