// What the dashboard keeps for self-service beyond accounts and keys, on the store's records:
// plan requests and their admin queue, the audit log of admin (and billing) actions, an
// account's preferences, its link to the payment provider, and the dashboard settings admins
// change live. Guarantees: each record is defined once as a TypeBox schema and read back only
// when it passes it (a damaged record reads as absent); a pending request is decided once —
// the admin (or instance) whose step removes it from the queue is the one whose decision
// applies; every failure of the store is ApiError('unavailable').
import { hash, randomBytes } from 'node:crypto';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ApiError } from '../shared/errors';
import type { RecordStore } from './backend';
import type { Clock } from './types';

export const PlanRequestSchema = Type.Object({
  account: Type.String(),
  email: Type.String(),
  plan: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('declined')]),
  at: Type.Number(),
  decidedAt: Type.Optional(Type.Number()),
  /** The admin's email. */
  decidedBy: Type.Optional(Type.String()),
});
export type PlanRequest = Static<typeof PlanRequestSchema>;

export const AuditSchema = Type.Object({
  at: Type.Number(),
  /** Who: an admin's email, or `stripe` for a billing event. */
  by: Type.String(),
  account: Type.String(),
  /** What, in words, e.g. `plan starter → pro`. */
  action: Type.String(),
});
export type AuditEntry = Static<typeof AuditSchema>;

export const PrefsSchema = Type.Object({ alerts: Type.Boolean() });
export type Prefs = Static<typeof PrefsSchema>;

/** An account's subscription at the payment provider (Stripe mode). */
export const BillingLinkSchema = Type.Object({
  customer: Type.String(),
  subscription: Type.String(),
  /** The plan the subscription is for. */
  plan: Type.String(),
  /** The provider's subscription status, e.g. active, past_due, canceled. */
  status: Type.String(),
  at: Type.Number(),
});
export type BillingLink = Static<typeof BillingLinkSchema>;

/** An invitation an admin made, listed until used, revoked or expired; kept by the SHA-256 of its token. */
export const InviteSchema = Type.Object({
  plan: Type.String(),
  /** Where it was mailed ('' when the admin passed the link on). */
  email: Type.String(),
  by: Type.String(),
  expiresAt: Type.Number(),
});
export type Invite = Static<typeof InviteSchema> & { id: string; at: number };

const DEFAULT_PREFS: Prefs = { alerts: true };

