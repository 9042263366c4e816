// Named types for the API's records and parameters, all derived from the generated
// operations (src/openapi.ts), so they change only when the server's schemas change.
import type { operations } from './openapi';

/** Every operation of the API, by its stable operationId (the HEAD twins of the GET operations, `<id>-head`, left out: they answer no body). */
export type OperationId = Exclude<keyof operations, `${string}-head`>;

type Op<K extends OperationId> = operations[K];
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;

/** The 200 body of an operation. */
export type Result<K extends OperationId> = Json<Op<K>['responses'][200]>;
/** The query parameters of an operation as the OpenAPI document types them (the words 'true' and 'false', say). */
export type WireQueryOf<K extends OperationId> = Op<K>['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;
/** The query parameters of an operation as the client takes them: FilterQuery for filterProducts, else as generated. */
export type QueryOf<K extends OperationId> = K extends 'filterProducts' ? FilterQuery : WireQueryOf<K>;
/** The path parameters of an operation. */
export type PathOf<K extends OperationId> = Op<K>['parameters'] extends { path?: infer P } ? NonNullable<P> : never;
/** The JSON request body of an operation, or never. */
export type BodyOf<K extends OperationId> =
  Op<K> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export type Health = Result<'getHealth'>;
export type Product = Result<'getProduct'>;
export type ProductIngredient = Product['ingredients'][number];
export type ProductList = Result<'searchProducts'>;
export type ProductSummary = ProductList['results'][number];
export type Pagination = ProductList['pagination'];
export type IngredientList = Result<'searchIngredients'>;
export type IngredientSearchItem = IngredientList['results'][number];
export type Ingredient = Result<'getIngredient'>;
export type LabelAnalysis = Result<'analyzeLabel'>;
export type SearchQuery = QueryOf<'searchProducts'>;
/** A product's category (api-spec.md 2.2): the values `category` filters on. */
export type Category = NonNullable<ProductSummary['category']>;
/** The five free-from filters of filterProducts. */
export type FreeFromFilter = 'fragrance_free' | 'alcohol_free' | 'paraben_free' | 'sulfate_free' | 'silicone_free';
/**
 * filterProducts' query as an app builder writes it: the free-from filters as booleans (sent as
 * the words true and false; false filters nothing) and `category` one of the categories. Any other
 * category would match nothing (an empty page), so the type refuses it; undefined leaves a filter out.
 */
export type FilterQuery = Omit<WireQueryOf<'filterProducts'>, FreeFromFilter | 'category'> & {
  [F in FreeFromFilter]?: boolean | undefined;
} & { category?: Category | undefined };
/** The error body every refusal carries (api-spec.md 2.9). */
export type ErrorBody = Json<Op<'getProduct'>['responses'][404]>;

type Part<Name extends string, T> = [T] extends [never]
  ? { [N in Name]?: undefined }
  : object extends T
    ? { [N in Name]?: T }
    : { [N in Name]: T };
/** What `call` takes for an operation: its query, path parameters and body, each required when the operation requires it. */
export type Params<K extends OperationId> = Part<'query', QueryOf<K>> &
  Part<'path', PathOf<K>> &
  Part<'body', BodyOf<K>>;
