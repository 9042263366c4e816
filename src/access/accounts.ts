// Dashboard accounts on the access store: sign-up and sign-in, a developer's own keys (create,
// roll, disable), their per-day usage, sessions, one-time forms, invitations and password-reset
// links, and the operator's account changes. Guarantees: a key's secret exists only in the
// result that creates or rolls it; session ids, form tokens and one-time tokens are stored
// only as their SHA-256; every key operation checks that the key belongs to the account asking
// (a key of another account is "no such key"); a sign-in answers the same, after the same
// work, for an unknown email and a wrong password; every password check is counted before it
// runs, atomically, against the limits of attempt-limits.ts (per email and client address, per
// address, per email from browsers that never signed in to it, per account for a password
// change), in windows never longer than 15 minutes; every hash is refused at once
// (passwords.ts, BUSY) when the process already runs its bound; a store that fails or does not
// answer in time gives ApiError('unavailable') from every method.
import { hash, randomBytes } from 'node:crypto';
import { ApiError } from '../shared/errors';
import { AccessAdmin } from './admin';
import type {
  AccountRecord,
  Backend,
  DailyRow,
  KeyRecord,
  MailStore,
  Role,
  Snapshot,
  TokenRecord,
  UserRecord,
} from './backend';
import { AttemptLimits } from './attempt-limits';
import { dummyCheck, hashPassword, prepareDummy, refuseIfBusy, verifyPassword } from './passwords';
import type { Plans } from './plans';
import { hashSecret, newAccountName, newKeyId, newSecret, PREFIX_CHARS, rememberPrefix } from './secret';
import { SelfServe, type Invite } from './selfserve';
import { monthOf } from './time';
import type { Clock } from './types';

export type { AccountRecord, DailyRow, KeyRecord, Role, Snapshot, UserRecord };

const INVITE_MS = 7 * 86_400_000;
const RESET_MS = 24 * 3_600_000;
/** How long an address confirmation link works. */
export const CONFIRM_MS = 48 * 3_600_000;
/** Records of this kind (group '') name the accounts whose email address is not confirmed yet. */
const UNCONFIRMED = 'unconfirmed';

export type SignIn =
  | { ok: true; user: UserRecord }
  | { ok: false; why: 'invalid' | 'pair-limited' | 'account-limited' | 'address-limited' | 'disabled' };

export interface NewKey {
  id: string;
  key: string;
  name: string;
  plan: string;
}

export interface Session {
  account: string;
  data: string;
  expiresAt: number;
}

const sha256 = (s: string) => hash('sha256', s, 'hex');
const token = () => randomBytes(32).toString('base64url');

export class AccessAccounts {
  /** The operator's view of the same store (usage reports), for the admin pages. */
  readonly admin: AccessAdmin;
  /** The mail outbox and log (src/mail), each operation guarded as every other here. */
  readonly outbox: MailStore;
  /** Plan requests, the audit log, preferences, billing links and live settings. */
  readonly selfServe: SelfServe;
  private readonly limits: AttemptLimits;

  constructor(
    private readonly store: Backend,
    readonly plans: Plans,
    private readonly clock: Clock,
    private readonly onStoreError: (err: unknown) => void = () => {},
  ) {
    this.admin = new AccessAdmin(store, plans, clock);
    this.selfServe = new SelfServe(store, clock, onStoreError);
    this.outbox = {
      addMail: (m, ttlMs) => this.guard(() => store.addMail(m, ttlMs)),
      setMailState: (id, state, error) => this.guard(() => store.setMailState(id, state, error)),
      mails: (offset, limit) => this.guard(() => store.mails(offset, limit)),
      mail: (id) => this.guard(() => store.mail(id)),
    };
    this.limits = new AttemptLimits(store, clock, (op) => this.guard(op));
    void prepareDummy().catch(() => {}); // the dummy hash made now, not during the first sign-in
  }

