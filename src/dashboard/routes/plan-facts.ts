// What an account's plan includes and where its billing stands, in words for the pages.
// Guarantees: the same rules the API applies (src/access/control.ts): a disabled account, then
// payment required, then an ended trial.
import type { AccessAccounts, AccountRecord, KeyRecord, Plan } from '../../access';

export interface PlanFacts {
  plan: string;
  known: boolean;
  included: string;
  ceiling: string;
  rate: string;
  barcode: boolean;
  trial: { requests: number; left: number | null; ends: string | null } | null;
  state: 'active' | 'payment required' | 'trial ended' | 'disabled';
  callsThisMonth: number;
}

const DAY_MS = 86_400_000;
const n = (v: number) => v.toLocaleString('en');

export function billingState(a: AccountRecord, plan: Plan | undefined, now: number): PlanFacts['state'] {
  if (a.disabled) return 'disabled';
  if (a.paymentRequired) return 'payment required';
  if (plan?.trial && a.firstKeyAt > 0 && now >= a.firstKeyAt + plan.trial.days * DAY_MS) return 'trial ended';
  return 'active';
}

export async function planFacts(
  accounts: AccessAccounts,
  a: AccountRecord,
  keys: KeyRecord[],
  callsThisMonth: number,
): Promise<PlanFacts> {
  const name = a.plan ?? keys[0]?.plan ?? '';
  const plan = accounts.plans.get(name);
  const trial = plan?.trial ?? null;
  return {
    plan: name,
    known: plan !== undefined,
    included: plan?.monthlyIncluded == null ? 'none' : `${n(plan.monthlyIncluded)} calls a month`,
    ceiling: plan?.monthlyCeiling == null ? 'none' : `${n(plan.monthlyCeiling)} calls a month per key`,
    rate: plan?.ratePerSecond == null ? 'no limit' : `${n(plan.ratePerSecond)} requests a second per key`,
    barcode: plan?.barcode ?? false,
    trial:
      trial === null
        ? null
        : {
            requests: trial.requests,
            left: Math.max(0, trial.requests - (await accounts.trialUsed(a.name))),
            ends: a.firstKeyAt > 0 ? new Date(a.firstKeyAt + trial.days * DAY_MS).toISOString().slice(0, 10) : null,
          },
    state: billingState(a, plan, accounts.now()),
    callsThisMonth,
  };
}
