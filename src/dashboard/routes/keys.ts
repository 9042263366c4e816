// A developer's own keys: list, create (on the account's plan), roll with a grace period, and
// disable. Guarantees: a secret is shown once, in the answer to the form that made it, and
// kept nowhere (the store has its SHA-256); a key id of another account is answered 404, as an
// unknown one; every form is CSRF-checked and acts once (form-tokens.ts); an account whose email
// address is not confirmed yet (signup.ts) makes no key: the page asks it to confirm instead.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { monthOf, previousMonth, type KeyRecord, type NewKey } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { errorsOf, field, keyNameError, type Body } from '../forms';
import { form, requireUser } from './guards';

const HIDE = { schema: { hide: true } };
export const GRACE: Record<string, { ms: number; text: string }> = {
  none: { ms: 0, text: 'none: the old secret stops now' },
  '1h': { ms: 3_600_000, text: '1 hour' },
  '24h': { ms: 86_400_000, text: '24 hours' },
};

export interface KeyRow {
  id: string;
  name: string;
  created: string;
  lastUsed: string;
  calls: number;
  disabled: boolean;
  /** ISO time until which the secret before the last roll is still accepted; '' for none. */
  previousUntil: string;
}

/** The account's keys with their calls this month and last day used (from the per-day counters of this and last month). */
export async function keyRows(deps: DashboardDeps, account: string): Promise<KeyRow[]> {
  const { accounts } = deps;
  const now = accounts.now();
  const month = monthOf(now);
  const keys = await accounts.keys(account);
  const [thisMonth, lastMonth] = await Promise.all([
    accounts.daily(account, month, keys),
    accounts.daily(account, previousMonth(month), keys),
  ]);
  return keys.map((k: KeyRecord) => {
    const days = [...lastMonth, ...thisMonth].filter((r) => r.keyId === k.id && r.calls > 0);
    return {
      id: k.id,
      name: k.name || '(operator key)',
      created: new Date(k.createdAt).toISOString().slice(0, 10),
      lastUsed: days.length === 0 ? 'not in the last two months' : days[days.length - 1].day,
      calls: thisMonth.filter((r) => r.keyId === k.id).reduce((s, r) => s + r.calls, 0),
      disabled: k.disabled,
      previousUntil: k.previousHash && (k.previousUntil ?? 0) > now ? new Date(k.previousUntil!).toISOString() : '',
    };
  });
}

/** The URL the API answers at, for the curl example. */
export function apiBase(req: FastifyRequest, deps: DashboardDeps): string {
  return deps.settings.apiUrl ?? `${req.protocol}://${req.host}`;
}

export function keyRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts } = deps;
  const keysPage = async (req: FastifyRequest, name = '', errors = {}) => ({
    title: 'API keys',
    unconfirmed: await accounts.unconfirmed(req.user!.name),
    keys: await keyRows(deps, req.user!.name),
    plan: req.user!.plan,
    name,
    errors,
    grace: GRACE,
  });

  const secretPage = (req: FastifyRequest, k: NewKey, rolled: string | null) => ({
    title: rolled === null ? 'Your new key' : 'Your rolled key',
    key: k,
    rolled,
    api: apiBase(req, deps),
  });

  app.get('/keys', { ...HIDE, preHandler: requireUser }, async (req, reply) =>
    reply.page('keys.eta', await keysPage(req)),
  );

  app.post('/keys', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const name = field(req.body as Body, 'name').trim();
    const errors = errorsOf({ name: keyNameError(name) });
    if (Object.keys(errors).length > 0) return reply.code(400).page('keys.eta', await keysPage(req, name, errors));
    if (await accounts.unconfirmed(req.user!.name)) return reply.code(403).page('keys.eta', await keysPage(req, name));
    const k = await accounts.createKey(req.user!, name);
    return reply.page('key-secret.eta', secretPage(req, k, null));
  });

  app.post('/keys/:id/roll', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const grace = GRACE[field(req.body as Body, 'grace')];
    const id = (req.params as { id: string }).id;
    if (grace === undefined)
      return reply.code(400).page('keys.eta', await keysPage(req, '', { grace: 'Choose a grace period.' }));
    const k = await accounts.rollKey(req.user!.name, id, grace.ms);
    if (k === null) return errorPage(reply, 404, 'missing');
    return reply.page('key-secret.eta', secretPage(req, k, grace.text));
  });

  app.get('/keys/:id/disable', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const k = await accounts.ownKey(req.user!.name, (req.params as { id: string }).id);
    if (k === null || k.disabled) return errorPage(reply, 404, 'missing');
    return reply.page('key-disable.eta', { title: 'Disable this key?', key: k });
  });

  app.post('/keys/:id/disable', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    if (!(await accounts.disableKey(req.user!.name, id))) return errorPage(reply, 404, 'missing');
    return reply.redirect(`${PREFIX}/keys`, 303);
  });
}
