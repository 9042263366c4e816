// Where an account stands against the API's walls, in words for the banner every page shows:
// what happened and the one action that resolves it. Guarantees: the same rules, in the same
// order, as the API applies them (src/access/control.ts): a disabled account (403), payment
// required (402), an ended trial (402), a used-up trial (429), the month's cap or ceiling
// reached (429, counted per account: the same count the API checks, src/access/control.ts); an
// account with no wall is the only one the pages call active.
import type { AccessAccounts, KeyRecord, Plan, UserRecord } from '../access';
import { monthOf } from '../access';

export type WallKind = 'disabled' | 'payment' | 'trial-ended' | 'trial-used' | 'cap' | 'ceiling';

export interface Wall {
  kind: WallKind;
  /** The status the API answers the account's keys. */
  status: 402 | 403 | 429;
  title: string;
  text: string;
  /** The one action that resolves it. */
  action: { href: string; text: string } | null;
}

/** What the walls are judged on: the account's plan, trial use and calls this month. */
export interface Standing {
  plan: Plan | undefined;
  trialUsed: number;
  callsThisMonth: number;
  now: number;
}

const DAY_MS = 86_400_000;
const n = (v: number) => v.toLocaleString('en');
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The 1st of the next month (UTC), YYYY-MM-DD. */
export function nextMonthStart(now: number): string {
  const d = new Date(now);
  return date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

export async function standingOf(accounts: AccessAccounts, user: UserRecord, keys?: KeyRecord[]): Promise<Standing> {
  const now = accounts.now();
  const plan = accounts.plans.get(user.plan ?? keys?.[0]?.plan ?? '');
  const [trialUsed, callsThisMonth] = await Promise.all([
    plan?.trial ? accounts.trialUsed(user.name) : Promise.resolve(0),
    accounts.accountCalls(user.name, monthOf(now)),
  ]);
  return { plan, trialUsed, callsThisMonth, now };
}

/** The wall the account is at, or null when its keys are served. `stripe`: payment is resolved on Stripe's pages. */
export function wallOf(user: UserRecord, s: Standing, stripe: boolean): Wall | null {
  const choose = { href: '/dashboard/plans', text: 'Choose a plan' };
  const p = s.plan;
  if (user.disabled)
    return {
      kind: 'disabled',
      status: 403,
      title: 'This account is disabled',
      text: 'Every key of this account answers 403. Contact the operator of this service.',
      action: null,
    };
  if (user.paymentRequired)
    return {
      kind: 'payment',
      status: 402,
      title: 'Payment required',
      text: stripe
        ? 'Your last payment failed: every key of this account answers 402 until it is paid. Update your card and the keys work again within a second.'
        : 'Every key of this account answers 402 until billing is settled. Pay as the operator explains on your account page.',
      action: stripe
        ? { href: '/dashboard/billing', text: 'Update your card' }
        : { href: '/dashboard/account#billing', text: 'How to pay' },
    };
  if (p?.trial && user.firstKeyAt > 0 && s.now >= user.firstKeyAt + p.trial.days * DAY_MS)
    return {
      kind: 'trial-ended',
      status: 402,
      title: 'Your trial has ended',
      text: `It ended on ${date(user.firstKeyAt + p.trial.days * DAY_MS)} (UTC): every key answers 402 until you choose a plan. The sandbox plan is free.`,
      action: choose,
    };
  if (p?.trial && s.trialUsed >= p.trial.requests)
    return {
      kind: 'trial-used',
      status: 429,
      title: `Your ${n(p.trial.requests)} trial requests are used`,
      text: 'Every key answers 429 until you choose a plan. The sandbox plan is free.',
      action: choose,
    };
  if (p && p.monthlyCeiling !== null && s.callsThisMonth >= p.monthlyCeiling) {
    const hard = p.monthlyIncluded === p.monthlyCeiling;
    return {
      kind: hard ? 'cap' : 'ceiling',
      status: 429,
      title: hard
        ? `Your ${p.name} plan's ${n(p.monthlyCeiling)} calls this month are used`
        : `Your ${p.name} plan's ceiling of ${n(p.monthlyCeiling)} calls this month is reached`,
      text: `Every key answers 429 until ${nextMonthStart(s.now)} (UTC), the 1st of next month.${hard ? ' Choose a larger plan to go on now.' : ' Wait until then, or choose a larger plan.'}`,
      action: hard ? choose : { href: '/dashboard/plans', text: 'Wait until the 1st, or choose a larger plan' },
    };
  }
  return null;
}
