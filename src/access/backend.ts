// The contract every store (SQLite, Redis) fulfils. Guarantees of each implementation:
// hit() and charge() check and count in one atomic step shared by every process using the
// store, and count the key's day (UTC) in that same step; every change to keys or accounts
// bumps version() in the same atomic step. Sessions, one-time tokens, form claims, attempt
// counters and settings are shared by every process using the store; their expiry is the caller's clock.

export interface KeyRecord {
  id: string;
  /** Hex SHA-256 of the secret. */
  hash: string;
  account: string;
  plan: string;
  disabled: boolean;
  createdAt: number;
  /** After a roll with a grace period: the hash of the secret before it, accepted until `previousUntil` (ms). */
  previousHash?: string | null;
  previousUntil?: number;
  /** A name the key's owner gave it (dashboard keys); '' for none. */
  name?: string;
}

export type Role = 'developer' | 'admin';

export interface AccountRecord {
  name: string;
  paymentRequired: boolean;
  /** When the account's first key was created (ms); trials expire from here. 0: no key yet. */
  firstKeyAt: number;
  /** Every key of a disabled account is refused. */
  disabled?: boolean;
  /** Dashboard accounts: the plan their keys are created on; null for operator-made accounts. */
  plan?: string | null;
  /** Dashboard accounts: the sign-in email (lower case); null for operator-made accounts. */
  email?: string | null;
  role?: Role;
  /** ms; 0 when unknown (operator-made accounts of earlier releases). */
  createdAt?: number;
}

/** A dashboard account with its credentials: created with createAccount, read by email. */
export interface UserRecord extends AccountRecord {
  email: string;
  passwordHash: string;
  role: Role;
  plan: string | null;
  disabled: boolean;
  createdAt: number;
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
  /** The UTC day (YYYY-MM-DD) of the month, for the per-day counters. */
  day: string;
  units: number;
  /** Per key and month (per account and month when `pool` is set); null for none. */
  ceiling: number | null;
  /**
   * A dashboard account's keys share its allowances: every key id of the account. Its calls
   * of the month are also counted as the account's, in the same step, and the ceiling is
   * checked on that count (a store without it yet starts it from these keys' calls).
   * null: per key.
   */
  pool: readonly string[] | null;
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

export interface DailyRow extends UsageRow {
  /** YYYY-MM-DD (UTC). */
  day: string;
}

/** A one-time token (invitation, password reset, address confirmation), stored by the SHA-256 of its secret. */
export interface TokenRecord {
  kind: 'invite' | 'reset' | 'confirm';
  /** Reset, confirm: the account; invite: '' (a new account is made). */
  account: string;
  /** Invite: the plan the new account gets ('' for the deployment's sign-up plan). */
  plan: string;
  expiresAt: number;
}

export interface SessionRecord {
  account: string;
  /** The session's JSON, as the dashboard's session store hands it over. */
  data: string;
  expiresAt: number;
}

export type MailState = 'outbox' | 'sending' | 'sent' | 'failed';

/** A mail the dashboard made (src/mail), kept in the store: the outbox and the log of sent mail. */
export interface MailRecord {
  /** The event's idempotency key, hashed: one mail per event, ever (while it is kept). */
  id: string;
  to: string;
  subject: string;
  /** The bodies; '' once the mail is sent (its links then live only in the recipient's mailbox). */
  text: string;
  html: string;
  createdAt: number;
  state: MailState;
  /** Why sending failed ('' when it did not). */
  error: string;
}

/** The mail outbox and log, shared by every process using the store. */
export interface MailStore {
  /** Adds the mail, kept for `ttlMs`, unless one with its id is kept: then false (the event already has its mail). */
  addMail(m: MailRecord, ttlMs: number): Promise<boolean>;
  /** A new state; 'sent' also empties the bodies. */
  setMailState(id: string, state: MailState, error: string): Promise<void>;
  /** Newest first. */
  mails(offset: number, limit: number): Promise<{ total: number; mails: MailRecord[] }>;
  mail(id: string): Promise<MailRecord | null>;
}

/** A small record of the dashboard's own (a plan request, an audit entry, a preference): JSON `data`. */
export interface StoredRecord {
  id: string;
  /** ms; lists are newest first by it. */
  at: number;
  data: string;
}

/** Records by kind and group (e.g. kind 'audit', group an account), shared by every process using the store. */
export interface RecordStore {
  /** Writes the record; with `onlyNew` only when no record has its id (then false: it existed, nothing written). */
  putRecord(kind: string, group: string, r: StoredRecord, onlyNew: boolean): Promise<boolean>;
  getRecord(kind: string, group: string, id: string): Promise<StoredRecord | null>;
  /** Newest first. */
  listRecords(
    kind: string,
    group: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; records: StoredRecord[] }>;
  /** False when there was no such record. */
  deleteRecord(kind: string, group: string, id: string): Promise<boolean>;
}

export interface Backend extends MailStore, RecordStore {
  version(): Promise<number>;
  snapshot(): Promise<Snapshot>;
  /**
   * Counts one request in the rate window `second` of `rateId` (the key's id, or `@ACCOUNT` for a
   * dashboard account's keys, which share one window); false (and a refusal tallied for the key's
   * month and day) when that makes it exceed `limit`.
   */
  hit(keyId: string, rateId: string, second: number, limit: number, month: string, day: string): Promise<boolean>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Creates the key, and its account when new (first key at `key.createdAt`). */
  createKey(key: KeyRecord): Promise<void>;
  /** False when no key has this id. */
  disableKey(id: string): Promise<boolean>;
  /** A new hash for the key; the old one stays accepted until `previousUntil` (0: not at all). False when no key has this id. */
  rollKey(id: string, hash: string, previousUntil: number): Promise<boolean>;
  /** Sets or lifts payment-required on the key's account; false when no key has this id. */
  setPaymentRequired(keyId: string, on: boolean): Promise<boolean>;
  usage(month: string): Promise<UsageRow[]>;
  /** Per-day calls and refusals of these keys (of `account`) in one month; days without any are left out. */
  dailyUsage(account: string, keyIds: string[], month: string): Promise<DailyRow[]>;

