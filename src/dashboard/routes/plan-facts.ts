// What an account's plan includes and where its billing stands, in words for the pages.
// Guarantees: the same rules the API applies (src/access/control.ts): a disabled account, then
// payment required, then an ended trial.
import type { AccessAccounts, AccountRecord, KeyRecord, Plan, UserRecord } from '../../access';
import { standingOf, wallOf, type WallKind } from '../wall';

export interface PlanFacts {
  plan: string;
  known: boolean;
  included: string;
  ceiling: string;
  rate: string;
  barcode: boolean;
  trial: { requests: number; left: number | null; ends: string | null } | null;
  state: 'active' | 'payment required' | 'trial ended' | 'disabled' | 'trial used' | 'cap reached' | 'ceiling reached';
  callsThisMonth: number;
}

const STATE: Record<WallKind, PlanFacts['state']> = {
  disabled: 'disabled',
  payment: 'payment required',
  'trial-ended': 'trial ended',
  'trial-used': 'trial used',
  cap: 'cap reached',
  ceiling: 'ceiling reached',
};

const DAY_MS = 86_400_000;
const n = (v: number) => v.toLocaleString('en');

export function billingState(a: AccountRecord, plan: Plan | undefined, now: number): PlanFacts['state'] {
  if (a.disabled) return 'disabled';
  if (a.paymentRequired) return 'payment required';
  if (plan?.trial && a.firstKeyAt > 0 && now >= a.firstKeyAt + plan.trial.days * DAY_MS) return 'trial ended';
  return 'active';
}

/** The account's plan in words and its billing state: 'active' only while the API serves its keys. */
export async function planFacts(accounts: AccessAccounts, a: UserRecord, keys: KeyRecord[]): Promise<PlanFacts> {
  const name = a.plan ?? keys[0]?.plan ?? '';
  const plan = accounts.plans.get(name);
  const trial = plan?.trial ?? null;
  const standing = await standingOf(accounts, a, keys);
  const wall = wallOf(a, standing, false);
  return {
    plan: name,
    known: plan !== undefined,
    included: trial
      ? `${n(trial.requests)} requests in all, for ${n(trial.days)} days from the first key`
      : plan?.monthlyIncluded == null
        ? 'no monthly allowance'
        : `${n(plan.monthlyIncluded)} calls a month for the account`,
    ceiling: trial
      ? 'the trial requests'
      : plan?.monthlyCeiling == null
        ? 'none'
        : `${n(plan.monthlyCeiling)} calls a month for the account`,
    rate: plan?.ratePerSecond == null ? 'no limit' : `${n(plan.ratePerSecond)} requests a second for the account`,
    barcode: plan?.barcode ?? false,
    trial:
      trial === null
        ? null
        : {
            requests: trial.requests,
            left: Math.max(0, trial.requests - standing.trialUsed),
            ends: a.firstKeyAt > 0 ? new Date(a.firstKeyAt + trial.days * DAY_MS).toISOString().slice(0, 10) : null,
          },
    state: wall === null ? 'active' : STATE[wall.kind],
    callsThisMonth: standing.callsThisMonth,
  };
}
