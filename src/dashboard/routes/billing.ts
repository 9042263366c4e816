// Billing pages of Stripe mode (docs/billing.md): Checkout for a paid plan, the billing page
// with the customer portal (card, invoices, cancelling), and the webhook Stripe calls.
// Guarantees: the webhook answers 400 to a delivery whose signature does not verify and
// changes nothing; it lives outside the pages' session and CSRF (Stripe has neither; the
// signature is its proof) and reads the body raw, as the signature covers the exact bytes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Plan, UserRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { form, requireUser } from './guards';

const HIDE = { schema: { hide: true } };

/** Sends the user to Stripe Checkout for `plan`, or to the portal when a subscription exists. */
export async function startCheckout(
  { accounts, billing }: DashboardDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRecord,
  plan: Plan,
): Promise<FastifyReply> {
  if (billing === undefined || plan.stripe === undefined) {
    await accounts.selfServe.requestPlan(user.name, user.email, plan.name); // not sold online: ask the operator
    await accounts.selfServe.audit(user.email, user.name, `asked for plan ${plan.name}`);
    return reply.redirect(`${PREFIX}/plans?done=requested`, 303);
  }
  const link = await accounts.selfServe.billingLink(user.name);
  try {
    if (link !== null && link.status !== 'canceled') {
      const portal = await billing.portal(user.name);
      if (portal !== null) return reply.redirect(portal, 303);
    }
    return reply.redirect(await billing.checkout(user, plan), 303);
  } catch (err) {
    req.log.warn({ err: String(err) }, 'stripe checkout failed');
    return errorPage(reply, 502, 'billing');
  }
}

export function billingRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts, billing, settings } = deps;
  app.get('/billing', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const user = req.user!;
    return reply.page('billing.eta', {
      title: 'Billing',
      stripe: billing !== undefined,
      link: await accounts.selfServe.billingLink(user.name),
      billingText: settings.billingText,
    });
  });

  app.post('/billing/portal', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    if (billing === undefined) return errorPage(reply, 404, 'missing');
    try {
      const url = await billing.portal(req.user!.name);
      return url === null ? reply.redirect(`${PREFIX}/plans`, 303) : reply.redirect(url, 303);
    } catch (err) {
      req.log.warn({ err: String(err) }, 'stripe portal failed');
      return errorPage(reply, 502, 'billing');
    }
  });
}

/** POST /dashboard/billing/stripe/webhook: registered beside the pages, without their session and CSRF. */
export async function stripeWebhook(app: FastifyInstance, { billing }: DashboardDeps): Promise<void> {
  if (billing === undefined) return;
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.post('/billing/stripe/webhook', HIDE, async (req, reply) => {
    const signature = req.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(req.body))
      return reply.code(400).type('text/plain').send('stripe-signature header and a JSON body required\n');
    let outcome: string;
    try {
      outcome = await billing.webhook(req.body, signature);
    } catch (err) {
      if ((err as { type?: string }).type === 'StripeSignatureVerificationError')
        return reply.code(400).type('text/plain').send('signature does not verify\n');
      req.log.warn({ err: String(err) }, 'stripe webhook not handled');
      return reply.code(500).type('text/plain').send('not handled; retry\n');
    }
    return reply.type('application/json').send({ received: true, outcome });
  });
}
