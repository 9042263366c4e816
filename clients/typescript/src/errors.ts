// The one error type the client throws for a refusal by the API. Guarantees: it carries
// the body exactly as the service sent it (statusCode, error, message), the response
// headers, and which kind of refusal it is, so callers and the retry rule can tell a
// per-second rate limit (worth retrying) from an exhausted allowance (not).
import type { ErrorBody } from './types';

/**
 * What a refusal means for a retry. The service sends no rate-limit headers, so 429s are
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
  | 'other';

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
  override readonly name = 'CatalogueApiError';
  readonly kind: ErrorKind;

  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    /** The response headers, X-Trial-Requests-Remaining included when sent. */
    readonly headers: Headers,
  ) {
    super(message);
    this.kind = errorKind(statusCode, message);
  }

  /** X-Trial-Requests-Remaining as a number, or null when the response had none. */
  get trialRequestsRemaining(): number | null {
    const v = this.headers.get('x-trial-requests-remaining');
    return v === null ? null : Number(v);
  }

  /** Whether the same request can succeed later: a per-second rate limit or a 503. */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
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
