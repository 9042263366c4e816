// POST /v1/products/batch — up to 50 products in one request, in the order asked,
// null for unknown ids; charged (and X-Item-Count) once per id, duplicates included.
import { Type, type Static } from '@sinclair/typebox';
import type { Api } from '../api';
import { BODY_LIMIT, NO_QUERY, Product, Uuid } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { BATCH, EXAMPLE_PRODUCT_ID } from '../examples';
import { sendJson } from '../json';
import { ApiError } from '../../shared/errors';
import { AnswerBuffers } from '../answer-buffers';
import type { Catalogue } from '../../catalogue/read-model';

const Body = Type.Object(
  {
    ids: Type.Array(Uuid('Product id; letter case is ignored.'), {
      minItems: 1,
      maxItems: 50,
      description: '1 to 50 product ids; duplicates allowed.',
    }),
  },
  {
    additionalProperties: false,
    description: `A JSON object with "ids" and no other field, of at most ${BODY_LIMIT / 1024} KiB.`,
    examples: [{ ids: [EXAMPLE_PRODUCT_ID, '00000000-0000-4000-8000-000000000000'] }],
  },
);

export function batchProducts(app: Api): void {
  // One pool per catalogue served: its slabs are the catalogue's (written without a copy).
  const pools = new WeakMap<Catalogue, AnswerBuffers>();
  const buffersOf = (catalogue: Catalogue) => {
    let buffers = pools.get(catalogue);
    if (buffers === undefined) pools.set(catalogue, (buffers = new AnswerBuffers(() => catalogue.answerSlab())));
    return buffers;
  };
  app.post(
    '/v1/products/batch',
    {
      // The access hook calls units() with an untyped request, after the body is validated.
      config: { units: (req) => (req.body as Static<typeof Body>).ids.length },
      schema: {
        operationId: 'batchProducts',
        summary: 'Fetch up to 50 products',
        description: `Charged one call per id, duplicates included (X-Item-Count). Needs Content-Type: application/json; bodies over ${BODY_LIMIT / 1024} KiB are refused with 413. ${NO_QUERY}`,
        tags: ['products'],
        body: Body,
        querystring: Type.Object({}),
        response: {
          200: answer(
            Type.Array(Type.Union([Product, Type.Null()])),
            'One entry per id, in the order asked: the full product, or null where no product has that id.',
            { ...HEADERS.itemCount, ...HEADERS.trialRemaining },
            BATCH,
          ),
          ...refusals([...V1_REFUSALS, 413, 415], {
            413: `The request body is larger than ${BODY_LIMIT / 1024} KiB.`,
          }),
        },
      },
      preValidation: async (req) => {
        if (req.headers['content-type'] === undefined)
          throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
      },
    },
    (req, reply) => {
      const ids = req.body.ids.map((id) => id.toLowerCase());
      const catalogue = app.catalogue();
      const buffers = buffersOf(catalogue);
      const body = catalogue.batch(ids, (size) => buffers.lend(size, reply.raw));
      sendJson(reply.header('X-Item-Count', ids.length), body);
    },
  );
}
