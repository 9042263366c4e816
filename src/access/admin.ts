// What an operator does to keys and accounts, and the monthly usage report a bill is
// made from. Guarantees: a secret exists only in createKey's result; every key is
// created on a plan this deployment knows.
import type { Backend, KeyRecord, Snapshot } from './backend';
import type { Plans } from './plans';
import { hashSecret, newAccountName, newKeyId, newSecret, rememberPrefix } from './secret';
import type { Clock } from './types';

export interface CreatedKey {
  id: string;
  key: string;
  plan: string;
  account: string;
}

export interface KeyListing {
  id: string;
  plan: string;
  account: string;
  disabled: boolean;
  paymentRequired: boolean;
  createdAt: string;
}

export interface UsageFigures {
  calls: number;
  included: number;
  overage: number;
  refused: number;
}

export interface UsageReport {
  month: string;
  keys: (UsageFigures & { id: string; account: string; plan: string })[];
  accounts: (UsageFigures & { account: string })[];
}

const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

export class AccessAdmin {
  constructor(
    private readonly store: Backend,
    readonly plans: Plans,
    private readonly clock: Clock,
  ) {}

  async createKey(plan: string, account?: string): Promise<CreatedKey> {
    if (!this.plans.has(plan)) throw new Error(`unknown plan "${plan}" (known: ${[...this.plans.keys()].join(', ')})`);
    if (account !== undefined && !ACCOUNT.test(account)) {
      throw new Error(`account must be 1 to 128 letters, digits or . _ @ + - (starting with a letter or digit)`);
    }
    const key = newSecret();
    const record: KeyRecord = {
      id: newKeyId(),
      hash: hashSecret(key)!,
      account: account ?? newAccountName(),
      plan,
      disabled: false,
      createdAt: this.clock.now(),
    };
    await this.store.createKey(record);
    await rememberPrefix(this.store, key, record.id, record.createdAt);
    return { id: record.id, key, plan, account: record.account };
  }

  async disableKey(id: string): Promise<void> {
    if (!(await this.store.disableKey(id))) throw new Error(`no key has id "${id}"`);
  }

  async setPaymentRequired(id: string, on: boolean): Promise<void> {
    if (!(await this.store.setPaymentRequired(id, on))) throw new Error(`no key has id "${id}"`);
  }

  async listKeys(): Promise<KeyListing[]> {
    const snap = await this.store.snapshot();
    const accounts = new Map(snap.accounts.map((a) => [a.name, a]));
    return sortedKeys(snap).map((k) => ({
      id: k.id,
      plan: k.plan,
      account: k.account,
      disabled: k.disabled,
      paymentRequired: accounts.get(k.account)?.paymentRequired ?? false,
      createdAt: new Date(k.createdAt).toISOString(),
    }));
  }

  /**
   * Per key and per account for one UTC month: calls served, of which included and overage, and
   * requests refused (429). A dashboard account's included calls are the account's: its keys
   * take them in the order the keys were made, so its keys' figures add up to the account's.
   */
  async usage(month: string): Promise<UsageReport> {
    const [snap, rows] = await Promise.all([this.store.snapshot(), this.store.usage(month)]);
    const byKey = new Map(rows.map((r) => [r.keyId, r]));
    const keys: UsageReport['keys'] = [];
    const accounts = new Map<string, UsageFigures & { account: string }>();
    /** Dashboard accounts (their included calls are the account's): the included calls not yet given to a key. */
    const left = new Map(snap.accounts.filter((a) => a.email).map((a) => [a.name, Infinity]));
    for (const k of sortedKeys(snap)) {
      const row = byKey.get(k.id);
      if (row === undefined) continue;
      const plan = this.plans.get(k.plan);
      if (plan === undefined)
        throw new Error(`key ${k.id} is on plan "${k.plan}", unknown here (pass the deployment's --plans file)`);
      const pooled = left.get(k.account);
      const allowance = plan.monthlyIncluded ?? row.calls;
      const included = Math.min(row.calls, allowance, pooled ?? allowance);
      if (pooled !== undefined) left.set(k.account, Math.min(pooled, allowance) - included);
      const figures = { calls: row.calls, included, overage: row.calls - included, refused: row.refused };
      keys.push({ id: k.id, account: k.account, plan: k.plan, ...figures });
      const acc = accounts.get(k.account) ?? { account: k.account, calls: 0, included: 0, overage: 0, refused: 0 };
      acc.calls += figures.calls;
      acc.included += figures.included;
      acc.overage += figures.overage;
      acc.refused += figures.refused;
      accounts.set(k.account, acc);
    }
    return { month, keys, accounts: [...accounts.values()].sort((a, b) => a.account.localeCompare(b.account)) };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** The usage report as CSV, one row per key (`catalogue usage --csv` and the admin usage page). */
export function usageCsv(r: UsageReport): string {
  const rows = r.keys.map((k) => [r.month, k.id, k.account, k.plan, k.calls, k.included, k.overage, k.refused]);
  return (
    [['month', 'key_id', 'account', 'plan', 'calls', 'included', 'overage', 'refused'], ...rows]
      .map((row) => row.map((c) => (/^[\w.@+:-]*$/.test(String(c)) ? String(c) : JSON.stringify(String(c)))).join(','))
      .join('\r\n') + '\r\n'
  );
}

function sortedKeys(snap: Snapshot): KeyRecord[] {
  return [...snap.keys].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}
