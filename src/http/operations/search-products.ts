// GET /v1/products/search — ranked full-text search over brand and product name.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { ListOf, Page, PAGE_DEFAULT, ProductSummary, Q, QUERY_RULE } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { PRODUCT_SEARCH } from '../examples';
import { sendJson } from '../json';
import { PRODUCT_SEARCH_HINT } from '../no-match';
import { searchWords } from '../../shared/text';

const Query = Type.Object({ q: Q('tower 28 spray'), page: Type.Optional(Page) });

export function searchProducts(app: Api): void {
  app.get(
    '/v1/products/search',
    {
      schema: {
        operationId: 'searchProducts',
        summary: 'Search products by brand and name',
        description: `Ranked by relevance; letter case and accents are ignored. ${QUERY_RULE}`,
        tags: ['products'],
        querystring: Query,
        response: {
          200: answer(
            ListOf(ProductSummary, true),
            'A page of product summaries; nothing found is a 200 with no results and a no_match hint.',
            HEADERS.trialRemaining,
            PRODUCT_SEARCH,
          ),
          ...refusals(V1_REFUSALS),
        },
      },
    },
    (req, reply) =>
      sendJson(
        reply,
        app.catalogue().searchProducts(searchWords(req.query.q), req.query.page ?? PAGE_DEFAULT, PRODUCT_SEARCH_HINT),
      ),
  );
}
