// POST /v1/labels/analyze — one label's ingredient text in; its entries in label order,
// each joined to an ingredient of the served catalogue or unrecognised, the five
// contains_* flags and the counts out (api-spec.md 4.9). Guarantees: JSON bodies only
// (415 otherwise), strict body {"text"} of 1 to 100,000 characters holding a letter or
// digit (400 naming the field); charged as one call like every /v1 request; the text is
// analysed on a label worker thread (src/catalogue/label-pool.ts), never on the request
// thread; when as many analyses as the pool admits are running or waiting, a 503 with
// Retry-After (not charged: admission comes before the allowances are charged).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../api';
import { LETTER_OR_DIGIT_RULE, LabelAnalysis, NO_QUERY, holdsLetterOrDigit } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { EXAMPLE_LABEL_TEXT, LABEL_ANALYSIS } from '../examples';
import { sendJson } from '../json';
import { ApiError } from '../../shared/errors';
import { busyError } from '../../catalogue/label-pool';

export const MAX_LABEL_TEXT = 100_000;
/** 100,000 characters of any kind, JSON-escaped (6 bytes each at most), fit. */
export const LABEL_BODY_LIMIT = 640 * 1024;

const Body = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: MAX_LABEL_TEXT,
      ...holdsLetterOrDigit('must be a string holding at least one letter or digit'),
      description: `One label's ingredient text as printed (line breaks allowed), 1 to 100,000 characters. ${LETTER_OR_DIGIT_RULE}`,
    }),
  },
  {
    additionalProperties: false,
    description: `A JSON object with "text" and no other field, of at most ${LABEL_BODY_LIMIT / 1024} KiB.`,
    examples: [{ text: EXAMPLE_LABEL_TEXT }],
  },
);

/** The requests holding a place in the label pool (LabelPool.admit), each given back once. */
const admitted = new WeakSet<FastifyRequest>();

export function analyzeLabel(app: Api): void {
  const release = (req: FastifyRequest) => {
    if (admitted.delete(req)) app.labels.release();
  };
  app.post(
    '/v1/labels/analyze',
    {
      schema: {
        operationId: 'analyzeLabel',
        summary: 'Analyse an ingredient label',
        description: `Parses label text and joins each entry to the catalogue’s ingredients; computes the contains_* flags as the build does. Charged one call, whatever the length. Needs Content-Type: application/json; bodies over ${LABEL_BODY_LIMIT / 1024} KiB are refused with 413. ${NO_QUERY}`,
        tags: ['labels'],
        body: Body,
        querystring: Type.Object({}),
        response: {
          200: answer(
            LabelAnalysis,
            'The label’s entries in label order, each joined to an ingredient or unrecognised; a label joining nothing is a 200 too.',
            HEADERS.trialRemaining,
            LABEL_ANALYSIS,
          ),
          ...refusals([...V1_REFUSALS, 413, 415], {
            413: `The request body is larger than ${LABEL_BODY_LIMIT / 1024} KiB.`,
            503: 'Access cannot be verified, or the catalogue file is being replaced, or label analysis is busy: as many labels as the server analyses at once are running or waiting (this one is not charged). Retry shortly.',
          }),
        },
      },
      bodyLimit: LABEL_BODY_LIMIT,
      preValidation: (req, reply, done) => {
        if (req.headers['content-type'] === undefined)
          return done(new ApiError('unsupported_media_type', 'Content-Type must be application/json'));
        if (!app.labels.admit()) {
          reply.header('retry-after', '1');
          return done(busyError());
        }
        admitted.add(req);
        done();
      },
      // Admitted, then refused before the handler ran (400; the allowances' 402 and 429): the place is given back.
      onResponse: (req, _reply, done) => {
        release(req);
        done();
      },
    },
    async (req, reply) => {
      try {
        const answer = await app.labels.analyseForReply(app.catalogue(), req.body.text);
        // The bytes may sit in an answer slot of the pool: given back once written, or the connection closed.
        if (reply.raw.destroyed || reply.raw.socket?.destroyed === true) answer.sent();
        else reply.raw.once('close', () => answer.sent());
        // A stream has no length of its own: the answer's, so it goes out as a buffer would (not chunked).
        if (!Buffer.isBuffer(answer.body)) reply.header('content-length', String(answer.length));
        sendJson(reply, answer.body);
        return reply; // a stream is still being written when the handler returns
      } finally {
        release(req);
      }
    },
  );
}