export class SelfServe {
  constructor(
    private readonly store: RecordStore,
    private readonly clock: Clock,
    private readonly onStoreError: (err: unknown) => void = () => {},
  ) {}

  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.onStoreError(err);
      throw ApiError.refusal('unavailable');
    }
  }

  private async read<S extends TSchema>(schema: S, kind: string, group: string, id: string) {
    const r = await this.guard(() => this.store.getRecord(kind, group, id));
    return r === null ? null : parse(schema, r.data);
  }

  private write(kind: string, group: string, id: string, data: unknown, onlyNew = false): Promise<boolean> {
    const at = this.clock.now();
    return this.guard(() => this.store.putRecord(kind, group, { id, at, data: JSON.stringify(data) }, onlyNew));
  }

  private async list<S extends TSchema>(schema: S, kind: string, group: string, offset: number, limit: number) {
    const { total, records } = await this.guard(() => this.store.listRecords(kind, group, offset, limit));
    return { total, items: records.map((r) => parse(schema, r.data)).filter((x) => x !== null) };
  }

  // Plan requests

  /** The account's pending request, else its last decided one; null for none. */
  async planRequest(account: string): Promise<PlanRequest | null> {
    return (
      (await this.read(PlanRequestSchema, 'plan-request', 'pending', account)) ??
      this.read(PlanRequestSchema, 'plan-request', 'decided', account)
    );
  }

  /** Asks for `plan` (replacing a pending request of the account). */
  async requestPlan(account: string, email: string, plan: string): Promise<PlanRequest> {
    const r: PlanRequest = { account, email, plan, state: 'pending', at: this.clock.now() };
    await this.write('plan-request', 'pending', account, r);
    return r;
  }

  /** Withdraws the account's pending request; false when there was none. */
  cancelRequest(account: string): Promise<boolean> {
    return this.guard(() => this.store.deleteRecord('plan-request', 'pending', account));
  }

  /** The admin queue, oldest first within the page. */
  async pendingRequests(offset: number, limit: number): Promise<{ total: number; items: PlanRequest[] }> {
    const page = await this.list(PlanRequestSchema, 'plan-request', 'pending', offset, limit);
    return { total: page.total, items: page.items.reverse() };
  }

  /**
   * Decides the account's pending request: the request, now decided, when this call took it
   * from the queue; null when there was none (another admin decided it first).
   */
  async decide(account: string, approved: boolean, by: string): Promise<PlanRequest | null> {
    const r = await this.read(PlanRequestSchema, 'plan-request', 'pending', account);
    if (r === null) return null;
    if (!(await this.guard(() => this.store.deleteRecord('plan-request', 'pending', account)))) return null;
    const decided: PlanRequest = {
      ...r,
      state: approved ? 'approved' : 'declined',
      decidedAt: this.clock.now(),
      decidedBy: by,
    };
    await this.write('plan-request', 'decided', account, decided);
    return decided;
  }

  // Invitations

  async rememberInvite(token: string, invite: Static<typeof InviteSchema>): Promise<void> {
    await this.write('invite', '', hash('sha256', token, 'hex'), invite);
  }

  /** Invitations made, newest first (used ones included: AccessAccounts.invites leaves them out). */
  async invites(): Promise<Invite[]> {
    const { records } = await this.guard(() => this.store.listRecords('invite', '', 0, 200));
    return records.flatMap((r) => {
      const i = parse(InviteSchema, r.data);
      return i === null ? [] : [{ ...i, id: r.id, at: r.at }];
    });
  }

  forgetInvite(id: string): Promise<boolean> {
    return this.guard(() => this.store.deleteRecord('invite', '', id));
  }

  // Audit log

  async audit(by: string, account: string, action: string): Promise<void> {
    const at = this.clock.now();
    const entry: AuditEntry = { at, by, account, action };
    const id = `${String(at).padStart(15, '0')}-${randomBytes(4).toString('hex')}`;
    await Promise.all([
      this.write('audit', '*', id, entry),
      account !== '*' && this.write('audit', account, id, entry),
    ]);
  }

  /** The account's entries ('*': every account's), newest first. */
  auditLog(account: string, offset: number, limit: number) {
    return this.list(AuditSchema, 'audit', account, offset, limit);
  }

  // Preferences

  async prefs(account: string): Promise<Prefs> {
    return (await this.read(PrefsSchema, 'prefs', '', account)) ?? DEFAULT_PREFS;
  }

  async setPrefs(account: string, p: Prefs): Promise<void> {
    await this.write('prefs', '', account, p);
  }

  // The payment provider

  billingLink(account: string): Promise<BillingLink | null> {
    return this.read(BillingLinkSchema, 'billing', 'account', account);
  }

  /** Links the account to its subscription; `at` stays the first link's time (overage is reported from it on). */
  async setBillingLink(account: string, link: Omit<BillingLink, 'at'>): Promise<void> {
    const at = (await this.billingLink(account))?.at ?? this.clock.now();
    await Promise.all([
      this.write('billing', 'account', account, { ...link, at }),
      this.write('billing', 'customer', link.customer, { account }),
    ]);
  }

  /** Every account linked to the provider, with its link. */
  async billingLinks(
    offset: number,
    limit: number,
  ): Promise<{ total: number; items: { account: string; link: BillingLink }[] }> {
    const { total, records } = await this.guard(() => this.store.listRecords('billing', 'account', offset, limit));
    const items = records.flatMap((r) => {
      const link = parse(BillingLinkSchema, r.data);
      return link === null ? [] : [{ account: r.id, link }];
    });
    return { total, items };
  }

  /** The account whose customer this is at the provider; null when unknown. */
  async accountOfCustomer(customer: string): Promise<string | null> {
    const r = await this.read(Type.Object({ account: Type.String() }), 'billing', 'customer', customer);
    return r?.account ?? null;
  }

  /** Claims a once-only event (a webhook event id, an overage report): false when it was claimed before. */
  claim(kind: string, id: string, data: unknown = {}): Promise<boolean> {
    return this.write('claim', kind, id, data, true);
  }

  /** Gives a claim back (its work failed and may be tried again). */
  async unclaim(kind: string, id: string): Promise<void> {
    await this.guard(() => this.store.deleteRecord('claim', kind, id));
  }

  // Live dashboard settings (admins change them on the settings page)

  async setting(name: string): Promise<string | null> {
    const r = await this.read(Type.Object({ value: Type.String() }), 'setting', '', name);
    return r?.value ?? null;
  }

  async setSetting(name: string, value: string): Promise<void> {
    await this.write('setting', '', name, { value });
  }
}

function parse<S extends TSchema>(schema: S, data: string): Static<S> | null {
  try {
    const v: unknown = JSON.parse(data);
    return Value.Check(schema, v) ? v : null;
  } catch {
    return null;
  }
}
