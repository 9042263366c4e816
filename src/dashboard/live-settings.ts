// The dashboard settings admins change on the settings page (sign-up mode, the plan of new
// accounts, the billing instructions), live on every instance. Guarantees: a value set on the
// page is kept in the access store and replaces the operator's start-up value on every
// instance within POLL_MS (each polls the store; the instance that saved it at once); until an
// admin sets one, the start-up options hold; a stored value the plans no longer know is ignored.
import type { AccessAccounts } from '../access';
import type { DashboardSettings } from './settings';

export const POLL_MS = 1000;
export const LIVE = ['signup', 'signupPlan', 'billingText'] as const;
export type LiveName = (typeof LIVE)[number];

/** Applies a stored value to `settings` (in place) when it is valid. */
export function apply(settings: DashboardSettings, accounts: AccessAccounts, name: LiveName, value: string): void {
  if (name === 'signup' && (value === 'open' || value === 'invite')) settings.signup = value;
  else if (name === 'signupPlan' && accounts.plans.has(value)) settings.signupPlan = value;
  else if (name === 'billingText' && value.length <= 10_000) settings.billingText = value;
}

/** Reads every live setting from the store into `settings`. */
export async function refresh(settings: DashboardSettings, accounts: AccessAccounts): Promise<void> {
  const values = await Promise.all(LIVE.map((n) => accounts.selfServe.setting(`dashboard.${n}`)));
  LIVE.forEach((n, i) => values[i] !== null && apply(settings, accounts, n, values[i]));
}

/** Saves one setting for every instance and applies it here at once. */
export async function save(
  settings: DashboardSettings,
  accounts: AccessAccounts,
  name: LiveName,
  value: string,
): Promise<void> {
  await accounts.selfServe.setSetting(`dashboard.${name}`, value);
  apply(settings, accounts, name, value);
}
