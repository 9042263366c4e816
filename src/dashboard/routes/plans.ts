// The plans page and choosing a plan: every plan a user may choose (its `choice` in the plans
// file) with what it includes and the operator's price; a free plan is taken at once, a paid
// one through the deployment's billing — manual (a request an admin approves or declines on
// /dashboard/admin/requests) or Stripe (Checkout, routes/billing.ts). Guarantees: only a plan
// whose choice is free or paid can be asked for, and only a free one changes the account here;
// every change is CSRF-checked and written to the account's audit log; the account's keys
// move with it within a second on every instance (the store's version bump).
import type { FastifyInstance } from 'fastify';
import { choiceOf, type Plan } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { field, type Body } from '../forms';
import { form, requireUser } from './guards';
import { startCheckout } from './billing';

const HIDE = { schema: { hide: true } };
const n = (v: number) => v.toLocaleString('en');

/** What a plan includes, in the words of the plans page. */
export function includes(p: Plan): string[] {
  const out: string[] = [];
  if (p.trial) out.push(`${n(p.trial.requests)} requests in all, for ${n(p.trial.days)} days`);
  else if (p.monthlyIncluded !== null && p.monthlyIncluded === p.monthlyCeiling)
    out.push(`${n(p.monthlyIncluded)} calls a month, then refused until the 1st`);
  else {
    if (p.monthlyIncluded !== null) out.push(`${n(p.monthlyIncluded)} calls a month included`);
    if (p.monthlyCeiling !== null) out.push(`overage billed past them, up to ${n(p.monthlyCeiling)} calls a month`);
    else if (p.monthlyIncluded !== null) out.push('overage billed past them, no ceiling');
    else out.push('no monthly limit');
  }
  out.push(p.ratePerSecond === null ? 'no rate limit' : `${n(p.ratePerSecond)} requests a second`);
  out.push(p.barcode ? 'barcode lookup' : 'no barcode lookup');
  return out;
}

export function planRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts, settings } = deps;
  const self = accounts.selfServe;

  app.get('/plans', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const user = req.user!;
    const current = user.plan ?? '';
    const plans = [...accounts.plans.values()]
      .filter((p) => choiceOf(p) !== 'none' || p.name === current)
      .map((p) => ({
        name: p.name,
        price: p.price ?? '',
        includes: includes(p),
        choice: choiceOf(p),
        mine: p.name === current,
      }));
    return reply.page('plans.eta', {
      title: 'Plans',
      plans,
      request: await self.planRequest(user.name),
      stripe: settings.stripe !== undefined,
      billingText: settings.billingText,
      notice: noticeOf(req.query),
    });
  });

  app.post('/plans/choose', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const user = req.user!;
    const plan = accounts.plans.get(field(req.body as Body, 'plan'));
    if (plan === undefined || choiceOf(plan) === 'none') return errorPage(reply, 400, 'bad');
    if (plan.name === user.plan) return reply.redirect(`${PREFIX}/plans`, 303);
    if (choiceOf(plan) === 'free') {
      await accounts.updateAccount(user.name, { plan: plan.name });
      await self.cancelRequest(user.name);
      await self.audit(user.email, user.name, `plan ${user.plan ?? 'none'} → ${plan.name} (chosen by the user)`);
      return reply.redirect(`${PREFIX}/plans?done=chosen`, 303);
    }
    if (settings.stripe !== undefined) return startCheckout(deps, req, reply, user, plan);
    await self.requestPlan(user.name, user.email, plan.name);
    await self.audit(user.email, user.name, `asked for plan ${plan.name}`);
    return reply.redirect(`${PREFIX}/plans?done=requested`, 303);
  });

  app.post('/plans/cancel', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const user = req.user!;
    if (await self.cancelRequest(user.name)) await self.audit(user.email, user.name, 'withdrew the plan request');
    return reply.redirect(`${PREFIX}/plans?done=cancelled`, 303);
  });
}

const NOTICES: Record<string, string> = {
  chosen: 'Your account and all its keys are on the new plan now.',
  requested: 'Your request is with the operator. This page shows when it is decided; you also get a mail.',
  cancelled: 'Your request is withdrawn.',
  paid: 'Thank you: your subscription is set up. Your plan changes as soon as Stripe confirms the payment (usually within seconds).',
  'not-paid': 'The checkout was left before paying; nothing changed.',
};

function noticeOf(query: unknown): string | undefined {
  const done = (query as Record<string, unknown> | undefined)?.done;
  return typeof done === 'string' ? NOTICES[done] : undefined;
}
