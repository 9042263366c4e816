// From sign-up to paid over real HTTP, on SQLite and on Redis, each with two instances sharing
// the store (a change made on one is obeyed by the API of the other): the manual path (trial
// used → the banner → sandbox at once → ask for starter → an admin approves → the plan) and
// the Stripe path against a local stand-in of Stripe's API (Checkout → signed webhook → paid
// plan → invoice.payment_failed → 402 and the banner → invoice.paid → 200), and overage
// reported to Stripe once per account and day however many instances report.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monthOf, openAccounts } from '../src/access';
import { ADMIN, Client, startDashboard, type DashboardServer } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';
import { REDIS, dropPrefixes, redisUp } from './support/redis';
import { sendWebhook, startStripe, stripeEvent, type StripeStandIn } from './support/stripe-server';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_stand_in';
const PLANS = [
  {
    name: 'trial',
    trial: { requests: 3, days: 14 },
    monthlyIncluded: null,
    monthlyCeiling: null,
    ratePerSecond: 100,
    barcode: true,
  },
  {
    name: 'sandbox',
    trial: null,
    monthlyIncluded: 100,
    monthlyCeiling: 100,
    ratePerSecond: 100,
    barcode: false,
    price: 'Free',
    choice: 'free',
  },
  {
    name: 'starter',
    trial: null,
    monthlyIncluded: 5,
    monthlyCeiling: 1000,
    ratePerSecond: 100,
    barcode: false,
    price: '€29 a month',
    choice: 'paid',
    stripe: { price: 'price_starter1', overagePrice: 'price_over1', meter: 'api_overage' },
  },
];

