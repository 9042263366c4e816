// The client: one base URL and key, one typed method per operation, on the platform
// fetch. Guarantees: every request goes through `call`, which builds the URL from the
// operation's route, sends the key, returns the typed 200 body with the status and
// headers, throws a CatalogueApiError for any other status, and retries only what can
// succeed (src/retry.ts). Adding an operation: one line in ROUTES, one method.
import { CatalogueApiError } from './errors';
import { withRetries, type RetryOptions } from './retry';
import { normalizeBarcode } from './barcode';
import { batch, items, pages, type BatchOptions, type ListOperation } from './helpers';
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
  /** Sent as x-api-key on every request; /health needs none. Keep it on the server side. */
  apiKey?: string;
  /** Retry policy for per-second 429s and 503s; `false` sends every request once. */
  retry?: RetryOptions | false;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export class CatalogueClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Calls an operation by its operationId; the typed body comes with the status and headers. */
  async call<K extends OperationId>(operation: K, params: Params<K>): Promise<ApiResponse<K>> {
    const { method, path } = ROUTES[operation] as { method: Method; path: string };
    const p = params as { query?: object; path?: Record<string, string>; body?: unknown };
    const url = this.baseUrl + fillPath(path, p.path ?? {}) + queryString(p.query ?? {});
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey !== undefined) headers['x-api-key'] = this.options.apiKey;
    if (p.body !== undefined) headers['content-type'] = 'application/json';
    const body = p.body === undefined ? undefined : JSON.stringify(p.body);
    const send = async (): Promise<ApiResponse<K>> => {
      const res = await this.fetch(url, { method, headers, body });
      if (res.status !== 200) throw await CatalogueApiError.from(res);
      return { data: (await res.json()) as Result<K>, status: res.status, headers: res.headers };
    };
    return this.options.retry === false ? send() : withRetries(send, this.options.retry);
  }

  /** The typed 200 body of an operation. */
  async data<K extends OperationId>(operation: K, params: Params<K>): Promise<Result<K>> {
    return (await this.call(operation, params)).data;
  }

  health(): Promise<Health> {
    return this.data('getHealth', {});
  }
  searchProducts(query: SearchQuery): Promise<Result<'searchProducts'>> {
    return this.data('searchProducts', { query });
  }
  filterProducts(query: FilterQuery = {}): Promise<Result<'filterProducts'>> {
    return this.data('filterProducts', { query });
  }
  getProduct(id: string): Promise<Product> {
    return this.data('getProduct', { path: { id } });
  }
  /** Spaces and dashes are stripped first (normalizeBarcode); anything but 8 to 14 digits rejects with a RangeError, unsent. */
  async getProductByBarcode(barcode: string): Promise<Product> {
    return this.data('getProductByBarcode', { path: { barcode: normalizeBarcode(barcode) } });
  }
  /** One request of 1 to 50 ids; `batch` (src/helpers.ts) takes any number. */
  batchProducts(ids: string[]): Promise<Result<'batchProducts'>> {
    return this.data('batchProducts', { body: { ids } });
  }
  searchIngredients(query: SearchQuery): Promise<Result<'searchIngredients'>> {
    return this.data('searchIngredients', { query });
  }
  getIngredient(id: string): Promise<Ingredient> {
    return this.data('getIngredient', { path: { id } });
  }
  /** Parses and joins any label text (POST /v1/labels/analyze). */
  analyzeLabel(text: string): Promise<LabelAnalysis> {
    return this.data('analyzeLabel', { body: { text } });
  }

  /** Every page of a search or filter, stopping after page 51. */
  pages<K extends ListOperation>(operation: K, query: QueryOf<K>): AsyncGenerator<Result<K>, void, undefined> {
    return pages(this, operation, query);
  }
  /** Every result of a search or filter (at most 1,020). */
  items<K extends ListOperation>(
    operation: K,
    query: QueryOf<K>,
  ): AsyncGenerator<Result<K>['results'][number], void, undefined> {
    return items(this, operation, query);
  }
  /** Products for any number of ids, 50 a request, in order; null for unknown ids. */
  batch(ids: readonly string[], opts?: BatchOptions): Promise<(Product | null)[]> {
    return batch(this, ids, opts);
  }
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
