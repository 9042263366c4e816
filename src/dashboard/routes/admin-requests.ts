// The admins' queue of plan requests (manual billing): each pending request with the account,
// its plan now and the plan asked for; approve (the account and its keys move to the plan) or
// decline. Guarantees: admins only, CSRF-checked; a request is decided once even when two
// admins press at once (SelfServe.decide); the decision is in the account's audit log and
// mailed to the user.
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../pages';
import { PREFIX } from '../pages';
import { field, type Body } from '../forms';
import { form, requireAdmin } from './guards';
import { pageOf } from '../paging';

const HIDE = { schema: { hide: true } };
const PER_PAGE = 25;

export function adminRequestRoutes(app: FastifyInstance, { accounts, mailer, settings }: DashboardDeps): void {
  const self = accounts.selfServe;

  app.get('/admin/requests', { ...HIDE, preHandler: requireAdmin }, async (req, reply) => {
    const page = pageOf(req.query);
    const { total, items } = await self.pendingRequests((page - 1) * PER_PAGE, PER_PAGE);
    const rows = await Promise.all(
      items.map(async (r) => ({ ...r, current: (await accounts.user(r.account))?.plan ?? '' })),
    );
    const done = (req.query as Record<string, unknown>).done;
    return reply.page('admin-requests.eta', {
      title: 'Plan requests',
      rows,
      page,
      pages: Math.max(1, Math.ceil(total / PER_PAGE)),
      notice:
        done === 'approved'
          ? 'Approved: the account and its keys are on the plan now.'
          : done === 'declined'
            ? 'Declined.'
            : done === 'gone'
              ? 'That request was decided already (by another admin, or withdrawn).'
              : undefined,
    });
  });

  app.post('/admin/requests/:account', { ...HIDE, preHandler: form(app, requireAdmin) }, async (req, reply) => {
    const account = (req.params as { account: string }).account;
    const approve = field(req.body as Body, 'decision') === 'approve';
    const admin = req.user!;
    const r = await self.decide(account, approve, admin.email);
    if (r === null) return reply.redirect(`${PREFIX}/admin/requests?done=gone`, 303);
    const user = await accounts.user(account);
    if (approve && accounts.plans.has(r.plan)) await accounts.updateAccount(account, { plan: r.plan });
    await self.audit(
      admin.email,
      account,
      approve
        ? `approved the request: plan ${user?.plan ?? 'none'} → ${r.plan}`
        : `declined the request for plan ${r.plan}`,
    );
    if (user !== null)
      void mailer.send(`decided:${account}:${r.at}`, user.email, 'decided', {
        plan: r.plan,
        approved: approve,
        link: mailer.link('/account'),
        billingText: approve ? settings.billingText : '',
      });
    return reply.redirect(`${PREFIX}/admin/requests?done=${approve ? 'approved' : 'declined'}`, 303);
  });
}
