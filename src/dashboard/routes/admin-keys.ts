// The admins' key search for an incident: find a key by its id, by a whole leaked secret, or by
// the first characters of its secret, see whose it is and when it was last used, and disable
// it after a confirmation page. Guarantees: admins only; the disable is a POST with CSRF from
// the confirmation page, reaches every API instance within a second and is in the account's
// audit log; a secret typed into the search is never stored, logged or shown back.
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { field, type Body } from '../forms';
import { form, requireAdmin } from './guards';

const HIDE = { schema: { hide: true } };

export function adminKeyRoutes(app: FastifyInstance, { accounts }: DashboardDeps): void {
  const admin = { ...HIDE, preHandler: requireAdmin };

  app.get('/admin/keys', admin, async (req, reply) => {
    const q = field(req.query as Body, 'q').trim();
    const keys = q === '' ? [] : await accounts.findKeys(q);
    const snap = keys.length === 0 ? null : await accounts.snapshot();
    const emails = new Map(snap?.accounts.map((a) => [a.name, a.email ?? '']) ?? []);
    const done = field(req.query as Body, 'done');
    return reply.page('admin-keys.eta', {
      title: 'Find a key',
      q: q.startsWith('ck_') ? q.slice(0, 11) : q, // never echo a whole secret
      searched: q !== '',
      tooShort: q !== '' && q.length < 6,
      keys: keys.map((k) => ({
        ...k,
        email: emails.get(k.account) ?? '',
        created: new Date(k.createdAt).toISOString().slice(0, 10),
      })),
      notice:
        done === 'disabled' ? 'The key is disabled: it answers 403 on every instance within a second.' : undefined,
    });
  });

  app.get('/admin/keys/:id/disable', admin, async (req, reply) => {
    const key = await keyById(accounts, (req.params as { id: string }).id);
    if (key === null) return errorPage(reply, 404, 'missing');
    const owner = (await accounts.snapshot()).accounts.find((a) => a.name === key.account);
    const back = field(req.query as Body, 'back') === 'account' ? 'account' : '';
    return reply.page('admin-key-disable.eta', { title: 'Disable this key?', key, email: owner?.email ?? '', back });
  });

  app.post('/admin/keys/:id/disable', { ...HIDE, preHandler: form(app, requireAdmin) }, async (req, reply) => {
    const key = await keyById(accounts, (req.params as { id: string }).id);
    if (key === null) return errorPage(reply, 404, 'missing');
    if (!key.disabled && (await accounts.disableAnyKey(key.id)))
      await accounts.selfServe.audit(
        req.user!.email,
        key.account,
        `disabled key ${key.id}${key.name ? ` (${key.name})` : ''}`,
      );
    const back = field(req.body as Body, 'back');
    return reply.redirect(
      back === 'account'
        ? `${PREFIX}/admin/accounts/${encodeURIComponent(key.account)}`
        : `${PREFIX}/admin/keys?q=${key.id}&done=disabled`,
      303,
    );
  });
}

async function keyById(accounts: DashboardDeps['accounts'], id: string) {
  if (!/^key_[A-Za-z0-9_-]{1,40}$/.test(id)) return null;
  return (await accounts.snapshot()).keys.find((k) => k.id === id) ?? null;
}
