// What app builders would otherwise write around the operations. Guarantees: `pages`
// yields pages in order from the requested one and stops when has_more is false or after
// page 51 (api-spec.md 8: page 52 is a 400); `items` yields their results and, unless told
// `truncate: true`, refuses up front (after the first page, before yielding) a listing whose
// total goes past the 1,020 rows the service serves, so a cut is never silent; `batch` sends
// any number of ids 50 a request, at most `concurrency` requests at a time, and returns one
// entry per id in the order given, or, when a request is refused, starts no further request,
// lets those in flight finish and throws a CatalogueBatchError carrying every product fetched.
import { CatalogueApiError, CatalogueBatchError, CatalogueTruncatedError } from './errors';
import type { OperationId, Params, Product, QueryOf, Result } from './types';

/** Results per page and the last page the service serves (api-spec.md 8). */
export const PAGE_SIZE = 20;
export const LAST_PAGE = 51;
/** Rows a listing serves at most (51 pages of 20); pagination.total can be larger. */
export const REACHABLE_ROWS = PAGE_SIZE * LAST_PAGE;
/** Ids per batch request. */
export const BATCH_SIZE = 50;

/** What a call takes besides its parameters. */
export interface RequestOptions {
  /** Aborts the call (its request and any retry wait): it rejects with a CatalogueClientError, code 'aborted'. */
  signal?: AbortSignal | undefined;
  /** The longest the call may take, retries and waits included (default: the client's timeoutMs); false: no limit. */
  timeoutMs?: number | false | undefined;
}

/** The operations that answer a paginated list. */
export type ListOperation = Extract<OperationId, 'searchProducts' | 'filterProducts' | 'searchIngredients'>;

/** What `pages` and `items` need of a client (CatalogueClient is one): a list operation's answer. */
export interface ListClient {
  data<K extends ListOperation>(operation: K, params: Params<K>, options?: RequestOptions): Promise<Result<K>>;
}

/** What `batch` needs of a client (CatalogueClient is one): one request of 1 to 50 ids. */
export interface BatchClient {
  batchProducts(ids: string[], options?: RequestOptions): Promise<(Product | null)[]>;
}

/** Every page of a search or filter, from `query.page` (default 1) to the last reachable one. */
export async function* pages<K extends ListOperation>(
  client: ListClient,
  operation: K,
  query: QueryOf<K>,
  options: RequestOptions = {},
): AsyncGenerator<Result<K>, void, undefined> {
  for (let page = query.page ?? 1; page <= LAST_PAGE; page++) {
    const list: Result<K> = await client.data(operation, { query: { ...query, page } } as never, options);
    yield list;
    if (!list.pagination.has_more) return;
  }
}

export interface ItemsOptions extends RequestOptions {
  /**
   * true: a listing of more than 1,020 results yields its first 1,020 and stops. Otherwise
   * (the default) such a listing throws a CatalogueTruncatedError (code 'truncated', with its
   * `total`) after its first page, before yielding anything.
   */
  truncate?: boolean | undefined;
}

/** Every result of a search or filter, page after page (at most 1,020: see ItemsOptions.truncate). */
export async function* items<K extends ListOperation>(
  client: ListClient,
  operation: K,
  query: QueryOf<K>,
  options: ItemsOptions = {},
): AsyncGenerator<Result<K>['results'][number], void, undefined> {
  for await (const page of pages(client, operation, query, options)) {
    const total = page.pagination.total;
    if (total > REACHABLE_ROWS && options.truncate !== true) throw new CatalogueTruncatedError(total, REACHABLE_ROWS);
    yield* page.results as Result<K>['results'];
  }
}

export interface BatchOptions extends RequestOptions {
  /** Requests in flight at once (default 4). `signal` and `timeoutMs` apply to each request. */
  concurrency?: number | undefined;
}

/**
 * Products for any number of ids, null where no product has the id, in the order given.
 * A refused request (or one that fails for good after its retries) stops the call: no further
 * request is started, those in flight finish, and a CatalogueBatchError is thrown with the
 * refusal's status, message and kind, the products fetched so far (`results`) and the ids not
 * fetched (`unfetchedIds`). A 400's `ids[N]` counts from the start of the failing request's 50 ids.
 */
export async function batch(
  client: BatchClient,
  ids: readonly string[],
  opts: BatchOptions = {},
): Promise<(Product | null)[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH_SIZE) chunks.push(ids.slice(i, i + BATCH_SIZE));
  const results: ((Product | null)[] | undefined)[] = new Array<(Product | null)[] | undefined>(chunks.length);
  let next = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < chunks.length) {
      const i = next++;
      try {
        results[i] = await client.batchProducts(chunks[i], opts);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 4));
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  if (failure === undefined) return results.flatMap((r) => r!);
  if (!(failure instanceof CatalogueApiError)) throw failure as Error;
  const partial = chunks.flatMap((chunk, i) => results[i] ?? chunk.map(() => undefined));
  const unfetched = chunks.flatMap((chunk, i) => (results[i] === undefined ? chunk : []));
  throw new CatalogueBatchError(failure, partial, unfetched);
}
