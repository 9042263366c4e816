// AccessControl over any Backend. Guarantees: a request costs one SHA-256 of the presented
// secret and one map lookup by it (the secret itself is never kept), and at most one store
// round trip per step; key and account changes (a disabled key or account, a plan, a roll)
// are seen within POLL_MS + one reload; a rolled key's old secret is refused from the end of
// its grace period by this process's clock, with no store change needed; a failing or slow
// store gives 'unavailable', never a pass; the keys of a dashboard account (it has an email)
// share its rate window and its monthly ceiling (docs/metering.md), operator-made keys have
// their own.
import { ApiError } from '../shared/errors';
import type { Backend, ChargeResult, Snapshot } from './backend';
import type { Plans } from './plans';
import { lookupHash } from './secret';
import { PeriodCache } from './time';
import type { AccessControl, Charge, Clock, Grant, Plan } from './types';

/** How often the store's version counter is read. */
const POLL_MS = 250;
/** After a store failure, requests are answered 503 without trying the store for this long. */
const BACKOFF_MS = 200;
const DAY_MS = 86_400_000;

interface Entry {
  grant: Grant | undefined; // undefined: disabled (key or account), or a plan this server does not know
  paymentRequired: boolean;
  trialEndsAt: number; // Infinity when not a trial
  validUntil: number; // a rolled key's previous secret: the end of its grace period; else Infinity
}

const unavailable = () => ApiError.refusal('unavailable');
const NOT_TRIAL: Charge = Object.freeze({ trialRemaining: null });

/** A charge's result on a plan without a trial. */
function paid(left: ChargeResult): Charge {
  if (left === 'ceiling') throw ApiError.refusal('monthlyCap');
  return NOT_TRIAL;
}

/** A charge's result on a trial plan: the trial requests left. */
function trial(left: ChargeResult): Charge {
  if (left === 'trial') throw ApiError.refusal('trialUsed');
  if (left === 'ceiling') throw ApiError.refusal('monthlyCap');
  return { trialRemaining: left };
}

export class MeteredAccess implements AccessControl {
  private byHash = new Map<string, Entry>();
  private byId = new Map<string, Entry>();
  private version = -1;
  private refreshing: Promise<void> | undefined;
  private failedUntil = 0;
  private readonly periods = new PeriodCache();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Backend,
    private readonly plans: Plans,
    private readonly clock: Clock,
    private readonly onStoreError: (err: unknown) => void = () => {},
  ) {
    this.timer = setInterval(() => void this.refresh().catch(() => {}), POLL_MS);
    this.timer.unref();
  }

  /**
   * Not an async function: a known key on a plan with no per-second rate (the common case)
   * settles with one promise, instead of an async function adopting another's (two more
   * promises and microtask turns a request).
   */
  admit(apiKey: string | undefined): Promise<Grant> {
    const hash = lookupHash(apiKey);
    if (hash === undefined) return Promise.reject(ApiError.refusal('invalidKey'));
    const entry = this.byHash.get(hash);
    if (entry === undefined) {
      // a key created in the last poll interval
      return this.guard(() => this.refresh()).then(() => this.pass(this.byHash.get(hash)));
    }
    return this.pass(entry);
  }

  /**
   * admit() for a key known by its id rather than its secret: the dashboard's calls made on
   * a signed-in user's behalf with one of their own keys (the secret is never stored).
   */
  async admitKeyId(keyId: string): Promise<Grant> {
    await this.guard(() => this.refresh());
    return this.pass(this.byId.get(keyId));
  }

  /** Billing state, then the rate: the checks of admit() after the key is found (a rejected promise when refused). */
  private pass(entry: Entry | undefined): Promise<Grant> {
    if (entry === undefined || entry.grant === undefined) return Promise.reject(ApiError.refusal('invalidKey'));
    const now = this.clock.now();
    if (now >= entry.validUntil) return Promise.reject(ApiError.refusal('invalidKey'));
    if (entry.paymentRequired) return Promise.reject(ApiError.refusal('paymentRequired'));
    if (now >= entry.trialEndsAt) return Promise.reject(ApiError.refusal('trialExpired'));
    const grant = entry.grant;
    const rate = grant.plan.ratePerSecond;
    if (rate === null) return Promise.resolve(grant);
    const { month, day } = this.periods.of(now);
    const rateId = grant.pool === null ? grant.keyId : `@${grant.account}`;
    return this.guard(() => this.store.hit(grant.keyId, rateId, Math.floor(now / 1000), rate, month, day)).then(
      (ok) => {
        if (!ok) throw ApiError.refusal('rateLimited');
        return grant;
      },
    );
  }

  charge(grant: Grant, units: number): Promise<Charge> {
    if (Date.now() < this.failedUntil) return Promise.reject(unavailable());
    const { plan } = grant;
    const trialLimit = plan.trial === null ? null : plan.trial.requests;
    const { month, day } = this.periods.of(this.clock.now());
    const charged = this.store.charge({
      keyId: grant.keyId,
      account: grant.account,
      month,
      day,
      units,
      ceiling: plan.monthlyCeiling,
      pool: grant.pool,
      trialLimit,
    });
    return charged.then(trialLimit === null ? paid : trial, this.failed);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing?.catch(() => {});
    await this.store.close();
  }

  /** Runs a store operation; any failure (or a recent one) becomes 'unavailable'. */
  private async guard<T>(op: () => Promise<T>): Promise<T> {
    if (Date.now() < this.failedUntil) throw unavailable();
    try {
      return await op();
    } catch (err) {
      return this.failed(err);
    }
  }

  /** A store failure: told, answered 503, and the store left alone for BACKOFF_MS. */
  private readonly failed = (err: unknown): never => {
    this.failedUntil = Date.now() + BACKOFF_MS;
    this.onStoreError(err);
    throw unavailable();
  };

  /** Reloads keys and accounts when the store's version has moved; concurrent callers share one reload. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        if ((await this.store.version()) !== this.version) this.load(await this.store.snapshot());
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private load(snap: Snapshot): void {
    const accounts = new Map(snap.accounts.map((a) => [a.name, a]));
    const pools = poolsOf(snap);
    const byHash = new Map<string, Entry>();
    const byId = new Map<string, Entry>();
    for (const k of snap.keys) {
      const account = accounts.get(k.account);
      const plan: Plan | undefined = this.plans.get(k.plan);
      if (account === undefined) continue;
      const pool = pools.get(k.account) ?? null;
      const entry: Entry = {
        grant:
          k.disabled || account.disabled || plan === undefined
            ? undefined
            : { keyId: k.id, account: k.account, plan, pool },
        paymentRequired: account.paymentRequired,
        trialEndsAt: plan?.trial ? account.firstKeyAt + plan.trial.days * DAY_MS : Infinity,
        validUntil: Infinity,
      };
      byHash.set(k.hash, entry);
      byId.set(k.id, entry);
      if (k.previousHash) byHash.set(k.previousHash, { ...entry, validUntil: k.previousUntil ?? 0 });
    }
    this.byHash = byHash;
    this.byId = byId;
    this.version = snap.version;
  }
}

/**
 * The key ids of every account made on the dashboard (it has an email): its allowances are
 * the account's, shared by its keys (docs/metering.md, "Allowances of dashboard accounts").
 * Operator-made accounts are absent: their keys' allowances stay per key.
 */
function poolsOf(snap: Snapshot): Map<string, readonly string[]> {
  const pools = new Map<string, string[]>();
  for (const a of snap.accounts) if (a.email) pools.set(a.name, []);
  for (const k of snap.keys) pools.get(k.account)?.push(k.id);
  return pools;
}
