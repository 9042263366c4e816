// The operator's pages: accounts (plan, keys, calls this month, overage, billing state), one
// account's changes (plan, payment required, disable, a password-reset link), invitation
// links, usage across accounts for a month (AccessAdmin.usage: the figures and CSV of
// `catalogue usage`), and the settings in force. Guarantees: every page and form answers
// developers 403; every change is CSRF-checked and reaches every API instance within a second
// (the store's version bump).
import { describeTrust } from '../../http/trust-proxy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { monthOf, parseMonth, previousMonth, usageCsv, type AccountRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { emailError, errorsOf, field, type Body } from '../forms';
import { save as saveSetting } from '../live-settings';
import { pageOf } from '../paging';
import { form, requireAdmin } from './guards';
import { billingState } from './plan-facts';
import { IDLE_MS, ABSOLUTE_MS } from '../settings';

const HIDE = { schema: { hide: true } };
const PER_PAGE = 25;

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
    const [keys, audit] = await Promise.all([keysWithLastUse(name), accounts.selfServe.auditLog(name, 0, 20)]);
    return {
      title: row.email || row.name,
      a: row,
      plans: [...accounts.plans.keys()],
      self: req.user!.name,
      keys,
      audit: audit.items,
      ...extra,
    };
  };

  /** The account's keys, newest first, each with the last UTC day it made calls (this month or the last). */
  const keysWithLastUse = async (name: string) => {
    const keys = await accounts.keys(name);
    const now = accounts.now();
    const days = [
      ...(await accounts.daily(name, previousMonth(monthOf(now)), keys)),
      ...(await accounts.daily(name, monthOf(now), keys)),
    ];
    const last = new Map<string, string>();
    for (const d of days) if (d.calls > 0) last.set(d.keyId, d.day);
    return keys.map((k) => ({
      id: k.id,
      name: k.name ?? '',
      plan: k.plan,
      disabled: k.disabled,
      created: new Date(k.createdAt).toISOString().slice(0, 10),
      lastUsed: last.get(k.id) ?? '',
    }));
  };

  app.get('/admin', admin, (_req, reply) => reply.redirect(`${PREFIX}/admin/accounts`, 303));

  app.get('/admin/accounts', admin, async (req, reply) => {
    const q =
      typeof (req.query as Body)?.q === 'string'
        ? field(req.query as Body, 'q')
            .trim()
            .toLowerCase()
        : '';
    const all = await accountRows();
    const found = q === '' ? all : all.filter((r) => r.email.includes(q) || r.name.toLowerCase().includes(q));
    const page = pageOf(req.query);
    const invites = await accounts.invites();
    return reply.page('admin-accounts.eta', {
      title: 'Accounts',
      rows: found.slice((page - 1) * PER_PAGE, page * PER_PAGE),
      total: found.length,
      q,
      page,
      pages: Math.max(1, Math.ceil(found.length / PER_PAGE)),
      plans: [...accounts.plans.keys()],
      month: monthOf(accounts.now()),
      invites,
    });
  });

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
      if (typeof outcome === 'string') await accounts.selfServe.audit(req.user!.email, name, `${path}: ${outcome}`);
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
    const user = on ? await accounts.user(name) : null;
    if (user !== null)
      void deps.mailer.send(`payment:${name}:${accounts.now()}`, user.email, 'payment', {
        link: deps.mailer.link('/account#billing'),
        billingText: settings.billingText,
      });
    return on ? 'Payment required: every key of the account answers 402 now.' : 'Payment required is lifted.';
  });
  change('disabled', async (name, body, req) => {
    const on = field(body, 'on') === '1';
    if (on && name === req.user!.name) return { errors: { disabled: 'You cannot disable your own account.' } };
    await accounts.updateAccount(name, { disabled: on });
    return on ? 'The account is disabled: its keys answer 403 and it cannot sign in.' : 'The account is enabled.';
  });
  change('role', async (name, body, req) => {
    const role = field(body, 'role') === 'admin' ? 'admin' : 'developer';
    if (role === 'developer' && name === req.user!.name)
      return { errors: { role: 'You cannot remove your own admin role; another admin can.' } };
    const user = await accounts.user(name);
    if (user === null) return { errors: { role: 'Only a dashboard account (with an email) can be an admin.' } };
    await accounts.updateAccount(name, { role });
    return role === 'admin' ? 'The account is an admin now.' : 'The account is a developer now (no admin pages).';
  });
  change('reset-link', async (name, _body, req) => {
    const link = await accounts.resetLinkFor(name);
    return { link: `${origin(req)}${PREFIX}/reset/${link.token}`, linkExpires: new Date(link.expiresAt).toISOString() };
  });

  app.post('/admin/invites', adminForm, async (req, reply) => {
    const plan = field(req.body as Body, 'plan');
    const email = field(req.body as Body, 'email').trim();
    if (plan !== '' && !accounts.plans.has(plan)) return errorPage(reply, 400, 'bad');
    if (email !== '' && emailError(email) !== undefined) return errorPage(reply, 400, 'bad');
    const invite = await accounts.invite(plan);
    const p = accounts.plans.get(plan || settings.signupPlan);
    const until = new Date(invite.expiresAt).toISOString().slice(0, 16).replace('T', ' ');
    await accounts.selfServe.rememberInvite(invite.token, {
      plan: plan || settings.signupPlan,
      email,
      by: req.user!.email,
      expiresAt: invite.expiresAt,
    });
    if (email !== '')
      void deps.mailer.send(`invite:${invite.token}`, email, 'invite', {
        link: deps.mailer.link(`/sign-up?invite=${invite.token}`),
        plan: p?.name ?? plan,
        trial: p?.trial !== null && p?.trial !== undefined,
        price: p?.price ?? '',
        days: 7,
      });
    return reply.page('notice.eta', {
      title: 'Invitation link',
      text: `${email ? `Mailed to ${email}. ` : 'Send this link to the person you invite. '}It makes one account on plan ${plan || settings.signupPlan}, once, until ${until} UTC.`,
      secret: `${origin(req)}${PREFIX}/sign-up?invite=${invite.token}`,
      link: { href: `${PREFIX}/admin/accounts`, text: 'Back to accounts' },
    });
  });

  app.post('/admin/invites/:id/revoke', adminForm, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    if (/^[0-9a-f]{64}$/.test(id) && (await accounts.revokeInvite(id)))
      await accounts.selfServe.audit(req.user!.email, '*', 'revoked an invitation');
    return reply.redirect(`${PREFIX}/admin/accounts#invites`, 303);
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
    const [report, snap] = await Promise.all([accounts.usage(month), accounts.snapshot()]);
    const emails = Object.fromEntries(snap.accounts.filter((a) => a.email).map((a) => [a.name, a.email]));
    return reply.page('admin-usage.eta', { title: `Usage ${month}`, month, report, emails });
  });

  app.get('/admin/usage.csv', admin, async (req, reply) => {
    const month = monthOfQuery(req);
    if (month === null) return reply.code(400).type('text/plain; charset=utf-8').send('month must be YYYY-MM\n');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="usage-${month}.csv"`)
      .send(usageCsv(await accounts.usage(month)));
  });

  const settingsPage = (extra: Record<string, unknown> = {}) => ({
    title: 'Settings',
    s: settings,
    plans: [...accounts.plans.values()],
    idleMinutes: IDLE_MS / 60_000,
    absoluteHours: ABSOLUTE_MS / 3_600_000,
    stripe: settings.stripe !== undefined,
    mailMode: deps.mailer.mode,
    trust: describeTrust(settings.trustProxy),
    errors: {},
    ...extra,
  });
  app.get('/admin/settings', admin, (_req, reply) => reply.page('admin-settings.eta', settingsPage()));

  app.post('/admin/settings', adminForm, async (req, reply) => {
    const body = req.body as Body;
    const signup = field(body, 'signup');
    const signupPlan = field(body, 'signupPlan');
    const billingText = field(body, 'billingText').replace(/\r\n/g, '\n').trim();
    const errors = errorsOf({
      signup: signup === 'open' || signup === 'invite' ? undefined : 'Choose open or invitation only.',
      signupPlan: accounts.plans.has(signupPlan) ? undefined : 'Choose one of the plans.',
      billingText: billingText.length > 10_000 ? 'The billing instructions have at most 10,000 characters.' : undefined,
    });
    if (Object.keys(errors).length > 0) return reply.code(400).page('admin-settings.eta', settingsPage({ errors }));
    const changed: string[] = [];
    for (const [name, value] of [
      ['signup', signup],
      ['signupPlan', signupPlan],
      ['billingText', billingText],
    ] as const)
      if (settings[name] !== value) {
        await saveSetting(settings, accounts, name, value);
        changed.push(name);
      }
    if (changed.length > 0)
      await accounts.selfServe.audit(req.user!.email, '*', `changed the settings: ${changed.join(', ')}`);
    return reply.page(
      'admin-settings.eta',
      settingsPage({
        notice: changed.length > 0 ? 'Saved: every instance uses it within a second.' : 'Nothing changed.',
      }),
    );
  });
}
