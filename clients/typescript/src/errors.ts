// The one error type the client throws, CatalogueApiError, and its subclasses. Guarantees:
// a refusal by the API carries the body exactly as the service sent it (statusCode, error,
// message), the response headers, and which kind of refusal it is, so callers and the retry
// rule can tell a per-second rate limit (worth retrying) from an exhausted allowance (not);
// whatever else stops a call (the network, a timeout, the caller's AbortSignal, an argument
// refused before sending, a listing cut at 1,020 rows) is a CatalogueClientError, a
// CatalogueApiError with statusCode 0 and a `code`; a batch that fails part-way is a
// CatalogueBatchError carrying the products already fetched. One `instanceof
// CatalogueApiError` catches them all.
import type { ErrorBody, Product } from './types';

/** What stopped a call on the client's side (statusCode 0). */
export type ClientErrorCode =
  | 'network' // no answer: connection refused or reset, DNS, TLS…; retried as a 503 is
  | 'bad_response' // an answer that is not the API's JSON (a proxy's page, say)
  | 'timeout' // the call's timeoutMs passed (retries and waits included)
  | 'aborted' // the caller's AbortSignal fired
  | 'no_api_key' // a /v1 operation and no apiKey (an unset environment variable, say)
  | 'invalid_barcode' // not 8 to 14 digits once spaces and dashes are removed; never sent
  | 'truncated'; // items() over a listing of more than 1,020 rows, without { truncate: true }

/**
 * What a failure means for a retry. The service sends no rate-limit headers, so 429s are
 * told apart by the documented message forms (api-spec.md 7, metering.md).
 */
export type ErrorKind =
  | 'bad_request' // 400
  | 'payment_required' // 402: trial expired or billing
  | 'forbidden' // 403: key invalid or disabled, or plan without barcode lookup
  | 'not_found' // 404
  | 'unsupported_media_type' // 415
  | 'rate_limited' // 429 "Rate limit exceeded; retry with backoff": the next second can succeed
  | 'trial_used' // 429 "The 100 trial requests are used…": never succeeds again
  | 'monthly_limit' // 429 "Monthly request limit reached…": not before the 1st (UTC)
  | 'unavailable' // 503 "Unable to verify API access, retry shortly"
  | 'other'
  | ClientErrorCode; // statusCode 0: CatalogueClientError

const BY_STATUS: Record<number, ErrorKind> = {
  400: 'bad_request',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  415: 'unsupported_media_type',
  503: 'unavailable',
};

/** The kind of a refusal from its status and message. */
export function errorKind(statusCode: number, message: string): ErrorKind {
  if (statusCode !== 429) return BY_STATUS[statusCode] ?? 'other';
  if (/^Rate limit exceeded/i.test(message)) return 'rate_limited';
  if (/trial requests are used/i.test(message)) return 'trial_used';
  if (/^Monthly request limit/i.test(message)) return 'monthly_limit';
  return 'other';
}

export class CatalogueApiError extends Error implements ErrorBody {
  override readonly name: string = 'CatalogueApiError';
  readonly kind: ErrorKind;

  constructor(
    /** The HTTP status; 0 when no answer was had (CatalogueClientError). */
    readonly statusCode: number,
    readonly error: string,
    message: string,
    /** The response headers, X-Trial-Requests-Remaining included when sent (empty when no answer). */
    readonly headers: Headers,
    options: { kind?: ErrorKind; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind ?? errorKind(statusCode, message);
  }

  /** X-Trial-Requests-Remaining as a number, or null when the response had none. */
  get trialRequestsRemaining(): number | null {
    const v = this.headers.get('x-trial-requests-remaining');
    return v === null ? null : Number(v);
  }

  /** Whether the same request can succeed later: a per-second rate limit, a 503 or a network failure. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable' || this.kind === 'network';
  }

  /** The error body as the service sent it. */
  body(): ErrorBody {
    return { statusCode: this.statusCode, error: this.error, message: this.message };
  }

  /** Reads a non-2xx response into an error; a body that is not the spec's shape keeps the status. */
  static async from(res: Response): Promise<CatalogueApiError> {
    const text = await res.text();
    let body: Partial<ErrorBody> = {};
    try {
      body = JSON.parse(text) as Partial<ErrorBody>;
    } catch {
      // not JSON (e.g. a proxy's page): keep the status and the text
    }
    const message = typeof body.message === 'string' ? body.message : text.slice(0, 200);
    const error = typeof body.error === 'string' ? body.error : res.statusText;
    return new CatalogueApiError(res.status, error, message, res.headers);
  }
}

/** A call stopped on the client's side: no answer, or none asked for. statusCode is 0; `cause` is the underlying error. */
export class CatalogueClientError extends CatalogueApiError {
  override readonly name: string = 'CatalogueClientError';

  constructor(
    readonly code: ClientErrorCode,
    message: string,
    cause?: unknown,
  ) {
    super(0, 'Client Error', message, new Headers(), { kind: code, cause });
  }
}

/** items() over a listing whose rows go on past the last page the service serves. */
export class CatalogueTruncatedError extends CatalogueClientError {
  override readonly name: string = 'CatalogueTruncatedError';

  constructor(
    /** pagination.total of the listing. */
    readonly total: number,
    /** The rows the service serves (51 pages of 20). */
    readonly reachable: number,
  ) {
    super(
      'truncated',
      `the listing has ${total} results and the service serves the first ${reachable} (51 pages of 20): ` +
        'narrow the query, or pass { truncate: true } to items() to take the first ones',
    );
  }
}

/**
 * batch() refused part-way: the refusal itself (statusCode, error, message, headers and kind are
 * its own, `cause` is it) with the products of the requests that succeeded, which are billed.
 */
export class CatalogueBatchError extends CatalogueApiError {
  override readonly name: string = 'CatalogueBatchError';

  constructor(
    readonly cause: CatalogueApiError,
    /** One entry per id given, in order: the product, null (no such product) or undefined (not fetched). */
    readonly results: (Product | null | undefined)[],
    /** The ids not fetched, in order (duplicates kept): batch() them again to finish. */
    readonly unfetchedIds: string[],
  ) {
    super(cause.statusCode, cause.error, cause.message, cause.headers, { kind: cause.kind, cause });
  }
}
