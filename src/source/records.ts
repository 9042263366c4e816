// The catalogue source contract (docs/catalogue-source.md), defined once: the
// enumerations, the ingredient record, the product record and its label entry, as
// TypeBox schemas that state every rule of a single record (limits, ranges with N < M,
// the absolute http(s) URL, the concentration interval), each leaf carrying the words
// that explain it when broken (`broken`, read by source/explain.ts). Guarantees: every
// TypeScript type of a source record is derived from these schemas (Static<>), and the
// compiled checkers accept exactly what the schemas describe. Rules that span values
// (barcodes equal once leading zeros are removed, references between lines) are in
// source/check.ts and the builder.
import { FormatRegistry, Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { BARCODE_PATTERN, UUID_PATTERN } from '../shared/text';

/** Free-from tags an ingredient can trigger, in the order of the product's free_from flags. */
export const INGREDIENT_CATEGORIES = ['fragrance', 'drying_alcohol', 'parabens', 'sulfates', 'silicones'] as const;
export type IngredientCategory = (typeof INGREDIENT_CATEGORIES)[number];
export const PRODUCT_CATEGORIES = [
  'skincare',
  'suncare',
  'makeup',
  'haircare',
  'body/bath',
  'fragrance',
  'other',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export const RATINGS = ['direct actives', 'supporting actives', 'sensitizers'] as const;
export type Rating = (typeof RATINGS)[number];

/** Documented field limits (docs/catalogue-source.md, "Limits"). */
export const LIMITS = {
  name: 4_000,
  text: 4_000,
  otherNames: 10_000,
  url: 2_048,
  functions: 100,
  barcodes: 100,
  ingredients: 1_000,
} as const;

/** "N" or "N-M" with integers 0 <= N < M <= 5, written out so that the schema states N < M. */
const RANGE = '^([0-5]|0-[1-5]|1-[2-5]|2-[3-5]|3-[4-5]|4-5)$';

/** An absolute http or https URL (the WHATWG URL parser accepts it). */
FormatRegistry.Set('http-url', (v) => /^https?:\/\//i.test(v) && URL.canParse(v));

const Enum = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v as T[number])));
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/** A non-blank string of at most `maxLength` characters; `broken` replaces the type and blank messages. */
const Text = (maxLength: number, broken?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(broken === undefined ? {} : { broken }) });
const Id = () => Type.String({ pattern: UUID_PATTERN, broken: 'is not a uuid (8-4-4-4-12 hex digits)' });
const Range = () =>
  Nullable(Type.String({ pattern: RANGE, broken: 'is not "N" or "N-M" with integers 0 <= N < M <= 5 (or null)' }));

export const IngredientCategorySchema = Enum(INGREDIENT_CATEGORIES);
export const ProductCategorySchema = Enum(PRODUCT_CATEGORIES);
export const RatingSchema = Enum(RATINGS);

export const SourceIngredientSchema = Type.Object(
  {
    id: Id(),
    name: Text(LIMITS.name),
    rating: Nullable(RatingSchema),
    irritancy: Range(),
    comedogenicity: Range(),
    functions: Type.Array(Text(LIMITS.text, 'is not a non-empty string'), {
      maxItems: LIMITS.functions,
      uniqueItems: true,
    }),
    cas_number: Nullable(Text(LIMITS.text)),
    ec_number: Nullable(Text(LIMITS.text)),
    ph_eur_name: Nullable(Text(LIMITS.text)),
    iupac_name: Nullable(Text(LIMITS.text)),
    other_names: Nullable(Text(LIMITS.otherNames)),
    category: Nullable(IngredientCategorySchema),
  },
  { additionalProperties: false },
);
export type SourceIngredient = Static<typeof SourceIngredientSchema>;

export const SourceProductEntrySchema = Type.Object(
  {
    id: Id(),
    label_name: Text(LIMITS.text),
    concentration: Nullable(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        broken: 'is not a number with 0 < value <= 100 (or null)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SourceProductEntry = Static<typeof SourceProductEntrySchema>;

export const SourceProductSchema = Type.Object(
  {
    id: Id(),
    brand: Nullable(Text(LIMITS.name)),
    name: Nullable(Text(LIMITS.name)),
    category: Nullable(ProductCategorySchema),
    origin: Nullable(Text(LIMITS.text)),
    image_url: Nullable(
      Type.String({
        format: 'http-url',
        maxLength: LIMITS.url,
        broken: 'is not an absolute http or https URL (or null)',
      }),
    ),
    barcodes: Type.Array(Type.String({ pattern: BARCODE_PATTERN, broken: 'is not a string of 8 to 14 digits' }), {
      maxItems: LIMITS.barcodes,
    }),
    ingredients: Type.Array(SourceProductEntrySchema, { maxItems: LIMITS.ingredients }),
  },
  { additionalProperties: false },
);
export type SourceProduct = Static<typeof SourceProductSchema>;

/**
 * SourceIngredientSchema but for `functions`' uniqueItems, for checkIngredient's first pass, which
 * then compares the functions (strings) in a Set: the compiled uniqueItems hashes each item with
 * TypeBox's Hash (30,000 ingredients: 134–302 ms against 17–49 ms, the first figures the build's).
 */
export const SourceIngredientFirstCheck = TypeCompiler.Compile(
  Type.Object(
    {
      ...SourceIngredientSchema.properties,
      functions: Type.Array(SourceIngredientSchema.properties.functions.items, { maxItems: LIMITS.functions }),
    },
    { additionalProperties: false },
  ),
);
/**
 * SourceProductSchema but for the uuid pattern of each label entry's id (a string still), for
 * checkProduct's first pass, which then finds each entry's id among the ingredients' ids, all
 * uuids (the pattern tested per entry, 5.4 million times, was about 1 s of a 200,000-product
 * build's CPU).
 */
export const SourceProductKnownIdsCheck = TypeCompiler.Compile(
  Type.Object(
    {
      ...SourceProductSchema.properties,
      ingredients: Type.Array(
        Type.Object({ ...SourceProductEntrySchema.properties, id: Type.String() }, { additionalProperties: false }),
        { maxItems: LIMITS.ingredients },
      ),
    },
    { additionalProperties: false },
  ),
);
