// @cosmetics-catalogue/client: a typed client for the Cosmetics Catalogue API.
export { CatalogueClient, ROUTES, type ApiResponse, type ClientOptions } from './client';
export { CatalogueApiError, errorKind, type ErrorKind } from './errors';
export { backoffDelay, withRetries, type RetryOptions } from './retry';
export { normalizeBarcode } from './barcode';
export {
  pages,
  items,
  batch,
  PAGE_SIZE,
  LAST_PAGE,
  BATCH_SIZE,
  type ListOperation,
  type BatchOptions,
} from './helpers';
export type * from './types';
export type { paths, operations } from './openapi';
