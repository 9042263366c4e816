// When and how long the client waits before sending a failed request again. Guarantees:
// only failures that can succeed later are retried (a per-second 429, a 503 and a network
// failure, never 402, 403 or an exhausted allowance); waits grow exponentially with jitter;
// a call makes at most `attempts` requests, never starts a wait that would end past
// `maxElapsedMs`, and stops waiting at once when its AbortSignal fires (rejecting with the
// signal's reason).
import { CatalogueApiError } from './errors';

export interface RetryOptions {
  /** Requests per call, the first included (default 4; 1 turns retries off). */
  attempts?: number;
  /** Wait before the first retry, before jitter (default 250 ms). */
  baseDelayMs?: number;
  /** Cap on one wait (default 4,000 ms). */
  maxDelayMs?: number;
  /** No wait may end later than this after the call started (default 15,000 ms). */
  maxElapsedMs?: number;
  /** Told before each wait (for logs or metrics). */
  onRetry?: (info: { attempt: number; delayMs: number; error: CatalogueApiError }) => void;
}

const DEFAULTS = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4000, maxElapsedMs: 15_000 };

/** The wait before retry number `retry` (1, 2, …): half fixed, half random ("equal jitter"). */
export function backoffDelay(retry: number, opts: RetryOptions = {}, random = Math.random): number {
  const base = opts.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const cap = opts.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const d = Math.min(cap, base * 2 ** (retry - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/** Runs `send` until it succeeds, fails for good, the attempts or time run out, or `signal` fires. */
export async function withRetries<T>(
  send: () => Promise<T>,
  opts: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  const attempts = Math.max(1, opts.attempts ?? DEFAULTS.attempts);
  const deadline = Date.now() + (opts.maxElapsedMs ?? DEFAULTS.maxElapsedMs);
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof CatalogueApiError) || !err.retryable || attempt >= attempts) throw err;
      const delayMs = backoffDelay(attempt, opts);
      if (Date.now() + delayMs > deadline) throw err;
      opts.onRetry?.({ attempt, delayMs, error: err });
      await sleep(delayMs, signal);
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(reasonOf(signal));
    const done = () => {
      clearTimeout(timer);
      reject(reasonOf(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function reasonOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
