// GET /v1/ingredients/{id} — one ingredient record; 404 echoing the id.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { Ingredient, NO_QUERY, Uuid } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { EXAMPLE_INGREDIENT_ID, INGREDIENT } from '../examples';
import { sendJson } from '../json';
import { ApiError } from '../../shared/errors';

const Params = Type.Object({ id: Uuid('Ingredient id; letter case is ignored.', EXAMPLE_INGREDIENT_ID) });

export function getIngredient(app: Api): void {
  app.get(
    '/v1/ingredients/:id',
    {
      schema: {
        operationId: 'getIngredient',
        summary: 'Fetch one ingredient',
        description: NO_QUERY,
        tags: ['ingredients'],
        params: Params,
        querystring: Type.Object({}),
        response: {
          200: answer(Ingredient, 'The ingredient record with its safety data.', HEADERS.trialRemaining, INGREDIENT),
          ...refusals([...V1_REFUSALS, 404], { 404: 'No ingredient has this id; the message echoes it.' }),
        },
      },
    },
    (req, reply) => {
      const record = app.catalogue().ingredient(req.params.id);
      if (record === null) throw new ApiError('not_found', `No ingredient with id ${req.params.id}`);
      sendJson(reply, record);
    },
  );
}
