// Stripe mode (docs/billing.md): the official `stripe` library for Checkout, the customer portal,
// signed webhooks and usage-based billing of overage. Guarantees: a webhook is acted on only
// when its signature verifies with the webhook secret, and once per event id across every
// instance (a claim in the store; a failed handling gives the claim back so Stripe's retry is
// handled); what it changes (plan, payment required) is an account change, seen by every API
// instance within a second; overage is reported per account and closed UTC day, each day's
// value computed from that day's counters alone and sent with the identifier and idempotency
// key `overage-ACCOUNT-DAY` after a claim, so neither a retry nor a second instance bills a
// call twice.
import Stripe from 'stripe';
import type { AccessAccounts, Plan } from '../access';
import { choiceOf, monthOf } from '../access';
import type { Mailer } from '../mail';
import type { StripeSettings } from './settings';

export type StripeClient = InstanceType<typeof Stripe>;
type Event = ReturnType<StripeClient['webhooks']['constructEvent']>;

export function stripeClient(s: StripeSettings): StripeClient {
  const base = s.apiBase === undefined ? undefined : new URL(s.apiBase);
  return new Stripe(s.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol.slice(0, -1) as 'http' | 'https',
    }),
  });
}

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class StripeBilling {
  readonly client: StripeClient;

  constructor(
    private readonly settings: StripeSettings,
    private readonly accounts: AccessAccounts,
    private readonly mailer: Mailer,
    private readonly billingText: () => string,
  ) {
    this.client = stripeClient(settings);
  }

  private get self() {
    return this.accounts.selfServe;
  }

  /** The plan whose subscription price this is; undefined when none. */
  private planOfPrice(price: string | undefined): Plan | undefined {
    return [...this.accounts.plans.values()].find((p) => p.stripe?.price === price);
  }

  /** Verifies and handles one webhook delivery: 'handled', 'duplicate' or 'ignored'; throws when the signature fails. */
  async webhook(raw: Buffer, signature: string): Promise<'handled' | 'duplicate' | 'ignored'> {
    const event = this.client.webhooks.constructEvent(raw, signature, this.settings.webhookSecret);
    if (!(await this.self.claim('stripe-event', event.id))) return 'duplicate';
    try {
      return (await this.handle(event)) ? 'handled' : 'ignored';
    } catch (err) {
      await this.self.unclaim('stripe-event', event.id).catch(() => {});
      throw err;
    }
  }

  private async handle(event: Event): Promise<boolean> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const s = event.data.object;
        const account = s.client_reference_id ?? s.metadata?.account;
        const plan = this.accounts.plans.get(s.metadata?.plan ?? '');
        if (!account || !plan || typeof s.customer !== 'string' || typeof s.subscription !== 'string') return false;
        await this.self.setBillingLink(account, {
          customer: s.customer,
          subscription: s.subscription,
          plan: plan.name,
          status: 'active',
        });
        await this.accounts.updateAccount(account, { plan: plan.name, paymentRequired: false });
        await this.self.cancelRequest(account);
        await this.self.audit('stripe', account, `plan → ${plan.name} (Stripe checkout ${s.id})`);
        return true;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const inv = event.data.object;
        const account = await this.accountOf(inv.customer);
        if (account === null) return false;
        const failed = event.type === 'invoice.payment_failed';
        await this.accounts.updateAccount(account, { paymentRequired: failed });
        await this.self.audit(
          'stripe',
          account,
          `payment ${failed ? 'failed: payment required' : 'received'} (invoice ${inv.id})`,
        );
        if (failed) await this.mailPaymentRequired(account, inv.id ?? event.id);
        return true;
      }
      case 'customer.subscription.updated': {
        const sub = event.data.object;
        const account = await this.accountOf(sub.customer);
        const plan = this.planOfPrice(sub.items.data.find((i) => this.planOfPrice(i.price.id))?.price.id);
        if (account === null || plan === undefined) return false;
        const link = await this.self.billingLink(account);
        if (link !== null) await this.self.setBillingLink(account, { ...link, plan: plan.name, status: sub.status });
        const user = await this.accounts.user(account);
        if (user !== null && user.plan !== plan.name) {
          await this.accounts.updateAccount(account, { plan: plan.name });
          await this.self.audit('stripe', account, `plan ${user.plan ?? 'none'} → ${plan.name} (Stripe subscription)`);
        }
        return true;
      }
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const account = await this.accountOf(sub.customer);
        if (account === null) return false;
        const free = [...this.accounts.plans.values()].find((p) => choiceOf(p) === 'free');
        const link = await this.self.billingLink(account);
        if (link !== null) await this.self.setBillingLink(account, { ...link, status: 'canceled' });
        await this.accounts.updateAccount(account, { paymentRequired: false, ...(free && { plan: free.name }) });
        await this.self.audit('stripe', account, `subscription cancelled: plan → ${free?.name ?? 'unchanged'}`);
        return true;
      }
      default:
        return false;
    }
  }

  private accountOf(customer: string | { id: string } | null): Promise<string | null> {
    const id = typeof customer === 'string' ? customer : customer?.id;
    return id ? this.self.accountOfCustomer(id) : Promise.resolve(null);
  }

  private async mailPaymentRequired(account: string, invoice: string): Promise<void> {
    const user = await this.accounts.user(account);
    if (user === null) return;
    void this.mailer.send(`payment:${account}:${invoice}`, user.email, 'payment', {
      link: this.mailer.link('/billing'),
      billingText: this.billingText(),
    });
  }

  /** A Checkout session for `plan`'s subscription; its URL. */
  async checkout(user: { name: string; email: string }, plan: Plan): Promise<string> {
    const link = await this.self.billingLink(user.name);
    const s = plan.stripe!;
    const session = await this.client.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: s.price, quantity: 1 }, ...(s.overagePrice ? [{ price: s.overagePrice }] : [])],
      client_reference_id: user.name,
      metadata: { account: user.name, plan: plan.name },
      subscription_data: { metadata: { account: user.name, plan: plan.name } },
      ...(link !== null ? { customer: link.customer } : { customer_email: user.email }),
      success_url: this.mailer.link('/plans?done=paid'),
      cancel_url: this.mailer.link('/plans?done=not-paid'),
    });
    if (!session.url) throw new Error('Stripe made a checkout session without a URL');
    return session.url;
  }

  /** A customer-portal session (card, invoices, cancelling); null when the account has no customer at Stripe. */
  async portal(account: string): Promise<string | null> {
    const link = await this.self.billingLink(account);
    if (link === null) return null;
    const session = await this.client.billingPortal.sessions.create({
      customer: link.customer,
      return_url: this.mailer.link('/billing'),
    });
    return session.url;
  }

  /**
   * Reports the overage of every subscribed account for each closed UTC day of the last
   * `days` days not reported yet: the calls that day took past the plan's included calls of
   * its month (per account). Returns how many days were reported.
   */
  async reportOverage(days = 3): Promise<number> {
    const now = this.accounts.now();
    let reported = 0;
    for (let offset = 0; ; offset += 100) {
      const page = await this.self.billingLinks(offset, 100);
      for (const { account, link } of page.items) {
        const plan = this.accounts.plans.get(link.plan);
        if (link.status === 'canceled' || !plan?.stripe?.meter || plan.monthlyIncluded === null) continue;
        for (let d = days; d >= 1; d--) {
          const closed = day(now - d * DAY_MS);
          if (closed < day(link.at)) continue;
          if (await this.reportDay(account, link.customer, plan, closed)) reported++;
        }
      }
      if (offset + 100 >= page.total) break;
    }
    return reported;
  }

  private async reportDay(account: string, customer: string, plan: Plan, closed: string): Promise<boolean> {
    const id = `overage-${account}-${closed}`;
    const value = await this.overageOf(account, plan.monthlyIncluded!, closed);
    if (!(await this.self.claim('overage', id, { value }))) return false;
    if (value === 0) return true;
    try {
      await this.client.billing.meterEvents.create(
        {
          event_name: plan.stripe!.meter!,
          payload: { stripe_customer_id: customer, value: String(value) },
          identifier: id,
          timestamp: Math.floor(Date.parse(`${closed}T23:59:59Z`) / 1000),
        },
        { idempotencyKey: id },
      );
      return true;
    } catch (err) {
      await this.self.unclaim('overage', id).catch(() => {});
      throw err;
    }
  }

  /** The calls of `closed` (a day) past the month's included calls, per account. */
  private async overageOf(account: string, included: number, closed: string): Promise<number> {
    const rows = await this.accounts.daily(account, monthOf(Date.parse(`${closed}T00:00:00Z`)));
    let before = 0;
    let that = 0;
    for (const r of rows)
      if (r.day < closed) before += r.calls;
      else if (r.day === closed) that += r.calls;
    return Math.max(0, before + that - included) - Math.max(0, before - included);
  }
}
