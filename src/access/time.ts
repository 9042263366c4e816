// Time as the access layer sees it: an injectable clock, UTC billing months and
// per-second rate windows. CATALOGUE_CLOCK_OFFSET_MS (test only) shifts the system clock.
import { systemClock, type Clock } from './types';

export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = env.CATALOGUE_CLOCK_OFFSET_MS;
  if (raw === undefined || raw === '') return systemClock;
  const offset = Number(raw);
  if (!Number.isFinite(offset)) throw new Error(`CATALOGUE_CLOCK_OFFSET_MS must be a number of milliseconds, not "${raw}"`);
  return { now: () => Date.now() + offset };
}

/** The UTC month of an instant, as YYYY-MM. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** monthOf() for a stream of instants that mostly fall in the same month. */
export class MonthCache {
  private start = 0;
  private end = -1;
  private month = '';
  of(ms: number): string {
    if (ms < this.start || ms >= this.end) {
      const d = new Date(ms);
      this.start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      this.end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      this.month = monthOf(ms);
    }
    return this.month;
  }
}

export function parseMonth(s: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(s)) throw new Error(`month must be YYYY-MM, not "${s}"`);
  return s;
}
