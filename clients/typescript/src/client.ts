// The client: one base URL and key, one typed method per operation, on the platform
// fetch. Guarantees: every request goes through `call`, which builds the URL from the
// operation's route, sends the key, returns the typed 200 body with the status and
// headers, and otherwise throws a CatalogueApiError: the API's refusal as sent, or a
// CatalogueClientError (statusCode 0, a `code`) for no answer (network, timeout, the caller's
// abort) or a call it will not send (a /v1 operation without a key); it retries only what can
// succeed (src/retry.ts) and never runs past its timeout. Adding an operation: one line in
// ROUTES, one method.
import { CatalogueApiError, CatalogueClientError } from './errors';
import { withRetries, type RetryOptions } from './retry';
import { normalizeBarcode } from './barcode';
import {
  batch,
  items,
  pages,
  type BatchOptions,
  type ItemsOptions,
  type ListOperation,
  type RequestOptions,
} from './helpers';
import type {
  FilterQuery,
  Health,
  Ingredient,
  LabelAnalysis,
  OperationId,
  Params,
  Product,
  QueryOf,
  Result,
  SearchQuery,
} from './types';

type Method = 'GET' | 'POST';

/** Method and path of every operation; `satisfies` makes a newly generated operation a compile error until listed. */
export const ROUTES = {
  getHealth: { method: 'GET', path: '/health' },
  searchProducts: { method: 'GET', path: '/v1/products/search' },
  filterProducts: { method: 'GET', path: '/v1/products' },
  getProduct: { method: 'GET', path: '/v1/products/{id}' },
  getProductByBarcode: { method: 'GET', path: '/v1/products/barcode/{barcode}' },
  batchProducts: { method: 'POST', path: '/v1/products/batch' },
  searchIngredients: { method: 'GET', path: '/v1/ingredients/search' },
  getIngredient: { method: 'GET', path: '/v1/ingredients/{id}' },
  analyzeLabel: { method: 'POST', path: '/v1/labels/analyze' },
} as const satisfies Record<OperationId, { method: Method; path: string }>;

export interface ApiResponse<K extends OperationId> {
  data: Result<K>;
  status: number;
  /** X-Trial-Requests-Remaining (trial keys) and X-Item-Count (batch) are here. */
  headers: Headers;
}

export interface ClientOptions {
  /** Where the service runs, e.g. https://catalogue.example.org (a trailing slash is fine). */
  baseUrl: string;
  /**
   * Sent as x-api-key on every request; /health needs none. Keep it on the server side.
   * `process.env.CATALOGUE_KEY` is fine as it is: when it is undefined (or empty), every /v1 call
   * rejects with a CatalogueClientError, code 'no_api_key', before sending anything.
   */
  apiKey?: string | undefined;
  /** Retry policy for per-second 429s, 503s and network failures; `false` sends every request once. */
  retry?: RetryOptions | false | undefined;
  /** The longest a call may take, retries and waits included (default 30,000 ms); false: no limit. */
  timeoutMs?: number | false | undefined;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch | undefined;
}

