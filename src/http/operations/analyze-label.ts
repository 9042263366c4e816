// POST /v1/labels/analyze — one label's ingredient text in; its entries in label order,
// each joined to an ingredient of the served catalogue or unrecognised, the five
// contains_* flags and the counts out (api-spec.md 4.9). Guarantees: JSON bodies only
// (415 otherwise), strict body {"text"} of 1 to 100,000 characters holding a letter or
// digit (400 naming the field); charged as one call like every /v1 request; a long text is
// analysed in slices with other requests served between them (read model analyseLabelInSlices).
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { LETTER_OR_DIGIT_RULE, LabelAnalysis, NO_QUERY, holdsLetterOrDigit } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { EXAMPLE_LABEL_TEXT, LABEL_ANALYSIS } from '../examples';
import { sendJson } from '../json';
import { ApiError } from '../../shared/errors';

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

export function analyzeLabel(app: Api): void {
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
          }),
        },
      },
      bodyLimit: LABEL_BODY_LIMIT,
      preValidation: (req, _reply, done) => {
        if (req.headers['content-type'] === undefined)
          done(new ApiError('unsupported_media_type', 'Content-Type must be application/json'));
        else done();
      },
    },
    async (req, reply) => sendJson(reply, await app.catalogue().analyseLabelInSlices(req.body.text)),
  );
}
