// Helpers of the access-layer tests: a clock that moves only when a test sets it, and an
// operation's outcome as `ok` or `STATUS message` (the ApiError the service would answer).
import type { Clock } from '../../src/access';
import { ApiError } from '../../src/shared/errors';

export class ManualClock implements Clock {
  constructor(public ms: number) {}
  now(): number {
    return this.ms;
  }
}

/** `ok`, or the refusal's `STATUS message`; any other error is rethrown. */
export async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return `${err.statusCode} ${err.message}`;
    throw err;
  }
}
