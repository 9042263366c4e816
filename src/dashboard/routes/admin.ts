// The operator's pages: accounts (plan, keys, calls this month, overage, billing state), one
// account's changes (plan, payment required, disable, a password-reset link), invitation
// links, usage across accounts for a month (AccessAdmin.usage: the figures and CSV of
// `catalogue usage`), and the settings in force. Guarantees: every page and form answers
// developers 403; every change is CSRF-checked and reaches every API instance within a second
// (the store's version bump).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { monthOf, parseMonth, usageCsv, type AccountRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { field, type Body } from '../forms';
import { form, requireAdmin } from './guards';
import { billingState } from './plan-facts';
import { IDLE_MS, ABSOLUTE_MS } from '../settings';

const HIDE = { schema: { hide: true } };

export function adminRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts, settings } = deps;
  const admin = { ...HIDE, preHandler: requireAdmin };
  const adminForm = { ...HIDE, preHandler: form(app, requireAdmin) };
  const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

  const accountRows = async () => {
    const now = accounts.now();
    const [snap, usage] = await Promise.all([accounts.snapshot(), accounts.usage(monthOf(now))]);
    const byAccount = new Map(usage.accounts.map((a) => [a.account, a]));
    return snap.accounts
      .map((a) => {
        const keys = snap.keys.filter((k) => k.account === a.name);
        const plan = a.plan ?? keys[0]?.plan ?? '';
        const u = byAccount.get(a.name);
        return {
          name: a.name,
          email: a.email ?? '',
          role: a.role ?? 'developer',
          plan,
          keys: keys.length,
          activeKeys: keys.filter((k) => !k.disabled).length,
          calls: u?.calls ?? 0,
          overage: u?.overage ?? 0,
          state: billingState(a, accounts.plans.get(plan), now),
          paymentRequired: a.paymentRequired,
          disabled: a.disabled ?? false,
          created: a.createdAt ? new Date(a.createdAt).toISOString().slice(0, 10) : '',
        };
      })
      .sort((x, y) => (x.email || x.name).localeCompare(y.email || y.name));
  };

  const accountPage = async (req: FastifyRequest, name: string, extra: Record<string, unknown> = {}) => {
    const row = (await accountRows()).find((r) => r.name === name);
    if (row === undefined) return null;
    return { title: row.email || row.name, a: row, plans: [...accounts.plans.keys()], self: req.user!.name, ...extra };
  };

  app.get('/admin', admin, (_req, reply) => reply.redirect(`${PREFIX}/admin/accounts`, 303));

  app.get('/admin/accounts', admin, async (_req, reply) =>
    reply.page('admin-accounts.eta', {
      title: 'Accounts',
      rows: await accountRows(),
      plans: [...accounts.plans.keys()],
      month: monthOf(accounts.now()),
    }),
  );

  app.get('/admin/accounts/:name', admin, async (req, reply) => {
    const data = await accountPage(req, (req.params as { name: string }).name);
    return data === null ? errorPage(reply, 404, 'missing') : reply.page('admin-account.eta', data);
  });

  /** An account change from a form: answered with the account's page again. */
  const change = (
    path: string,
    apply: (a: AccountRecord['name'], body: Body, req: FastifyRequest) => Promise<string | Record<string, unknown>>,
  ) =>
    app.post(`/admin/accounts/:name/${path}`, adminForm, async (req, reply) => {
      const name = (req.params as { name: string }).name;
      if ((await accountPage(req, name)) === null) return errorPage(reply, 404, 'missing');
      const outcome = await apply(name, req.body as Body, req);
      const extra = typeof outcome === 'string' ? { notice: outcome } : outcome;
      return reply.page('admin-account.eta', (await accountPage(req, name, extra))!);
    });

  change('plan', async (name, body) => {
    const plan = field(body, 'plan');
    if (!accounts.plans.has(plan)) return { errors: { plan: 'Choose one of the plans.' } };
    await accounts.updateAccount(name, { plan });
    return `The account and all its keys are on plan ${plan} now.`;
  });
  change('payment', async (name, body) => {
    const on = field(body, 'on') === '1';
    await accounts.updateAccount(name, { paymentRequired: on });
    return on ? 'Payment required: every key of the account answers 402 now.' : 'Payment required is lifted.';
  });
  change('disabled', async (name, body, req) => {
    const on = field(body, 'on') === '1';
    if (on && name === req.user!.name) return { errors: { disabled: 'You cannot disable your own account.' } };
    await accounts.updateAccount(name, { disabled: on });
    return on ? 'The account is disabled: its keys answer 403 and it cannot sign in.' : 'The account is enabled.';
  });
  change('reset-link', async (name, _body, req) => {
    const link = await accounts.resetLinkFor(name);
    return { link: `${origin(req)}${PREFIX}/reset/${link.token}`, linkExpires: new Date(link.expiresAt).toISOString() };
  });

  app.post('/admin/invites', adminForm, async (req, reply) => {
    const plan = field(req.body as Body, 'plan');
    if (plan !== '' && !accounts.plans.has(plan)) return errorPage(reply, 400, 'bad');
    const invite = await accounts.invite(plan);
    return reply.page('notice.eta', {
      title: 'Invitation link',
      text: `Send this link to the person you invite. It makes one account on plan ${plan || settings.signupPlan}, once, until ${new Date(invite.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      secret: `${origin(req)}${PREFIX}/sign-up?invite=${invite.token}`,
      link: { href: `${PREFIX}/admin/accounts`, text: 'Back to accounts' },
    });
  });

  const monthOfQuery = (req: FastifyRequest): string | null => {
    const m = (req.query as Record<string, unknown>).month;
    if (m === undefined || m === '') return monthOf(accounts.now());
    try {
      return typeof m === 'string' ? parseMonth(m) : null;
    } catch {
      return null;
    }
  };

  app.get('/admin/usage', admin, async (req, reply) => {
    const month = monthOfQuery(req);
    if (month === null)
      return reply.code(400).page('admin-usage.eta', { title: 'Usage', month: '', error: 'Month must be YYYY-MM.' });
    return reply.page('admin-usage.eta', { title: `Usage ${month}`, month, report: await accounts.usage(month) });
  });

  app.get('/admin/usage.csv', admin, async (req, reply) => {
    const month = monthOfQuery(req);
    if (month === null) return reply.code(400).type('text/plain; charset=utf-8').send('month must be YYYY-MM\n');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="usage-${month}.csv"`)
      .send(usageCsv(await accounts.usage(month)));
  });

  app.get('/admin/settings', admin, (_req, reply) =>
    reply.page('admin-settings.eta', {
      title: 'Settings',
      s: settings,
      plans: [...accounts.plans.values()],
      idleMinutes: IDLE_MS / 60_000,
      absoluteHours: ABSOLUTE_MS / 3_600_000,
    }),
  );
}
