// Opening the access layer from a store spec: `sqlite:PATH`, or a Redis server, Sentinel
// primary or Cluster (`redis://`, `rediss://`, `redis-sentinel://`, `redis-cluster://`; see
// redis-spec.ts) (ACCESS_STORE); the default is sqlite:<package root>/var/access.sqlite. Guarantees:
// opening never needs the store to be up (an outage shows as 503s, then recovers).
import { join, resolve } from 'node:path';
import { packageRoot } from '../shared/package-root';
import { AccessAccounts } from './accounts';
import { AccessAdmin } from './admin';
import type { Backend } from './backend';
import { MeteredAccess } from './control';
import { loadPlans } from './plans';
import { SqliteBackend } from './sqlite-backend';
import { systemClock, type Clock } from './types';

export { AccessAccounts, CONFIRM_MS, normalEmail } from './accounts';
export { LIMITS } from './attempt-limits';
export type { NewKey, Session, SignIn } from './accounts';
export type {
  AccountRecord,
  DailyRow,
  KeyRecord,
  MailRecord,
  MailState,
  MailStore,
  Role,
  Snapshot,
  UserRecord,
} from './backend';
export {
  BUSY,
  BUSY_RETRY_S,
  PASSWORD_MAX,
  PASSWORD_MIN,
  hashesFree,
  isBusy,
  noteBusyRefusal,
  retryAfterPassed,
} from './passwords';
export { AccessAdmin, usageCsv } from './admin';
export type { CreatedKey, KeyListing, UsageReport } from './admin';
export { MeteredAccess } from './control';
export { SelfServe } from './selfserve';
export type { AuditEntry, BillingLink, Invite, PlanRequest, Prefs } from './selfserve';
export { BUILT_IN_PLANS, choiceOf, loadPlans } from './plans';
export type { Plans } from './plans';
export { dayOf, daysOf, monthOf, parseMonth, previousMonth } from './time';
export * from './types';

export interface AccessOptions {
  clock?: Clock;
  /** Plans file (PLANS_FILE): JSON array of Plan objects added to the built-in plans. */
  plansFile?: string;
  /** Told about every store failure (each also answers 503). */
  onStoreError?: (err: unknown) => void;
  /** Bound on one store operation; past it the request is answered 503. Default 250 ms (operator commands: 5 s). */
  timeoutMs?: number;
}

/** A request waits at most this long for the store (SQLite: for another process's lock). */
const SERVE_TIMEOUT_MS = 250;
/** A dashboard page waits at most this long for one store operation. */
const DASHBOARD_TIMEOUT_MS = 2000;
const ADMIN_TIMEOUT_MS = 5000;

export function defaultStoreSpec(): string {
  return `sqlite:${join(packageRoot(), 'var', 'access.sqlite')}`;
}

async function openBackend(spec: string | undefined, purpose: 'serve' | 'admin', timeoutMs: number): Promise<Backend> {
  const s = spec === undefined || spec === '' ? defaultStoreSpec() : spec;
  if (s.startsWith('sqlite:')) {
    const path = s.slice('sqlite:'.length);
    if (path === '') throw new Error('access store "sqlite:" needs a path, e.g. sqlite:var/access.sqlite');
    return new SqliteBackend(resolve(path), timeoutMs);
  }
  if (/^(redis|rediss|redis-sentinel|redis-cluster):\/\//.test(s)) {
    const { RedisBackend } = await import('./redis-backend');
    return RedisBackend.open(s, purpose, timeoutMs);
  }
  const shown = s.replace(/\/\/[^@/]*@/, '//…@'); // never echo a password
  throw new Error(
    `access store must be sqlite:PATH, redis://, rediss://, redis-sentinel:// or redis-cluster://, not "${shown}"`,
  );
}

/** The access control a server uses; the store may be down when this is called. */
export async function openAccess(spec: string | undefined, opts: AccessOptions = {}): Promise<MeteredAccess> {
  const plans = loadPlans(opts.plansFile);
  const access = new MeteredAccess(
    await openBackend(spec, 'serve', opts.timeoutMs ?? SERVE_TIMEOUT_MS),
    plans,
    opts.clock ?? systemClock,
    opts.onStoreError,
  );
  await access.refresh().catch(() => {});
  return access;
}

/** Operator operations (the keys and usage commands); fails when the store cannot be reached. */
export async function openAdmin(spec: string | undefined, opts: AccessOptions = {}): Promise<AccessAdmin> {
  const plans = loadPlans(opts.plansFile);
  return new AccessAdmin(
    await openBackend(spec, 'admin', opts.timeoutMs ?? ADMIN_TIMEOUT_MS),
    plans,
    opts.clock ?? systemClock,
  );
}

/**
 * Dashboard accounts, sessions and one-time links (and the operator's `admin` commands);
 * `purpose` 'serve' opens even when the store is down (pages then say so), 'admin' fails.
 */
export async function openAccounts(
  spec: string | undefined,
  opts: AccessOptions & { purpose?: 'serve' | 'admin' } = {},
): Promise<AccessAccounts> {
  const plans = loadPlans(opts.plansFile);
  const purpose = opts.purpose ?? 'serve';
  const timeout = opts.timeoutMs ?? (purpose === 'serve' ? DASHBOARD_TIMEOUT_MS : ADMIN_TIMEOUT_MS);
  return new AccessAccounts(
    await openBackend(spec, purpose, timeout),
    plans,
    opts.clock ?? systemClock,
    opts.onStoreError,
  );
}
