// The response and shared parameter schemas of the API (api-spec.md part 2). The
// operation modules attach them to their routes; from there they validate requests
// and produce the OpenAPI document, and the tests check every response against them.
import { Type, type TSchema } from '@sinclair/typebox';
import { INGREDIENT_CATEGORIES, PRODUCT_CATEGORIES, RATINGS } from '../source/records';
import { UUID_PATTERN } from '../shared/text';
import { JoinHow, JoinRule } from '../labels/joiner';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Enum = (values: readonly string[], description?: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], description });

export const Uuid = (description: string) =>
  Type.String({
    pattern: UUID_PATTERN,
    description,
    'x-message': 'must be a uuid (8-4-4-4-12 hexadecimal characters)',
  });

export const ProductCategory = Nullable(Enum(PRODUCT_CATEGORIES));
const Rating = Nullable(Enum(RATINGS));
const Score = Nullable(Type.String({ description: 'A point (e.g. "2") or a range (e.g. "1-3") on a 0 to 5 scale.' }));

export const ProductSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    brand: Nullable(Type.String()),
    name: Nullable(Type.String()),
    category: ProductCategory,
    image_url: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const ingredientFields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  rating: Rating,
  irritancy: Score,
  comedogenicity: Score,
  functions: Type.Array(Type.String()),
  cas_number: Nullable(Type.String()),
  ec_number: Nullable(Type.String()),
  ph_eur_name: Nullable(Type.String()),
  iupac_name: Nullable(Type.String()),
  other_names: Nullable(Type.String({ description: 'Synonyms, comma-separated.' })),
  category: Nullable(Enum(INGREDIENT_CATEGORIES, 'The free-from tag this ingredient triggers.')),
};

export const Ingredient = Type.Object(ingredientFields, { additionalProperties: false });

export const ProductIngredient = Type.Object(
  {
    position: Type.Integer({ minimum: 0, description: 'Label order, from 0.' }),
    label_name: Type.String({ description: 'As printed on this product.' }),
    concentration: Nullable(Type.Number({ description: 'Declared % w/w.' })),
    ...ingredientFields,
  },
  { additionalProperties: false },
);

/** The five contains_* flags (2.3), as a product payload and a label analysis carry them. */
const containsFlags = {
  contains_fragrance: Type.Boolean(),
  contains_drying_alcohol: Type.Boolean(),
  contains_parabens: Type.Boolean(),
  contains_sulfates: Type.Boolean(),
  contains_silicones: Type.Boolean(),
};

export const Product = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    brand: Nullable(Type.String()),
    name: Type.Optional(Nullable(Type.String())),
    image_url: Nullable(Type.String()),
    category: ProductCategory,
    origin: Nullable(Type.String({ description: "Country of the brand's headquarters, best effort." })),
    ...containsFlags,
    ingredients: Type.Array(ProductIngredient),
  },
  { additionalProperties: false },
);

/** POST /v1/labels/analyze (api-spec.md 4.9). */
export const LabelAnalysis = Type.Object(
  {
    ...containsFlags,
    counts: Type.Object(
      {
        entries: Type.Integer({ minimum: 0 }),
        recognised: Type.Integer({ minimum: 0, description: 'Entries joined to an ingredient of the catalogue.' }),
        unrecognised: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    sections: Type.Array(
      Type.Object(
        {
          header: Nullable(
            Type.String({
              description: 'The header printed before this list (kits, shade ranges); null for a plain label.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    notes: Type.Array(Type.String(), {
      description: 'Text that is not an entry: marketing sentences, footnotes, disclaimers, headers without a list.',
    }),
    entries: Type.Array(
      Type.Object(
        {
          position: Type.Integer({ minimum: 0, description: 'Label order, from 0, across sections.' }),
          label_name: Type.String({ description: 'As printed (trimmed).' }),
          concentration: Nullable(Type.Number({ description: 'Percent stated on the label.' })),
          may_contain: Type.Boolean({ description: 'In a "May contain" / "+/-" colour section.' }),
          section: Type.Integer({ minimum: 0, description: 'Index in sections.' }),
          joined_by: JoinHow,
          join_rule: JoinRule,
          ingredient: Nullable(Ingredient),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const IngredientSearchItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    other_names: Nullable(Type.String()),
    rating: Rating,
  },
  { additionalProperties: false },
);

const Pagination = Type.Object(
  {
    page: Type.Integer(),
    has_more: Type.Boolean(),
    total: Type.Integer({ description: 'Matching rows across all pages; can exceed the 1,020 reachable by paging.' }),
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
      results: Type.Array(item, { maxItems: 20 }),
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
  maximum: 51,
  default: PAGE_DEFAULT,
  description: 'Page number, 20 results a page.',
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
