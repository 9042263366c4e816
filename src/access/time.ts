// Time as the access layer sees it: UTC billing months, UTC days (the per-day counters) and
// per-second rate windows of an injected Clock (src/access/types.ts; the system clock unless
// a caller passes one).

/** The UTC month of an instant, as YYYY-MM. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The UTC day of an instant, as YYYY-MM-DD. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** A UTC day and the month it is in. */
export interface Period {
  month: string;
  day: string;
}

/** The Period of a stream of instants that mostly fall on the same day (one object per day). */
export class PeriodCache {
  private start = 0;
  private end = -1;
  private period: Period = { month: '', day: '' };
  of(ms: number): Period {
    if (ms < this.start || ms >= this.end) {
      this.start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.end = this.start + DAY_MS;
      this.period = { month: monthOf(ms), day: dayOf(ms) };
    }
    return this.period;
  }
}

/** The month before YYYY-MM. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return monthOf(Date.UTC(y, m - 2, 1));
}

/** Every day (YYYY-MM-DD) of a month. */
export function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number);
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export function parseMonth(s: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(s)) throw new Error(`month must be YYYY-MM, not "${s}"`);
  return s;
}
