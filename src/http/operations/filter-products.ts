// GET /v1/products — filters combined with AND, results in catalogue order.
import { Type, type TOptional, type TUnsafe } from '@sinclair/typebox';
import type { Api } from '../api';
import {
  LETTER_OR_DIGIT_RULE,
  ListOf,
  PAGE_DEFAULT,
  Page,
  ProductSummary,
  QUERY_RULE,
  Uuid,
  holdsLetterOrDigit,
} from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { PRODUCT_FILTER } from '../examples';
import { sendJson } from '../json';
import type { FilterQuery } from '../../catalogue/read-model';
import { INGREDIENT_CATEGORIES, type IngredientCategory } from '../../source/records';
import { FREE_PARAM, filterHint } from '../no-match';
import { UUID_PATTERN } from '../../shared/text';

const TrueFalse = (tag: IngredientCategory) =>
  Type.Unsafe<string>({
    type: 'string',
    enum: ['true', 'false'],
    description: `true keeps only products without ${tag.replace('_', ' ')}.`,
  });
/** fragrance_free … silicone_free, one per free-from tag, in the tags' order. */
const freeFrom = Object.fromEntries(INGREDIENT_CATEGORIES.map((c) => [FREE_PARAM[c], Type.Optional(TrueFalse(c))])) as {
  [C in IngredientCategory as (typeof FREE_PARAM)[C]]: TOptional<TUnsafe<string>>;
};
const uuid = UUID_PATTERN.slice(1, -1);

const Query = Type.Object({
  category: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Exact, case-sensitive stored category.',
      examples: ['skincare'],
    }),
  ),
  brand: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      ...holdsLetterOrDigit('contains no letters or digits'),
      description: `Case, accents, punctuation and spaces are ignored. ${LETTER_OR_DIGIT_RULE}`,
      examples: ['tower 28 beauty'],
    }),
  ),
  origin: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Exact, case-sensitive country of origin.' }),
  ),
  ...freeFrom,
  has_ingredient: Type.Optional(Uuid('Keeps products containing this ingredient.')),
  excludes_ingredient: Type.Optional(
    Type.String({
      pattern: `^${uuid}(,${uuid}){0,9}$`,
      'x-message': 'must be 1 to 10 comma-separated ingredient uuids with no spaces',
      description: '1 to 10 comma-separated ingredient ids; keeps products containing none of them.',
    }),
  ),
  page: Type.Optional(Page),
});

export function filterProducts(app: Api): void {
  app.get(
    '/v1/products',
    {
      schema: {
        operationId: 'filterProducts',
        summary: 'Filter products',
        description: `Filters combine with AND; with none, this pages through the whole catalogue. Results come in a stable catalogue order, not ranked. ${QUERY_RULE}`,
        tags: ['products'],
        querystring: Query,
        response: {
          200: answer(
            ListOf(ProductSummary, false),
            'A page of product summaries; nothing matching is a 200 with no results and a no_match hint naming the filter to change.',
            HEADERS.trialRemaining,
            PRODUCT_FILTER,
          ),
          ...refusals(V1_REFUSALS),
        },
      },
    },
    (req, reply) => {
      const q = req.query;
      const freeOf = INGREDIENT_CATEGORIES.filter((c) => q[FREE_PARAM[c]] === 'true');
      const filter: FilterQuery = {
        category: q.category,
        brand: q.brand,
        origin: q.origin,
        freeOf,
        hasIngredient: q.has_ingredient?.toLowerCase(),
        excludesIngredients: q.excludes_ingredient ? q.excludes_ingredient.toLowerCase().split(',') : [],
      };
      const page = app.catalogue().filterProducts(filter, q.page ?? PAGE_DEFAULT, (alone) => filterHint(alone, filter));
      sendJson(reply, page);
    },
  );
}
