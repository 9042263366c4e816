// One error type for everything the API refuses. Guarantees: the list of codes is
// closed, each code has exactly one HTTP status, and the body sent for it is always
// {statusCode, error, message} with the HTTP reason phrase, never internals. Every error
// also carries a machine-readable reason from a closed set (the fixed refusals below, or
// its code), which metrics and logs use instead of the message text.
import { STATUS_CODES } from 'node:http';

export const ERROR_STATUS = {
  bad_request: 400,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** The fixed messages the specification gives. */
export const MESSAGES = {
  invalidKey: 'Invalid or missing API key',
  noBarcodePlan: 'Your plan does not include barcode lookup',
  rateLimited: 'Rate limit exceeded; retry with backoff',
  unavailable: 'Unable to verify API access, retry shortly',
  trialUsed: 'The 100 trial requests are used; choose a plan to continue',
  trialExpired: 'The trial has expired; choose a plan to continue',
  paymentRequired: 'Payment required; resolve billing on the dashboard',
  monthlyCap: 'Monthly request limit reached for this key; it resets on the 1st (UTC)',
} as const;
export type Refusal = keyof typeof MESSAGES;

/** The code of each fixed refusal. */
const REFUSAL_CODE: Record<Refusal, ErrorCode> = {
  invalidKey: 'forbidden',
  noBarcodePlan: 'forbidden',
  rateLimited: 'too_many_requests',
  unavailable: 'unavailable',
  trialUsed: 'too_many_requests',
  trialExpired: 'payment_required',
  paymentRequired: 'payment_required',
  monthlyCap: 'too_many_requests',
};

/** Why a request was refused: one of the fixed refusals, or the error code itself. */
export type Reason = Refusal | ErrorCode;

export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly reason: Reason = code,
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }

  /** One of the refusals the specification fixes, with its exact message. */
  static refusal(reason: Refusal): ApiError {
    return new ApiError(REFUSAL_CODE[reason], MESSAGES[reason], reason);
  }

  body(): { statusCode: number; error: string; message: string } {
    return { statusCode: this.statusCode, error: STATUS_CODES[this.statusCode] ?? 'Error', message: this.message };
  }
}