/** The default of ClientOptions.timeoutMs. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export class CatalogueClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Calls an operation by its operationId; the typed body comes with the status and headers. */
  async call<K extends OperationId>(
    operation: K,
    params: Params<K>,
    options: RequestOptions = {},
  ): Promise<ApiResponse<K>> {
    const { method, path } = ROUTES[operation] as { method: Method; path: string };
    const p = params as { query?: object; path?: Record<string, string>; body?: unknown };
    const url = this.baseUrl + fillPath(path, p.path ?? {}) + queryString(p.query ?? {});
    const headers: Record<string, string> = { accept: 'application/json' };
    if (path.startsWith('/v1/')) {
      if (!this.options.apiKey) throw new CatalogueClientError('no_api_key', NO_KEY);
      headers['x-api-key'] = this.options.apiKey;
    }
    if (p.body !== undefined) headers['content-type'] = 'application/json';
    const body = p.body === undefined ? undefined : JSON.stringify(p.body);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = timeoutMs === false ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    const send = async (): Promise<ApiResponse<K>> => {
      try {
        const res = await this.fetch(url, { method, headers, body, signal });
        if (res.status !== 200) throw await CatalogueApiError.from(res);
        return { data: (await res.json()) as Result<K>, status: res.status, headers: res.headers };
      } catch (err) {
        if (err instanceof CatalogueApiError || signal?.aborted) throw err;
        if (err instanceof SyntaxError)
          throw new CatalogueClientError('bad_response', `${method} ${path}: the answer is not JSON`, err);
        throw new CatalogueClientError('network', `${method} ${path}: no answer (${causeOf(err)})`, err);
      }
    };
    try {
      return await (this.options.retry === false ? send() : withRetries(send, this.options.retry, signal));
    } catch (err) {
      if (options.signal?.aborted)
        throw new CatalogueClientError('aborted', `${method} ${path}: aborted by the caller`, options.signal.reason);
      if (timeout?.aborted)
        throw new CatalogueClientError('timeout', `${method} ${path}: no answer within ${timeoutMs} ms`, err);
      throw err;
    }
  }

  /** The typed 200 body of an operation. */
  async data<K extends OperationId>(operation: K, params: Params<K>, options?: RequestOptions): Promise<Result<K>> {
    return (await this.call(operation, params, options)).data;
  }

  health(options?: RequestOptions): Promise<Health> {
    return this.data('getHealth', {}, options);
  }
  searchProducts(query: SearchQuery, options?: RequestOptions): Promise<Result<'searchProducts'>> {
    return this.data('searchProducts', { query }, options);
  }
  /** Free-from filters are booleans (`fragrance_free: true`), `category` one of the categories. */
  filterProducts(query: FilterQuery = {}, options?: RequestOptions): Promise<Result<'filterProducts'>> {
    return this.data('filterProducts', { query }, options);
  }
  getProduct(id: string, options?: RequestOptions): Promise<Product> {
    return this.data('getProduct', { path: { id } }, options);
  }
  /**
   * Spaces and dashes are stripped first (normalizeBarcode); anything but 8 to 14 digits rejects
   * with a CatalogueClientError, code 'invalid_barcode', unsent.
   */
  async getProductByBarcode(barcode: string, options?: RequestOptions): Promise<Product> {
    return this.data('getProductByBarcode', { path: { barcode: normalizeBarcode(barcode) } }, options);
  }
  /** One request of 1 to 50 ids; `batch` (src/helpers.ts) takes any number. */
  batchProducts(ids: string[], options?: RequestOptions): Promise<Result<'batchProducts'>> {
    return this.data('batchProducts', { body: { ids } }, options);
  }
  searchIngredients(query: SearchQuery, options?: RequestOptions): Promise<Result<'searchIngredients'>> {
    return this.data('searchIngredients', { query }, options);
  }
  getIngredient(id: string, options?: RequestOptions): Promise<Ingredient> {
    return this.data('getIngredient', { path: { id } }, options);
  }
  /** Parses and joins any label text (POST /v1/labels/analyze). */
  analyzeLabel(text: string, options?: RequestOptions): Promise<LabelAnalysis> {
    return this.data('analyzeLabel', { body: { text } }, options);
  }

  /** Every page of a search or filter, stopping after page 51 (compare pagination.total with 1,020). */
  pages<K extends ListOperation>(
    operation: K,
    query: QueryOf<K>,
    options?: RequestOptions,
  ): AsyncGenerator<Result<K>, void, undefined> {
    return pages(this, operation, query, options);
  }
  /**
   * Every result of a search or filter. A listing of more than 1,020 results (the most the service
   * serves) throws a CatalogueTruncatedError before yielding, unless `{ truncate: true }`.
   */
  items<K extends ListOperation>(
    operation: K,
    query: QueryOf<K>,
    options?: ItemsOptions,
  ): AsyncGenerator<Result<K>['results'][number], void, undefined> {
    return items(this, operation, query, options);
  }
  /** Products for any number of ids, 50 a request, in order; null for unknown ids; CatalogueBatchError keeps what was fetched. */
  batch(ids: readonly string[], opts?: BatchOptions): Promise<(Product | null)[]> {
    return batch(this, ids, opts);
  }
}

const NO_KEY =
  'no API key: every /v1 operation needs one; pass apiKey to new CatalogueClient (is the environment variable set?)';

/** The reason under fetch's "fetch failed": the system error's code and message when there is one. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string')
    return typeof cause.message === 'string' && cause.message !== '' ? `${cause.code}: ${cause.message}` : cause.code;
  return err instanceof Error ? err.message : String(err);
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
