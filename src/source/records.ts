// The catalogue source contract (docs/catalogue-source.md), defined once: the
// enumerations, the ingredient record, the product record and its label entry, as
// TypeBox schemas. Guarantees: every TypeScript type of a source record is derived
// from these schemas (Static<>), and `validIngredient`/`validProduct` accept exactly
// what the schemas describe (compiled once with TypeBox's TypeCompiler). Rules that
// a schema cannot state (N < M in a range, barcode collisions, references between
// lines) are checked by the builder.
import { Type, type Static } from '@sinclair/typebox';
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

const RANGE = '^[0-5](-[0-5])?$';

const Enum = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v as T[number])));
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });

export const IngredientCategorySchema = Enum(INGREDIENT_CATEGORIES);
export const ProductCategorySchema = Enum(PRODUCT_CATEGORIES);
export const RatingSchema = Enum(RATINGS);

export const SourceIngredientSchema = Type.Object(
  {
    id: Type.String({ pattern: UUID_PATTERN }),
    name: Text(LIMITS.name),
    rating: Nullable(RatingSchema),
    irritancy: Nullable(Type.String({ pattern: RANGE })),
    comedogenicity: Nullable(Type.String({ pattern: RANGE })),
    functions: Type.Array(Text(LIMITS.text), { maxItems: LIMITS.functions, uniqueItems: true }),
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
    id: Type.String({ pattern: UUID_PATTERN }),
    label_name: Text(LIMITS.text),
    concentration: Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type SourceProductEntry = Static<typeof SourceProductEntrySchema>;

export const SourceProductSchema = Type.Object(
  {
    id: Type.String({ pattern: UUID_PATTERN }),
    brand: Nullable(Text(LIMITS.name)),
    name: Nullable(Text(LIMITS.name)),
    category: Nullable(ProductCategorySchema),
    origin: Nullable(Text(LIMITS.text)),
    image_url: Nullable(Type.String({ pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: LIMITS.url })),
    barcodes: Type.Array(Type.String({ pattern: BARCODE_PATTERN }), { maxItems: LIMITS.barcodes }),
    ingredients: Type.Array(SourceProductEntrySchema, { maxItems: LIMITS.ingredients }),
  },
  { additionalProperties: false },
);
export type SourceProduct = Static<typeof SourceProductSchema>;

export const SourceIngredientCheck = TypeCompiler.Compile(SourceIngredientSchema);
export const SourceProductCheck = TypeCompiler.Compile(SourceProductSchema);

/** True when `v` is an ingredient record as the schema describes it (narrows the type). */
export function validIngredient(v: unknown): v is SourceIngredient {
  return SourceIngredientCheck.Check(v);
}

/** True when `v` is a product record as the schema describes it (narrows the type). */
export function validProduct(v: unknown): v is SourceProduct {
  return SourceProductCheck.Check(v);
}
