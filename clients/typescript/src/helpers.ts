// What app builders would otherwise write around the operations. Guarantees: `pages`
// yields pages in order from the requested one and stops when has_more is false or after
// page 51 (api-spec.md 8: page 52 is a 400); `batch` sends any number of ids 50 a request,
// at most `concurrency` requests at a time, and returns one entry per id in the order given.
import type { OperationId, Params, Product, QueryOf, Result } from './types';

/** Results per page and the last page the service serves (api-spec.md 8). */
export const PAGE_SIZE = 20;
export const LAST_PAGE = 51;
/** Ids per batch request. */
export const BATCH_SIZE = 50;

/** The operations that answer a paginated list. */
export type ListOperation = Extract<OperationId, 'searchProducts' | 'filterProducts' | 'searchIngredients'>;

/** What `pages` and `items` need of a client (CatalogueClient is one): a list operation's answer. */
export interface ListClient {
  data<K extends ListOperation>(operation: K, params: Params<K>): Promise<Result<K>>;
}

/** What `batch` needs of a client (CatalogueClient is one): one request of 1 to 50 ids. */
export interface BatchClient {
  batchProducts(ids: string[]): Promise<(Product | null)[]>;
}

/** Every page of a search or filter, from `query.page` (default 1) to the last reachable one. */
export async function* pages<K extends ListOperation>(
  client: ListClient,
  operation: K,
  query: QueryOf<K>,
): AsyncGenerator<Result<K>, void, undefined> {
  for (let page = (query as { page?: number }).page ?? 1; page <= LAST_PAGE; page++) {
    const list: Result<K> = await client.data(operation, { query: { ...query, page } } as never);
    yield list;
    if (!list.pagination.has_more) return;
  }
}

/** Every result of a search or filter, page after page (at most 1,020). */
export async function* items<K extends ListOperation>(
  client: ListClient,
  operation: K,
  query: QueryOf<K>,
): AsyncGenerator<Result<K>['results'][number], void, undefined> {
  for await (const page of pages(client, operation, query)) yield* page.results as Result<K>['results'];
}

export interface BatchOptions {
  /** Requests in flight at once (default 4). */
  concurrency?: number;
}

/**
 * Products for any number of ids, null where no product has the id, in the order given.
 * A refused request rejects the whole call and no further request is started. A 400's
 * `ids[N]` counts from the start of the failing request's 50 ids.
 */
export async function batch(
  client: BatchClient,
  ids: readonly string[],
  opts: BatchOptions = {},
): Promise<(Product | null)[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH_SIZE) chunks.push(ids.slice(i, i + BATCH_SIZE));
  const results: (Product | null)[][] = new Array<(Product | null)[]>(chunks.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < chunks.length) {
      const i = next++;
      try {
        results[i] = await client.batchProducts(chunks[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 4));
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  return results.flat();
}
