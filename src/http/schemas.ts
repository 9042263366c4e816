// The API's schemas besides the answer records (those are catalogue/answers.ts, re-exported
// here) and the responses (responses.ts): lists, health, the shared parameters (uuid,
// page, q), the letter-or-digit rule, the body limit and what descriptions say of query
// parameters. The operation modules attach them to their routes; from there they
// validate requests and produce the OpenAPI document, and the tests check every
// response against them.
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

export const Uuid = (description: string, example?: string) =>
  Type.String({
    pattern: UUID_PATTERN,
    description,
    ...(example === undefined ? {} : { examples: [example] }),
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
 * "Holds a letter or digit", as a Unicode regular expression (x-unicode-pattern): the
 * rule the server's validator applies. Kept out of `pattern`, which browsers' OpenAPI
 * tools evaluate without Unicode support (they would refuse every value).
 */
export const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';
/**
 * The same rule in a standard `pattern` that reads the same with or without Unicode
 * support: "holds a character other than ASCII punctuation, symbols and white space".
 * Every value holding a letter or digit matches it, so it never refuses what the server
 * accepts; it refuses `!!!` and `---`, and the description states the whole rule (a
 * value of symbols only, such as `™`, matches it and is still refused by the server).
 */
export const NOT_ONLY_PUNCTUATION = '[^\\s!-/:-@\\[-`{-~]';
/** The schema keywords of the rule, for a string parameter or body field. */
export const holdsLetterOrDigit = (message: string) => ({
  pattern: NOT_ONLY_PUNCTUATION,
  'x-unicode-pattern': LETTER_OR_DIGIT,
  'x-message': message,
});
/** What a description says of the rule. */
export const LETTER_OR_DIGIT_RULE =
  'Must hold at least one letter or digit (any script); a value of only punctuation, symbols or spaces is refused with 400.';

/** Request bodies larger than this are refused with 413 (the label analysis allows LABEL_BODY_LIMIT). */
export const BODY_LIMIT = 64 * 1024;

/** The page a list answer gives when none is asked for (validation fills it in). */
export const PAGE_DEFAULT = 1;
export const Page = Type.Integer({
  minimum: 1,
  maximum: LAST_PAGE,
  default: PAGE_DEFAULT,
  description: `Page number, ${PAGE_SIZE} results a page.`,
});
/** The q parameter of the two searches, with an example value. */
export const Q = (example: string) =>
  Type.String({
    minLength: 1,
    maxLength: 200,
    ...holdsLetterOrDigit('contains no searchable characters'),
    description: `Words to search for; every word must match, the last as a prefix. Only the first 10 words are used. ${LETTER_OR_DIGIT_RULE}`,
    examples: [example],
  });

/** What every /v1 operation's description says of query parameters it does not list, or lists none. */
export const QUERY_RULE =
  'A query parameter not listed here, or one given twice, is refused with 400 (the message lists the accepted parameters).';
export const NO_QUERY = 'Takes no query parameters: any query parameter is refused with 400.';
