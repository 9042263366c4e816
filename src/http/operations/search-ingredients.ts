// GET /v1/ingredients/search — names starting with q first (shortest first), then by relevance.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { IngredientSearchItem, ListOf, Page, PAGE_DEFAULT, Q, errors } from '../schemas';
import { sendJson } from '../json';
import { INGREDIENT_SEARCH_HINT } from '../no-match';
import { searchWords } from '../../shared/text';

const Query = Type.Object({ q: Q, page: Type.Optional(Page) });

export function searchIngredients(app: Api): void {
  app.get(
    '/v1/ingredients/search',
    {
      schema: {
        operationId: 'searchIngredients',
        summary: 'Search ingredients by name and synonyms',
        tags: ['ingredients'],
        querystring: Query,
        response: { 200: ListOf(IngredientSearchItem, true), ...errors(400, 402, 403, 429, 503) },
      },
    },
    (req, reply) =>
      sendJson(
        reply,
        app
          .catalogue()
          .searchIngredients(searchWords(req.query.q), req.query.page ?? PAGE_DEFAULT, INGREDIENT_SEARCH_HINT),
      ),
  );
}
