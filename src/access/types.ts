// The access layer as the HTTP layer sees it: who is calling, may they call now,
// and charging what they use. Guarantees (for every implementation): admission is
// exact — checking a limit and counting against it are one atomic step in the store;
// a store that cannot answer in time yields ApiError('unavailable'), never a pass.
import type { Plan } from './plans';

export type { Plan };

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** What onRequest learned about the caller; handed to charge(). */
export interface Grant {
  keyId: string;
  account: string;
  plan: Plan;
  /**
   * An account made on the dashboard: its plan's allowances (rate, monthly ceiling or cap,
   * included calls, trial) are the account's, shared by all its keys — every key id of the
   * account. null: an operator-made key (no dashboard account), its allowances its own.
   */
  pool: readonly string[] | null;
}

export interface Charge {
  /** Trial requests left after this one, for X-Trial-Requests-Remaining; null when not a trial key. */
  trialRemaining: number | null;
}

export interface AccessControl {
  /**
   * Step 1 of every /v1 request, before the request is parsed or validated:
   * the key (403 / 503), billing state (402), then the key's per-second rate (429).
   * Throws ApiError; resolves with the grant.
   */
  admit(apiKey: string | undefined): Promise<Grant>;
  /**
   * Step 2, after validation and before the catalogue is read: takes `units` calls
   * from every allowance of the key and its account, all or nothing (429 / 503); a pooled
   * grant's monthly ceiling is the account's calls, not the key's.
   */
  charge(grant: Grant, units: number): Promise<Charge>;
  close(): Promise<void>;
}
