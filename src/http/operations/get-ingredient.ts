// GET /v1/ingredients/{id} — one ingredient record; 404 echoing the id.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { Ingredient, Uuid, errors } from '../schemas';
import { sendJson } from '../json';
import { ApiError } from '../../shared/errors';

const Params = Type.Object({ id: Uuid('Ingredient id; letter case is ignored.') });

export function getIngredient(app: Api): void {
  app.get(
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
      sendJson(reply, record);
    },
  );
}
