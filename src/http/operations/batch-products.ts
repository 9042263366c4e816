// POST /v1/products/batch — up to 50 products in one request, in the order asked,
// null for unknown ids; charged (and X-Item-Count) once per id, duplicates included.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Product, Uuid, errors } from '../schemas';
import { JSON_TYPE } from '../json';
import { ApiError } from '../../shared/errors';

const Body = Type.Object({
  ids: Type.Array(Uuid('Product id; letter case is ignored.'), {
    minItems: 1,
    maxItems: 50,
    description: '1 to 50 product ids; duplicates allowed.',
  }),
});

export function batchProducts(app: FastifyInstance): void {
  app.post<{ Body: { ids: string[] } }>(
    '/v1/products/batch',
    {
      config: { units: (req) => (req.body as { ids: string[] }).ids.length },
      schema: {
        operationId: 'batchProducts',
        summary: 'Fetch up to 50 products',
        tags: ['products'],
        body: Body,
        querystring: Type.Object({}),
        response: { 200: Type.Array(Type.Union([Product, Type.Null()])), ...errors(400, 402, 403, 415, 429, 503) },
      },
      preValidation: async (req) => {
        if (req.headers['content-type'] === undefined)
          throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
      },
    },
    (req, reply) => {
      const ids = req.body.ids.map((id) => id.toLowerCase());
      return reply.header('X-Item-Count', ids.length).type(JSON_TYPE).send(app.catalogue().batch(ids));
    },
  );
}
