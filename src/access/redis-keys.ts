// Names of the Redis keys of the access store. Guarantees: on a cluster ("slotted"), every key
// one atomic step touches shares a hash tag, so the step runs in one slot: control data (key
// records, accounts, the key set, the version) under `{ctl}`, and an account's metering
// (rate windows of its keys, its monthly usage hash, its trial count) under `{a:ACCOUNT}`.
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

  private meter(account: string): string {
    return this.slotted ? `${this.p}{a:${account}}` : this.p;
  }

  rate(keyId: string, account: string, second: number): string {
    return `${this.meter(account)}rate:${keyId}:${second}`;
  }

  /** Hash of `c:KEYID` (calls) and `r:KEYID` (refused) for one month: one per account when slotted. */
  usage(account: string, month: string): string {
    return `${this.meter(account)}usage:${month}`;
  }

  /** Hash of trial requests used, field = account: one per account when slotted. */
  trial(account: string): string {
    return `${this.meter(account)}trial`;
  }
}
