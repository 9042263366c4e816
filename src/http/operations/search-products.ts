// GET /v1/products/search — ranked full-text search over brand and product name.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { ListOf, Page, PAGE_DEFAULT, ProductSummary, Q, errors } from '../schemas';
import { sendJson } from '../json';
import { PRODUCT_SEARCH_HINT } from '../no-match';
import { searchWords } from '../../shared/text';

const Query = Type.Object({ q: Q, page: Type.Optional(Page) });

export function searchProducts(app: Api): void {
  app.get(
    '/v1/products/search',
    {
      schema: {
        operationId: 'searchProducts',
        summary: 'Search products by brand and name',
        tags: ['products'],
        querystring: Query,
        response: { 200: ListOf(ProductSummary, true), ...errors(400, 402, 403, 429, 503) },
      },
    },
    (req, reply) =>
      sendJson(
        reply,
        app.catalogue().searchProducts(searchWords(req.query.q), req.query.page ?? PAGE_DEFAULT, PRODUCT_SEARCH_HINT),
      ),
  );
}
