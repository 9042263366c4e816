// GET /v1/ingredients/{id} — one ingredient record; 404 echoing the id.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Ingredient, Uuid, errors } from '../schemas';
import { JSON_TYPE } from '../json';
import { ApiError } from '../../shared/errors';

const Params = Type.Object({ id: Uuid('Ingredient id; letter case is ignored.') });

export function getIngredient(app: FastifyInstance): void {
  app.get<{ Params: { id: string } }>(
    '/v1/ingredients/:id',
    {
      schema: {
        operationId: 'getIngredient',
        summary: 'Fetch one ingredient',
        tags: ['ingredients'],
        params: Params,
        querystring: Type.Object({}),
        response: { 200: Ingredient, ...errors(400, 402, 403, 404, 429, 503) },
      },
    },
    (req, reply) => {
      const record = app.catalogue().ingredient(req.params.id.toLowerCase());
      if (record === null) throw new ApiError('not_found', `No ingredient with id ${req.params.id}`);
      return reply.type(JSON_TYPE).send(record);
    },
  );
}
