// GET /v1/ingredients/search — names starting with q first (shortest first), then by relevance.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { IngredientSearchItem, ListOf, Page, PAGE_DEFAULT, Q, QUERY_RULE } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { INGREDIENT_SEARCH } from '../examples';
import { sendJson } from '../json';
import { INGREDIENT_SEARCH_HINT } from '../no-match';
import { searchWords } from '../../shared/text';

const Query = Type.Object({ q: Q('nicotinamide'), page: Type.Optional(Page) });

export function searchIngredients(app: Api): void {
  app.get(
    '/v1/ingredients/search',
    {
      schema: {
        operationId: 'searchIngredients',
        summary: 'Search ingredients by name and synonyms',
        description: `Names starting with q come first (shortest first), then by relevance, the name weighted above synonyms. ${QUERY_RULE}`,
        tags: ['ingredients'],
        querystring: Query,
        response: {
          200: answer(
            ListOf(IngredientSearchItem, true),
            'A page of ingredients; nothing found is a 200 with no results and a no_match hint.',
            HEADERS.trialRemaining,
            INGREDIENT_SEARCH,
          ),
          ...refusals(V1_REFUSALS),
        },
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
