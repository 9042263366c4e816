// Time as the access layer sees it: UTC billing months and per-second rate windows of
// an injected Clock (src/access/types.ts; the system clock unless a caller passes one).

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