  /** Runs a store operation; any failure becomes ApiError('unavailable'). */
  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.onStoreError(err);
      throw ApiError.refusal('unavailable');
    }
  }

  now(): number {
    return this.clock.now();
  }

  /**
   * A new account; null when the email already has one. `unconfirmed`: the account may make no
   * key until its address is confirmed (confirmAddress); marked before the account exists, so
   * that no failure between the two leaves an unconfirmed account able to make keys.
   */
  async signUp(
    email: string,
    password: string,
    plan: string,
    role: Role = 'developer',
    unconfirmed = false,
  ): Promise<UserRecord | null> {
    if (!this.plans.has(plan)) throw new Error(`unknown plan "${plan}"`);
    const user: UserRecord = {
      name: newAccountName(),
      email: normalEmail(email),
      passwordHash: await hashPassword(password),
      role,
      plan,
      paymentRequired: false,
      disabled: false,
      firstKeyAt: 0,
      createdAt: this.clock.now(),
    };
    const mark = { id: user.name, at: user.createdAt, data: '{}' };
    if (unconfirmed) await this.guard(() => this.store.putRecord(UNCONFIRMED, '', mark, true));
    if (await this.guard(() => this.store.createAccount(user))) return user;
    if (unconfirmed) await this.guard(() => this.store.deleteRecord(UNCONFIRMED, '', user.name));
    return null;
  }

  /** True while the account's email address is not confirmed (it may make no key). */
  async unconfirmed(account: string): Promise<boolean> {
    return (await this.guard(() => this.store.getRecord(UNCONFIRMED, '', account))) !== null;
  }

  /** A one-time link token that confirms the account's address (CONFIRM_MS). */
  confirmLink(account: string): Promise<{ token: string; expiresAt: number }> {
    return this.putToken({ kind: 'confirm', account, plan: '', expiresAt: this.clock.now() + CONFIRM_MS });
  }

  /** Confirms the address of the token's account (the token is used up); null when the token is not valid. */
  async confirmAddress(secret: string): Promise<UserRecord | null> {
    const t = await this.takeToken(secret, 'confirm');
    if (t === null) return null;
    await this.guard(() => this.store.deleteRecord(UNCONFIRMED, '', t.account));
    return this.user(t.account);
  }

  /**
   * `known`: the account a signed cookie of this browser says it signed in to before ('' for
   * none); that account is not held to the per-email limit, so strangers cannot keep its owner out.
   */
  async signIn(email: string, password: string, address: string, known = ''): Promise<SignIn> {
    refuseIfBusy(known !== ''); // before anything is counted
    const e = normalEmail(email);
    const pair = this.limits.counter('pair', `${e}\n${address}`);
    if (!(await this.limits.take(pair))) return { ok: false, why: 'pair-limited' };
    const byAddress = this.limits.counter('address', address);
    if (!(await this.limits.take(byAddress))) return { ok: false, why: 'address-limited' };
    const taken = [pair, byAddress];
    const user = await this.guard(() => this.store.userByEmail(e));
    if (user === null || user.name !== known) {
      const byEmail = this.limits.counter('email', e);
      taken.push(byEmail);
      if (!(await this.limits.take(byEmail))) return { ok: false, why: 'account-limited' };
    }
    const good =
      user === null
        ? await dummyCheck(password)
        : await verifyPassword(password, user.passwordHash, user.name === known);
    if (!good || user === null) return { ok: false, why: 'invalid' };
    await this.limits.giveBack(taken);
    if (user.disabled) return { ok: false, why: 'disabled' };
    return { ok: true, user };
  }

  user(name: string): Promise<UserRecord | null> {
    return this.guard(() => this.store.user(name));
  }

  userByEmail(email: string): Promise<UserRecord | null> {
    return this.guard(() => this.store.userByEmail(normalEmail(email)));
  }

  /** 'wrong' when `current` is not the account's password; 'limited' after too many tries. Ends every session of the account. */
  async changePassword(name: string, current: string, next: string): Promise<'changed' | 'wrong' | 'limited'> {
    const tries = this.limits.counter('password', name);
    if (!(await this.limits.take(tries))) return 'limited';
    const user = await this.user(name);
    if (user === null || !(await verifyPassword(current, user.passwordHash))) return 'wrong';
    await this.limits.giveBack([tries]);
    await this.setPassword(name, next);
    return 'changed';
  }

  private async setPassword(name: string, password: string): Promise<void> {
    const h = await hashPassword(password);
    await this.guard(() => this.store.setPassword(name, h));
  }

  // Keys of one account

  async keys(account: string): Promise<KeyRecord[]> {
    const keys = await this.guard(() => this.store.keysOf(account));
    return keys.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  }

  /** A key on the account's plan. */
  async createKey(user: UserRecord, name: string): Promise<NewKey> {
    const key = newSecret();
    const plan = user.plan ?? 'trial';
    const record: KeyRecord = {
      id: newKeyId(),
      hash: hashSecret(key)!,
      account: user.name,
      plan,
      disabled: false,
      createdAt: this.clock.now(),
      name,
    };
    await this.guard(() => this.store.createKey(record));
    await this.rememberPrefix(key, record.id);
    return { id: record.id, key, name, plan };
  }

  /** The account's key with this id; null when there is none (or it is another account's). */
  async ownKey(account: string, id: string): Promise<KeyRecord | null> {
    return (await this.keys(account)).find((k) => k.id === id) ?? null;
  }

  async disableKey(account: string, id: string): Promise<boolean> {
    if ((await this.ownKey(account, id)) === null) return false;
    return this.guard(() => this.store.disableKey(id));
  }

  /** A new secret now; the old one accepted for `graceMs` more (0: refused at once). Null: no such key of the account. */
  async rollKey(account: string, id: string, graceMs: number): Promise<NewKey | null> {
    const k = await this.ownKey(account, id);
    if (k === null || k.disabled) return null;
    const key = newSecret();
    const until = graceMs > 0 ? this.clock.now() + graceMs : 0;
    if (!(await this.guard(() => this.store.rollKey(id, hashSecret(key)!, until)))) return null;
    await this.rememberPrefix(key, id);
    return { id, key, name: k.name ?? '', plan: k.plan };
  }

  /** Keeps the secret's first PREFIX_CHARS characters after `ck_` (48 of its 256 bits) to find the key by. */
  private async rememberPrefix(secret: string, id: string): Promise<void> {
    await this.guard(() => rememberPrefix(this.store, secret, id, this.clock.now()));
  }

  /**
   * Keys an admin looks for: by a whole secret (its hash, the current or a rolled one), by the
   * first characters of a key id (`key_…`), or by the first PREFIX_CHARS characters of a secret
   * after `ck_` (kept for keys made or rolled since this release). At most 50.
   */
  async findKeys(q: string): Promise<KeyRecord[]> {
    const query = q.trim();
    if (query.length < 6) return [];
    const keys = (await this.snapshot()).keys;
    const h = hashSecret(query);
    if (h !== undefined) return keys.filter((k) => k.hash === h || k.previousHash === h);
    if (query.startsWith('key_')) return keys.filter((k) => k.id.startsWith(query)).slice(0, 50);
    if (query.startsWith('ck_') && query.length >= 3 + PREFIX_CHARS) {
      const { records } = await this.guard(() =>
        this.store.listRecords('key-prefix', query.slice(3, 3 + PREFIX_CHARS), 0, 50),
      );
      const ids = new Set(records.map((r) => r.id));
      return keys.filter((k) => ids.has(k.id));
    }
    return [];
  }

  /** Disables any key (an admin's action); false when there is none with this id. */
  disableAnyKey(id: string): Promise<boolean> {
    return this.guard(() => this.store.disableKey(id));
  }

  trialUsed(account: string): Promise<number> {
    return this.guard(() => this.store.trialUsed(account));
  }

  /** The account's calls of the month, the count its monthly cap or ceiling is checked on. */
  accountCalls(account: string, month: string): Promise<number> {
    return this.guard(() => this.store.accountCalls(account, month));
  }

  /** Puts back a token taken by takeToken whose use failed (an invitation for an email that has an account). */
  async returnToken(secret: string, t: TokenRecord): Promise<void> {
    const ttl = t.expiresAt - this.clock.now();
    if (ttl > 0) await this.guard(() => this.store.putToken(sha256(secret), t, ttl));
  }

  /** Calls and refusals per key and day of one month, of the account's keys. */
  async daily(account: string, month: string, keys?: KeyRecord[]): Promise<DailyRow[]> {
    const ids = (keys ?? (await this.keys(account))).map((k) => k.id);
    return this.guard(() => this.store.dailyUsage(account, ids, month));
  }

  // Sessions (the dashboard's session store)

  async session(id: string): Promise<Session | null> {
    const s = await this.guard(() => this.store.getSession(sha256(id)));
    if (s === null) return null;
    if (this.clock.now() >= s.expiresAt) {
      await this.endSession(id);
      return null;
    }
    return s;
  }

  async saveSession(id: string, s: Session): Promise<void> {
    const ttl = s.expiresAt - this.clock.now();
    if (ttl <= 0) return this.endSession(id);
    await this.guard(() => this.store.putSession(sha256(id), s, ttl));
  }

  async endSession(id: string): Promise<void> {
    await this.guard(() => this.store.deleteSession(sha256(id)));
  }

  // One-time forms

  /** True the first time `token` (a form's token) is sent; false when it was sent before, within `ttlMs`. */
  claimForm(token: string, ttlMs: number): Promise<boolean> {
    return this.guard(() => this.store.claim(sha256(`form:${token}`), ttlMs));
  }

  /** The form of `token` may be sent again (it failed before changing anything). */
  releaseForm(token: string): Promise<void> {
    return this.guard(() => this.store.unclaim(sha256(`form:${token}`)));
  }

  // One-time links

  /** An invitation token for one new account (on `plan`, or the sign-up plan when ''). */
  async invite(plan: string): Promise<{ token: string; expiresAt: number }> {
    if (plan !== '' && !this.plans.has(plan)) throw new Error(`unknown plan "${plan}"`);
    return this.putToken({ kind: 'invite', account: '', plan, expiresAt: this.clock.now() + INVITE_MS });
  }

  /** Invitations still usable (not used, revoked or expired), newest first. */
  async invites(): Promise<Invite[]> {
    const all = await this.selfServe.invites();
    const now = this.clock.now();
    const live = await Promise.all(
      all.map(async (i) => i.expiresAt > now && (await this.guard(() => this.store.peekToken(i.id))) !== null),
    );
    return all.filter((_, n) => live[n]);
  }

  /** Revokes an invitation by its id (the SHA-256 of its token): the link no longer makes an account. */
  async revokeInvite(id: string): Promise<boolean> {
    const taken = await this.guard(() => this.store.takeToken(id));
    await this.selfServe.forgetInvite(id);
    return taken !== null;
  }

  /** A password-reset token for the account with this email (and the account); null when there is none. */
  async resetLink(email: string): Promise<{ token: string; expiresAt: number; account: string; email: string } | null> {
    const user = await this.guard(() => this.store.userByEmail(normalEmail(email)));
    if (user === null) return null;
    return { ...(await this.resetLinkFor(user.name)), account: user.name, email: user.email };
  }

  /** Counts one attempt under `name` in window `window` (of `windowMs`); the count after it. */
  countAttempt(name: string, window: number, windowMs: number): Promise<number> {
    return this.guard(() => this.store.attempts(name, window, windowMs, 1));
  }

  resetLinkFor(account: string): Promise<{ token: string; expiresAt: number }> {
    return this.putToken({ kind: 'reset', account, plan: '', expiresAt: this.clock.now() + RESET_MS });
  }

  private async putToken(t: TokenRecord): Promise<{ token: string; expiresAt: number }> {
    const secret = token();
    await this.guard(() => this.store.putToken(sha256(secret), t, t.expiresAt - this.clock.now()));
    return { token: secret, expiresAt: t.expiresAt };
  }

  /** The token if it is valid and of this kind (left in place). */
  async peekToken(secret: string, kind: TokenRecord['kind']): Promise<TokenRecord | null> {
    const t = await this.guard(() => this.store.peekToken(sha256(secret)));
    return t !== null && t.kind === kind && this.clock.now() < t.expiresAt ? t : null;
  }

  /** The token if it is valid and of this kind, used up by this call. */
  async takeToken(secret: string, kind: TokenRecord['kind']): Promise<TokenRecord | null> {
    if ((await this.peekToken(secret, kind)) === null) return null;
    const t = await this.guard(() => this.store.takeToken(sha256(secret)));
    return t !== null && t.kind === kind && this.clock.now() < t.expiresAt ? t : null;
  }

  /**
   * Sets a new password with a reset token (used up); the account, or false when the token is not
   * valid. Ends every session. The password is hashed before the token is used up, so that a
   * refusal (BUSY) leaves the link working.
   */
  async resetPassword(secret: string, password: string): Promise<string | false> {
    if ((await this.peekToken(secret, 'reset')) === null) return false;
    const h = await hashPassword(password);
    const t = await this.takeToken(secret, 'reset');
    if (t === null) return false;
    await this.guard(() => this.store.setPassword(t.account, h));
    return t.account;
  }

  // The operator's changes

  async updateAccount(
    name: string,
    change: { plan?: string; paymentRequired?: boolean; disabled?: boolean; role?: Role },
  ): Promise<boolean> {
    if (change.plan !== undefined && !this.plans.has(change.plan)) throw new Error(`unknown plan "${change.plan}"`);
    return this.guard(() => this.store.updateAccount(name, change));
  }

  snapshot(): Promise<Snapshot> {
    return this.guard(() => this.store.snapshot());
  }

  usage(month = monthOf(this.clock.now())) {
    return this.guard(() => this.admin.usage(month));
  }

  /** A value all instances share, made by `make` on first use (the first writer wins). */
  setting(name: string, make: () => string): Promise<string> {
    return this.guard(() => this.store.settingOr(name, make()));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}
