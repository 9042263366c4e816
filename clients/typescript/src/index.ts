// @cosmetics-catalogue/client: a typed client for the Cosmetics Catalogue API.
export { CatalogueClient, ROUTES, DEFAULT_TIMEOUT_MS, type ApiResponse, type ClientOptions } from './client';
export {
  CatalogueApiError,
  CatalogueClientError,
  CatalogueTruncatedError,
  CatalogueBatchError,
  errorKind,
  type ErrorKind,
  type ClientErrorCode,
} from './errors';
export { backoffDelay, withRetries, type RetryOptions } from './retry';
export { normalizeBarcode } from './barcode';
export {
  pages,
  items,
  batch,
  PAGE_SIZE,
  LAST_PAGE,
  REACHABLE_ROWS,
  BATCH_SIZE,
  type ListOperation,
  type BatchOptions,
  type ItemsOptions,
  type RequestOptions,
} from './helpers';
export type * from './types';
export type { paths, operations } from './openapi';
