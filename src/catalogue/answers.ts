// The catalogue's answer records (api-spec.md 2.3 to 2.6 and 4.9), each defined once as a
// TypeBox schema: format.ts renders the stored records from these schemas' fields at build
// time (pick), and http/schemas.ts attaches them to the routes, which publish them in the
// OpenAPI document; the tests check every answer against them. Guarantees: a product
// entry is its label fields followed by the ingredient record's fields, in that order
// (checked when this module loads: format.ts's packed answers depend on it).
import { Type, type TBoolean, type TObject, type TSchema } from '@sinclair/typebox';
import { INGREDIENT_CATEGORIES, PRODUCT_CATEGORIES, RATINGS, type IngredientCategory } from '../source/records';
import { JoinHow, JoinRule } from '../labels/joiner';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Enum = (values: readonly string[], description?: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], description });

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
  { $id: 'ProductSummary', additionalProperties: false },
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

/** An ingredient record (2.5). */
export const Ingredient = Type.Object(ingredientFields, { $id: 'Ingredient', additionalProperties: false });

export const ProductIngredient = Type.Object(
  {
    position: Type.Integer({ minimum: 0, description: 'Label order, from 0.' }),
    label_name: Type.String({ description: 'As printed on this product.' }),
    concentration: Nullable(Type.Number({ description: 'Declared % w/w.' })),
    ...ingredientFields,
  },
  { $id: 'ProductIngredient', additionalProperties: false },
);

/** The five contains_* flags (2.3), as a product payload and a label analysis carry them. */
const containsFlags = Object.fromEntries(INGREDIENT_CATEGORIES.map((c) => [`contains_${c}`, Type.Boolean()])) as Record<
  `contains_${IngredientCategory}`,
  TBoolean
>;

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
  { $id: 'Product', additionalProperties: false },
);

/** One entry of a label analysis (4.9). */
export const LabelEntry = Type.Object(
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
  { $id: 'LabelEntry', additionalProperties: false },
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
    entries: Type.Array(LabelEntry),
  },
  { $id: 'LabelAnalysis', additionalProperties: false },
);

export const IngredientSearchItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    other_names: Nullable(Type.String()),
    rating: Rating,
  },
  { $id: 'IngredientSearchItem', additionalProperties: false },
);

/** The fields of a record schema, in the schema's order. */
export function fieldsOf(schema: TObject): string[] {
  return Object.keys(schema.properties);
}

/** `from`'s values of `schema`'s fields, in the schema's order: a record ready for JSON.stringify. */
export function pick(schema: TObject, from: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let fields = PICKED.get(schema);
  if (fields === undefined) PICKED.set(schema, (fields = fieldsOf(schema)));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) out[fields[i]] = from[fields[i]];
  return out;
}
/** Each schema's fields, listed once (the build picks two records a product). */
const PICKED = new WeakMap<TObject, string[]>();

/** The label fields that come before an entry's ingredient record (format.ts packProduct). */
export const ENTRY_LABEL_FIELDS = ['position', 'label_name', 'concentration'] as const;

/** What the stored forms rely on: format.ts packs entries and cuts the ingredients list off the end; label-analysis.ts reads the category at a record's end. */
function assertLayout(): void {
  const fail = (rule: string) => {
    throw new Error(`catalogue/answers.ts: ${rule}`);
  };
  if (fieldsOf(ProductIngredient).join() !== [...ENTRY_LABEL_FIELDS, ...fieldsOf(Ingredient)].join())
    fail('a product entry must be the label fields followed by the ingredient record');
  if (fieldsOf(Product).at(-1) !== 'ingredients') fail('a product answer must end with its ingredients');
  if (fieldsOf(Ingredient).at(-1) !== 'category') fail('an ingredient record must end with its category');
}
assertLayout();
