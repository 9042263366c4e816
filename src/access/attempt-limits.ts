// The attempt limits of the dashboard's password checks (docs/dashboard.md, Security).
// Guarantees: an attempt is counted in the store, in one atomic step shared by every process
// (SQLite: one INSERT … ON CONFLICT … RETURNING; Redis: INCRBY and PEXPIRE in one MULTI on one
// key), BEFORE its password is checked, and the count that step returns decides; so however
// many attempts arrive at once, at most `max` of them are checked per window. An attempt whose
// password was right is given back. Counters are kept under the SHA-256 of what they count
// (no email or address is stored), in fixed windows of the caller's clock, never longer.
import { hash } from 'node:crypto';
import type { Backend } from './backend';
import type { Clock } from './types';

export interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

export const LIMITS = {
  /** One email from one client address: a guesser on one address is refused after 5. */
  pair: { max: 5, windowMs: 5 * MINUTE },
  /** One client address, whatever the emails. */
  address: { max: 20, windowMs: 5 * MINUTE },
  /**
   * One email from every address together (a guess spread over many addresses), except from a
   * browser that signed in to the account before (its signed cookie): the owner is not refused.
   */
  email: { max: 20, windowMs: 15 * MINUTE },
  /** Current-password checks of one account on the change-password form. */
  password: { max: 5, windowMs: 5 * MINUTE },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** One counter in its current window. */
export interface Counter {
  name: string;
  window: number;
  limit: Limit;
}

export class AttemptLimits {
  constructor(
    private readonly store: Pick<Backend, 'attempts'>,
    private readonly clock: Clock,
    private readonly guard: <T>(op: () => Promise<T>) => Promise<T>,
  ) {}

  /** The counter of `limit` for `what` (an email, an address, a pair, an account) now. */
  counter(limit: LimitName, what: string): Counter {
    const l = LIMITS[limit];
    return {
      name: `${limit}:${hash('sha256', what, 'hex')}`,
      window: Math.floor(this.clock.now() / l.windowMs),
      limit: l,
    };
  }

  /** Counts one attempt; false when that makes it more than the limit (the attempt must not be checked). */
  async take(c: Counter): Promise<boolean> {
    return (await this.count(c, 1)) <= c.limit.max;
  }

  /** Gives back attempts that succeeded. */
  async giveBack(counters: Counter[]): Promise<void> {
    await Promise.all(counters.map((c) => this.count(c, -1)));
  }

  private count(c: Counter, add: number): Promise<number> {
    return this.guard(() => this.store.attempts(c.name, c.window, c.limit.windowMs, add));
  }
}
