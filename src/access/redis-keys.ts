// Names of the Redis keys of the access store. Guarantees: on a cluster ("slotted"), every key
// one atomic step touches shares a hash tag, so the step runs in one slot: control data (key
// records, accounts, the key and account sets, the version, and the dashboard's sessions,
// one-time tokens, form claims, email index, settings and mail outbox) under `{ctl}`, and an account's
// metering (rate windows of its keys, its monthly usage hash with the per-day fields, its
// trial count) under `{a:ACCOUNT}`. Sign-in attempt counters are single keys of their own.
// A single server or a Sentinel primary keeps the flat layout of earlier releases (no migration).

export class RedisKeys {
  private readonly ctl: string;

  constructor(
    private readonly p: string,
    readonly slotted: boolean,
  ) {
    this.ctl = slotted ? `${p}{ctl}` : p;
  }

  get version(): string {
    return `${this.ctl}version`;
  }

  get keySet(): string {
    return `${this.ctl}keys`;
  }

  key(id: string): string {
    return `${this.ctl}key:${id}`;
  }

  /** The account hash is `acctPrefix + name` (the setPaymentRequired script builds it). */
  get acctPrefix(): string {
    return `${this.ctl}acct:`;
  }

  /** Names of accounts made by createAccount or createKey since the dashboard's release. */
  get accountSet(): string {
    return `${this.ctl}accounts`;
  }

  /** Ids of an account's keys (keys made since the dashboard's release). */
  keysOf(account: string): string {
    return `${this.ctl}acct-keys:${account}`;
  }

  /** email → account name. */
  email(email: string): string {
    return `${this.ctl}email:${email}`;
  }

  /** A session is `sessionPrefix + SHA-256 of its id` (the setPassword script builds it). */
  get sessionPrefix(): string {
    return `${this.ctl}sess:`;
  }

  /** Hashes of an account's sessions. */
  sessionsOf(account: string): string {
    return `${this.ctl}acct-sess:${account}`;
  }

  token(hash: string): string {
    return `${this.ctl}tok:${hash}`;
  }

  /** A used one-time form token. */
  claim(hash: string): string {
    return `${this.ctl}claim:${hash}`;
  }

  attempts(name: string, window: number): string {
    return `${this.p}att:${name}:${window}`;
  }

  /** A mail of the outbox and log is `mailPrefix + id`. */
  get mailPrefix(): string {
    return `${this.ctl}mail:`;
  }

  /** Ids of the kept mails, scored by creation time. */
  get mailSet(): string {
    return `${this.ctl}mails`;
  }

  /** The dashboard's records of a kind and group: `recordPrefix + KIND:GROUP` (and `…:t`). */
  get recordPrefix(): string {
    return `${this.ctl}rec:`;
  }

  get settings(): string {
    return `${this.ctl}settings`;
  }

  private meter(account: string): string {
    return this.slotted ? `${this.p}{a:${account}}` : this.p;
  }

  rate(keyId: string, account: string, second: number): string {
    return `${this.meter(account)}rate:${keyId}:${second}`;
  }

  /**
   * Hash of `c:KEYID` (calls) and `r:KEYID` (refused) for one month, and the same per day of the
   * month (`c:KEYID:DD`, `r:KEYID:DD`), and a dashboard account's calls (`t:ACCOUNT`): one per
   * account when slotted.
   */
  usage(account: string, month: string): string {
    return `${this.meter(account)}usage:${month}`;
  }

  /** Hash of trial requests used, field = account: one per account when slotted. */
  trial(account: string): string {
    return `${this.meter(account)}trial`;
  }
}