  /** A new dashboard account; false when the email is taken. */
  createAccount(user: UserRecord): Promise<boolean>;
  userByEmail(email: string): Promise<UserRecord | null>;
  user(name: string): Promise<UserRecord | null>;
  /** Account changes, each bumping the version; false when there is no such account. */
  updateAccount(
    name: string,
    change: { plan?: string; paymentRequired?: boolean; disabled?: boolean; role?: Role },
  ): Promise<boolean>;
  /** New password hash, and every session of the account ended, in one step. */
  setPassword(name: string, passwordHash: string): Promise<boolean>;
  keysOf(account: string): Promise<KeyRecord[]>;
  /** Trial requests the account has used (0 when none). */
  trialUsed(account: string): Promise<number>;
  /** A dashboard account's calls of the month, as its ceiling is checked on (0 when none). */
  accountCalls(account: string, month: string): Promise<number>;

  /** Kept for `ttlMs` at most (then the store may forget it); `s.account` '' for a session not signed in. */
  putSession(idHash: string, s: SessionRecord, ttlMs: number): Promise<void>;
  getSession(idHash: string): Promise<SessionRecord | null>;
  deleteSession(idHash: string): Promise<void>;
  putToken(hash: string, t: TokenRecord, ttlMs: number): Promise<void>;
  /** The token, left in place; null when unknown. */
  peekToken(hash: string): Promise<TokenRecord | null>;
  /** The token, removed in the same step (one use); null when unknown or already used. */
  takeToken(hash: string): Promise<TokenRecord | null>;
  /** Marks `hash` used for `ttlMs`; false when it already was (a one-time form token sent again). */
  claim(hash: string, ttlMs: number): Promise<boolean>;
  /** Forgets a claim (its form failed before it changed anything). */
  unclaim(hash: string): Promise<void>;
  /** Failed attempts under `name` in the window `window` (an index of the caller's clock), after adding `add` (0: read only). */
  attempts(name: string, window: number, windowMs: number, add: number): Promise<number>;
  /** The setting's value; when absent, `value` is stored and returned (the first writer wins). */
  settingOr(name: string, value: string): Promise<string>;
  close(): Promise<void>;
}
