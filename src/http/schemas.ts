// The API's schemas besides the answer records (those are catalogue/answers.ts, re-exported
// here): lists, errors, health and the shared parameters (uuid, page, q). The operation
// modules attach them to their routes; from there they validate requests and produce the
// OpenAPI document, and the tests check every response against them.
import { Type, type TSchema } from '@sinclair/typebox';
import { UUID_PATTERN } from '../shared/text';
import { LAST_PAGE, PAGE_SIZE, REACHABLE } from '../shared/paging';

export {
  Ingredient,
  IngredientSearchItem,
  LabelAnalysis,
  Product,
  ProductCategory,
  ProductIngredient,
  ProductSummary,
} from '../catalogue/answers';

export const Uuid = (description: string) =>
  Type.String({
    pattern: UUID_PATTERN,
    description,
    'x-message': 'must be a uuid (8-4-4-4-12 hexadecimal characters)',
  });

const Pagination = Type.Object(
  {
    page: Type.Integer(),
    has_more: Type.Boolean(),
    total: Type.Integer({
      description: `Matching rows across all pages; can exceed the ${REACHABLE.toLocaleString('en')} reachable by paging.`,
    }),
  },
  { additionalProperties: false },
);

const NoMatch = (withTerms: boolean) =>
  Type.Object(
    {
      hint: Type.String(),
      ...(withTerms
        ? {
            terms: Type.Array(
              Type.Object({ term: Type.String(), matches: Type.Integer() }, { additionalProperties: false }),
            ),
          }
        : {}),
    },
    { additionalProperties: false, description: 'Present only when pagination.total is 0.' },
  );

export const ListOf = (item: TSchema, withTerms: boolean) =>
  Type.Object(
    {
      results: Type.Array(item, { maxItems: PAGE_SIZE }),
      pagination: Pagination,
      no_match: Type.Optional(NoMatch(withTerms)),
    },
    { additionalProperties: false },
  );

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String({ description: 'HTTP reason phrase.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const Health = Type.Object(
  {
    status: Type.Literal('ok'),
    products: Type.Integer(),
    ingredients: Type.Integer(),
    built_at: Type.String({ description: 'YYYY-MM-DD (UTC), or "unknown".' }),
  },
  { additionalProperties: false },
);

/**
 * "Holds a letter or digit", as a Unicode regular expression. Kept out of `pattern`,
 * which browsers' OpenAPI tools evaluate without Unicode support (they would refuse
 * every value); the server's validator applies it.
 */
export const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';

/** The page a list answer gives when none is asked for (validation fills it in). */
export const PAGE_DEFAULT = 1;
export const Page = Type.Integer({
  minimum: 1,
  maximum: LAST_PAGE,
  default: PAGE_DEFAULT,
  description: `Page number, ${PAGE_SIZE} results a page.`,
});
export const Q = Type.String({
  minLength: 1,
  maxLength: 200,
  'x-unicode-pattern': LETTER_OR_DIGIT,
  'x-message': 'contains no searchable characters',
  description: 'Words to search for; every word must match, the last as a prefix. Only the first 10 words are used.',
});

/** Error responses by status, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of statuses) out[s] = ErrorBody;
  return out;
}
