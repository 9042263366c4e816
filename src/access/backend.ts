// The contract every store (SQLite, Redis) fulfils. Guarantees of each implementation:
// hit() and charge() check and count in one atomic step shared by every process using the
// store; every change to keys or accounts bumps version() in the same atomic step.

export interface KeyRecord {
  id: string;
  /** Hex SHA-256 of the secret. */
  hash: string;
  account: string;
  plan: string;
  disabled: boolean;
  createdAt: number;
}

export interface AccountRecord {
  name: string;
  paymentRequired: boolean;
  /** When the account's first key was created (ms); trials expire from here. */
  firstKeyAt: number;
}

export interface Snapshot {
  version: number;
  keys: KeyRecord[];
  accounts: AccountRecord[];
}

export interface ChargeRequest {
  keyId: string;
  account: string;
  month: string;
  units: number;
  /** Per key and month; null for none. */
  ceiling: number | null;
  /** Per account, ever; null when not a trial. */
  trialLimit: number | null;
}

/** 'trial' / 'ceiling': refused whole, nothing counted but the refusal. Otherwise trial requests left (0 when not a trial). */
export type ChargeResult = number | 'trial' | 'ceiling';

export interface UsageRow {
  keyId: string;
  calls: number;
  refused: number;
}

export interface Backend {
  version(): Promise<number>;
  snapshot(): Promise<Snapshot>;
  /** Counts one request in the key's rate window `second`; false (and a refusal tallied) when that makes it exceed `limit`. */
  hit(keyId: string, second: number, limit: number, month: string): Promise<boolean>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Creates the key, and its account when new (first key at `key.createdAt`). */
  createKey(key: KeyRecord): Promise<void>;
  /** False when no key has this id. */
  disableKey(id: string): Promise<boolean>;
  /** Sets or lifts payment-required on the key's account; false when no key has this id. */
  setPaymentRequired(keyId: string, on: boolean): Promise<boolean>;
  usage(month: string): Promise<UsageRow[]>;
  close(): Promise<void>;
}
