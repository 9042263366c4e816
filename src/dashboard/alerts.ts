// Usage alerts by mail (docs/dashboard.md, "Mail"): at 80 % and 100 % of a plan's included
// calls (or of its cap) in a UTC month, counted per account, and when a trial has 3 days or 10
// requests left. Guarantees: each alert is one mail event (`usage-80:ACCOUNT:MONTH`, …), so it
// goes out once however many instances check and however often; an account that turned
// alerts off gets none; a check reads the month's usage once for every account.
import type { AccessAccounts } from '../access';
import { monthOf } from '../access';
import type { Mailer } from '../mail';

const DAY_MS = 86_400_000;
export const TRIAL_DAYS_LEFT = 3;
export const TRIAL_REQUESTS_LEFT = 10;
const n = (v: number) => v.toLocaleString('en');

export class UsageAlerts {
  constructor(
    private readonly accounts: AccessAccounts,
    private readonly mailer: Mailer,
  ) {}

  /** Checks every dashboard account once; the number of alerts mailed. */
  async check(): Promise<number> {
    const now = this.accounts.now();
    const month = monthOf(now);
    const [snap, usage] = await Promise.all([this.accounts.snapshot(), this.accounts.usage(month)]);
    const calls = new Map(usage.accounts.map((a) => [a.account, a.calls]));
    let sent = 0;
    for (const a of snap.accounts) {
      if (!a.email || a.disabled) continue;
      const plan = this.accounts.plans.get(a.plan ?? '');
      if (plan === undefined) continue;
      const due: { send: () => Promise<string> }[] = [];
      if (plan.trial) {
        const ends = a.firstKeyAt > 0 ? a.firstKeyAt + plan.trial.days * DAY_MS : 0;
        if (ends > now && ends - now <= TRIAL_DAYS_LEFT * DAY_MS)
          due.push(this.trial(`trial-days:${a.name}`, a.email, `${Math.ceil((ends - now) / DAY_MS)} days`));
        const used = a.firstKeyAt > 0 ? await this.accounts.trialUsed(a.name) : 0;
        const left = plan.trial.requests - used;
        if (left > 0 && left <= TRIAL_REQUESTS_LEFT)
          due.push(this.trial(`trial-requests:${a.name}`, a.email, `${left} request${left === 1 ? '' : 's'}`));
      } else {
        const hardCap = plan.monthlyIncluded !== null && plan.monthlyIncluded === plan.monthlyCeiling;
        const allowance = plan.monthlyIncluded;
        const c = calls.get(a.name) ?? 0;
        if (allowance !== null && allowance > 0)
          for (const percent of [100, 80])
            if (c >= (allowance * percent) / 100) {
              due.push({
                send: () =>
                  this.mailer.send(`usage-${percent}:${a.name}:${month}`, a.email!, 'usage', {
                    plan: plan.name,
                    percent,
                    calls: n(c),
                    allowance: `${n(allowance)} ${hardCap ? 'calls a month (its cap)' : 'included calls a month'}`,
                    hardCap,
                    link: this.mailer.link('/plans'),
                  }),
              });
              break; // past 100 %, the 80 % mail is no news
            }
      }
      if (due.length === 0 || !(await this.accounts.selfServe.prefs(a.name)).alerts) continue;
      for (const d of due) {
        const outcome = await d.send();
        if (outcome === 'sent' || outcome === 'outbox') sent++;
      }
    }
    return sent;
  }

  private trial(event: string, to: string, left: string) {
    return { send: () => this.mailer.send(event, to, 'trial', { left, link: this.mailer.link('/plans') }) };
  }
}