const call = (s: DashboardServer, key: string) =>
  fetch(`${s.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

/** The status `s` gives `key` once it has settled on `want` (polled for up to 1.5 s). */
async function within(s: DashboardServer, key: string, want: number): Promise<{ status: number; ms: number }> {
  const start = Date.now();
  let status = 0;
  while (Date.now() - start < 1500 && (status = await call(s, key)) !== want)
    await new Promise((r) => setTimeout(r, 25));
  return { status, ms: Date.now() - start };
}

for (const kind of ['sqlite', 'redis'] as const) {
  describe(`self-serve on ${kind}, two instances`, () => {
    let skip: string | false = false;
    let a: DashboardServer;
    let b: DashboardServer;
    let sa: DashboardServer;
    let sb: DashboardServer;
    let stripe: StripeStandIn;
    let dir = '';
    const prefix = `selfserve-test-${randomBytes(4).toString('hex')}:`;
    const prefix2 = `selfserve-test-${randomBytes(4).toString('hex')}:`;

    before(async () => {
      if (kind === 'redis' && !(await redisUp())) {
        if (process.env.CI) throw new Error(`no Redis at ${REDIS} and CI is set`);
        skip = `SKIPPED: no Redis at ${REDIS}`;
        return;
      }
      const fixture = await buildFixture();
      dir = fixture.dir;
      const plans = path.join(dir, 'plans.json');
      fs.writeFileSync(plans, JSON.stringify(PLANS));
      const store = kind === 'sqlite' ? `sqlite:${path.join(dir, 'manual.sqlite')}` : `${REDIS}?prefix=${prefix}`;
      const store2 = kind === 'sqlite' ? `sqlite:${path.join(dir, 'stripe.sqlite')}` : `${REDIS}?prefix=${prefix2}`;
      const shared = { catalogue: fixture.file, dir, plans };
      a = await startDashboard(
        { signup: 'open', billingText: 'Pay by bank transfer to IBAN XX00.' },
        { ...shared, store },
      );
      b = await startDashboard(
        { signup: 'open', billingText: 'Pay by bank transfer to IBAN XX00.' },
        { ...shared, store },
      );
      stripe = await startStripe();
      const s = { secretKey: 'sk_test_standin', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url };
      sa = await startDashboard({ signup: 'open', stripe: s }, { ...shared, store: store2 });
      sb = await startDashboard({ signup: 'open', stripe: s }, { ...shared, store: store2 });
    });

    after(async () => {
      for (const s of [a, b, sa, sb]) await s?.server.close();
      await stripe?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      if (kind === 'redis' && !skip) await dropPrefixes([prefix, prefix2]);
    });

    test('manual: trial used → banner → sandbox at once → ask for starter → admin approves', async (t) => {
      if (skip) return t.skip(skip);
      const dev = new Client(a.url);
      assert.equal((await dev.signUp('manual@example.com', 'a fine password')).status, 303);
      const { key } = await dev.createKey('app');
      for (let i = 0; i < 3; i++) assert.equal(await call(b, key), 200);
      assert.equal(await call(b, key), 429, 'the trial is used up');

      const account = await dev.page('/dashboard/account');
      assert.match(account.html, /class="banner banner-trial-used"/);
      assert.match(account.html, /Your 3 trial requests are used/);
      assert.match(account.html, /href="\/dashboard\/plans" role="button">Choose a plan/);
      assert.doesNotMatch(account.html, /state-active/, 'never green while the keys are refused');
      assert.match(
        account.html,
        /3 requests in all, for 14 days from the first key/,
        'the trial says what it includes',
      );
      assert.match((await dev.page('/dashboard/keys')).html, /banner-trial-used/, 'the banner is on every page');

      const plans = await dev.page('/dashboard/plans');
      assert.match(plans.html, /€29 a month/);
      assert.match(plans.html, /5 calls a month included/);
      assert.equal((await dev.post('/dashboard/plans/choose', { _csrf: plans.csrf, plan: 'sandbox' })).status, 303);
      const onB = await within(b, key, 200);
      assert.equal(onB.status, 200, 'sandbox: calls work again on the other instance');
      assert.doesNotMatch((await dev.page('/dashboard/account')).html, /class="banner/);

      const p2 = await dev.page('/dashboard/plans');
      assert.equal((await dev.post('/dashboard/plans/choose', { _csrf: p2.csrf, plan: 'starter' })).status, 303);
      const waiting = await dev.page('/dashboard/plans');
      assert.match(waiting.html, /You asked for the <strong>starter|You asked for the starter plan/);
      assert.match(waiting.html, /IBAN XX00/, 'the operator billing instructions are shown');
      const p3 = await dev.page('/dashboard/plans');
      assert.equal((await dev.post('/dashboard/plans/choose', { _csrf: p3.csrf, plan: 'trial' })).status, 400);
      assert.equal(
        (await dev.post('/dashboard/plans/choose', { _csrf: p2.csrf, plan: 'starter' })).status,
        409,
        'a form sent twice acts once',
      );

      const admin = new Client(b.url);
      assert.equal((await admin.signIn(ADMIN.email, ADMIN.password)).status, 303);
      const queue = await admin.page('/dashboard/admin/requests');
      assert.match(queue.html, /manual@example\.com/);
      const action = /action="(\/dashboard\/admin\/requests\/[^"]+)"/.exec(queue.html)![1];
      assert.equal((await admin.post(action, { _csrf: queue.csrf, decision: 'approve' })).status, 303);
      const stale = await admin.page('/dashboard/admin/requests'); // another admin's page, shown before the approval
      assert.equal((await admin.post(action, { _csrf: stale.csrf, decision: 'decline' })).status, 303);
      assert.match((await admin.page('/dashboard/admin/requests?done=gone')).html, /decided already/);
      const mine = await dev.page('/dashboard/plans');
      assert.match(mine.html, /<h2 class="h4">starter<\/h2><span class="state state-active">your plan/);
      const accounts = await openAccounts(a.store, { purpose: 'admin', plansFile: path.join(dir, 'plans.json') });
      try {
        const { mails } = await accounts.outbox.mails(0, 10);
        assert.ok(mails.some((m) => m.to === 'manual@example.com' && /was approved/.test(m.subject)));
        const user = (await accounts.snapshot()).accounts.find((x) => x.email === 'manual@example.com')!;
        const log = await accounts.selfServe.auditLog(user.name, 0, 10);
        assert.deepEqual(
          log.items.map((e) => e.by),
          [ADMIN.email, 'manual@example.com', 'manual@example.com'],
        );
        assert.match(log.items[0].action, /approved the request: plan sandbox → starter/);
      } finally {
        await accounts.close();
      }
    });

    test('Stripe: Checkout → webhook → paid plan → payment failed → 402 and banner → paid → 200', async (t) => {
      if (skip) return t.skip(skip);
      const dev = new Client(sa.url);
      assert.equal((await dev.signUp('payer@example.com', 'a fine password')).status, 303);
      const { key } = await dev.createKey('app');
      const plans = await dev.page('/dashboard/plans');
      assert.match(plans.html, /Subscribe to starter/);
      const res = await dev.post('/dashboard/plans/choose', { _csrf: plans.csrf, plan: 'starter' });
      assert.equal(res.status, 303);
      assert.match(res.headers.get('location') ?? '', /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      const created = stripe.calls.find((c) => c.path === '/v1/checkout/sessions')!;
      assert.equal(created.method, 'POST');
      assert.equal(created.headers.authorization, 'Bearer sk_test_standin');
      assert.equal(created.form.get('mode'), 'subscription');
      assert.equal(created.form.get('line_items[0][price]'), 'price_starter1');
      assert.equal(created.form.get('line_items[0][quantity]'), '1');
      assert.equal(created.form.get('line_items[1][price]'), 'price_over1');
      assert.equal(created.form.get('metadata[plan]'), 'starter');
      assert.equal(created.form.get('customer_email'), 'payer@example.com');
      assert.equal(created.form.get('success_url'), `${sa.server.dashboardUrl}/plans?done=paid`);
      const account = created.form.get('client_reference_id')!;
      assert.match(account, /.+/);

      const hook = `${sa.url}/dashboard/billing/stripe/webhook`;
      const completed = stripeEvent('checkout.session.completed', {
        id: 'cs_test_1',
        object: 'checkout.session',
        client_reference_id: account,
        customer: 'cus_T1',
        subscription: 'sub_T1',
        metadata: { account, plan: 'starter' },
        mode: 'subscription',
        payment_status: 'paid',
        status: 'complete',
      });
      const first = await sendWebhook(hook, completed, WEBHOOK_SECRET);
      assert.deepEqual([first.status, JSON.parse(first.body).outcome], [200, 'handled']);
      const again = await sendWebhook(`${sb.url}/dashboard/billing/stripe/webhook`, completed, WEBHOOK_SECRET);
      assert.deepEqual([again.status, JSON.parse(again.body).outcome], [200, 'duplicate'], 'once per event id');
      assert.equal((await sendWebhook(hook, completed, 'whsec_wrong')).status, 400, 'a bad signature changes nothing');
      assert.match((await dev.page('/dashboard/account')).html, /<p class="big">starter<\/p>/);

      const invoice = { object: 'invoice', customer: 'cus_T1', subscription: 'sub_T1', status: 'open' };
      const failed = await sendWebhook(
        hook,
        stripeEvent('invoice.payment_failed', { ...invoice, id: 'in_1' }),
        WEBHOOK_SECRET,
      );
      assert.equal(failed.status, 200);
      const refused = await within(sb, key, 402);
      assert.equal(refused.status, 402, 'payment failed: 402 on the other instance');
      assert.ok(refused.ms < 1000, `within a second (${refused.ms} ms)`);
      const banner = await dev.page('/dashboard/usage');
      assert.match(banner.html, /banner-payment/);
      assert.match(banner.html, /href="\/dashboard\/billing" role="button">Update your card/);
      const portal = await dev.post('/dashboard/billing/portal', {
        _csrf: (await dev.page('/dashboard/billing')).csrf,
      });
      assert.match(portal.headers.get('location') ?? '', /^https:\/\/billing\.stripe\.com\/p\/session\//);
      assert.equal(stripe.calls.find((c) => c.path === '/v1/billing_portal/sessions')?.form.get('customer'), 'cus_T1');

      await sendWebhook(hook, stripeEvent('invoice.paid', { ...invoice, id: 'in_1', status: 'paid' }), WEBHOOK_SECRET);
      assert.equal((await within(sb, key, 200)).status, 200, 'paid: served again');
      assert.doesNotMatch((await dev.page('/dashboard/account')).html, /class="banner/);

      // Overage: today's calls past the 5 included, reported once the day is closed.
      for (let i = 0; i < 8; i++) assert.equal(await call(sb, key), 200);
      const accounts = await openAccounts(sa.store, { purpose: 'admin', plansFile: path.join(dir, 'plans.json') });
      const today = new Date().toISOString().slice(0, 10);
      const calls = (await accounts.daily(account, monthOf(Date.now())))
        .filter((r) => r.day === today)
        .reduce((s, r) => s + r.calls, 0);
      await accounts.close();
      for (const s of [sa, sb]) s.clock.offset = 86_400_000; // tomorrow: today is a closed day
      const reports = await Promise.all([sa.server.billing!.reportOverage(), sb.server.billing!.reportOverage()]);
      assert.equal(reports[0] + reports[1], 1, 'one instance reports the day');
      assert.equal(await sa.server.billing!.reportOverage(), 0, 'and never again');
      const meter = stripe.calls.filter((c) => c.path === '/v1/billing/meter_events');
      assert.equal(meter.length, 1);
      assert.equal(meter[0].form.get('event_name'), 'api_overage');
      assert.equal(meter[0].form.get('payload[stripe_customer_id]'), 'cus_T1');
      assert.equal(meter[0].form.get('payload[value]'), String(calls - 5));
      assert.equal(meter[0].form.get('identifier'), `overage-${account}-${today}`);
      assert.equal(meter[0].headers['idempotency-key'], `overage-${account}-${today}`);
      for (const s of [sa, sb]) s.clock.offset = 0;

      await sendWebhook(
        hook,
        stripeEvent('customer.subscription.deleted', {
          id: 'sub_T1',
          object: 'subscription',
          customer: 'cus_T1',
          status: 'canceled',
        }),
        WEBHOOK_SECRET,
      );
      assert.match(
        (await dev.page('/dashboard/account')).html,
        /<p class="big">sandbox<\/p>/,
        'cancelled: the free plan',
      );
    });
  });
}
