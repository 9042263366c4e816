// The self-serve paths in Chromium (playwright-core), with screenshots of each new page in
// var/screenshots: manual billing (sign up → use the trial up → the banner → choose sandbox →
// calls work → ask for starter → an admin approves → the plan shows) and Stripe mode against a
// local stand-in of Stripe's API (Checkout → signed webhook → paid plan →
// invoice.payment_failed → 402 and the banner → invoice.paid → 200); the admin's incident pages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { packageRoot } from '../src/shared/package-root';
import { ADMIN, outboxMailbox, startDashboard, type DashboardServer } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';
import { browserSkip, launchChromium } from './support/browser';
import { sendWebhook, startStripe, stripeEvent, type StripeStandIn } from './support/stripe-server';

const skip = browserSkip('dashboard-selfserve-browser', 'the self-serve paths');
const SHOTS = path.join(packageRoot(), 'var', 'screenshots');
const SECRET = 'whsec_browser_test';
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
    ratePerSecond: 5,
    barcode: false,
    price: 'Free',
    choice: 'free',
  },
  {
    name: 'starter',
    trial: null,
    monthlyIncluded: 10000,
    monthlyCeiling: 50000,
    ratePerSecond: 50,
    barcode: false,
    price: '€29 a month, €2 per 1,000 calls over',
    choice: 'paid',
    stripe: { price: 'price_starter1', overagePrice: 'price_over1', meter: 'api_overage' },
  },
  {
    name: 'pro',
    trial: null,
    monthlyIncluded: 100000,
    monthlyCeiling: 500000,
    ratePerSecond: 200,
    barcode: true,
    price: '€199 a month',
    choice: 'paid',
  },
];

let manual: DashboardServer;
let paid: DashboardServer;
let stripe: StripeStandIn;
let browser: Browser;
let dir = '';

before(async () => {
  if (skip) return;
  const fixture = await buildFixture();
  dir = fixture.dir;
  const plans = path.join(dir, 'plans.json');
  fs.writeFileSync(plans, JSON.stringify(PLANS));
  const common = { catalogue: fixture.file, dir, plans };
  manual = await startDashboard(
    { signup: 'open', billingText: 'Pay by bank transfer to IBAN DE00 1234 5678 9000, quoting your account id.' },
    { ...common, store: `sqlite:${dir}/manual.sqlite` },
  );
  stripe = await startStripe();
  paid = await startDashboard(
    { signup: 'open', stripe: { secretKey: 'sk_test_browser', webhookSecret: SECRET, apiBase: stripe.url } },
    { ...common, store: `sqlite:${dir}/stripe.sqlite` },
  );
  browser = await launchChromium();
  fs.mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await manual?.server.close();
  await paid?.server.close();
  await stripe?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(50);
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
}

const api = (s: DashboardServer, key: string) =>
  fetch(`${s.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

async function statusSoon(s: DashboardServer, key: string, want: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < 40 && status !== want; i++) {
    status = await api(s, key);
    if (status !== want) await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

async function signUp(page: Page, s: DashboardServer, email: string): Promise<string> {
  await page.goto(`${s.url}/dashboard/sign-up`);
  await page.fill('#f-email', email);
  await page.fill('#f-password', 'a fine password');
  await page.fill('#f-confirm', 'a fine password');
  await page.click('form button[type="submit"]');
  await page.locator('p.notice').waitFor(); // check your mail
  await page.goto(await outboxMailbox(s.store)(email));
  await page.goto(`${s.url}/dashboard/sign-in`);
  await page.fill('#f-email', email);
  await page.fill('#f-password', 'a fine password');
  await page.click('form button[type="submit"]');
  await page.waitForURL(/\/dashboard\/account$/);
  await page.goto(`${s.url}/dashboard/keys`);
  await page.fill('#f-name', 'production');
  await page.click('form.create button');
  return (await page.locator('#secret-value').innerText()).trim();
}

async function signIn(page: Page, s: DashboardServer): Promise<void> {
  await page.goto(`${s.url}/dashboard/sign-in`);
  await page.fill('#f-email', ADMIN.email);
  await page.fill('#f-password', ADMIN.password);
  await page.click('form button[type="submit"]');
  await page.waitForURL(/\/dashboard\/account$/);
}

test('manual billing: trial used → banner → sandbox → ask for starter → admin approves', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const key = await signUp(page, manual, 'maker@example.com');
  for (let i = 0; i < 3; i++) assert.equal(await api(manual, key), 200);
  assert.equal(await api(manual, key), 429);

  await page.goto(`${manual.url}/dashboard/account`);
  const banner = page.locator('section.banner');
  assert.match(await banner.innerText(), /Your 3 trial requests are used/);
  assert.match(await page.locator('.state').first().innerText(), /trial used/);
  await shoot(page, 'banner-trial-used');
  await banner.locator('a[role="button"]').click();
  await page.waitForURL(/\/dashboard\/plans$/);
  await shoot(page, 'plans-manual');
  await page.locator('article.plan', { hasText: 'sandbox' }).locator('button').click();
  await page.waitForURL(/done=chosen/);
  assert.equal(await statusSoon(manual, key, 200), 200, 'sandbox: calls work');
  assert.equal(await page.locator('section.banner').count(), 0, 'no wall, no banner');

  await page.locator('article.plan', { hasText: 'starter' }).locator('button').click();
  await page.waitForURL(/done=requested/);
  assert.match(await page.locator('article.request').innerText(), /You asked for the starter plan[^]*IBAN DE00/);
  await shoot(page, 'plans-requested');

  const ops = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await signIn(ops, manual);
  await ops.goto(`${manual.url}/dashboard/admin/requests`);
  assert.match(await ops.locator('table').innerText(), /maker@example\.com[^]*sandbox[^]*starter/);
  await shoot(ops, 'admin-requests');
  await ops.locator('button[value="approve"]').click();
  await ops.waitForURL(/done=approved/);

  await page.goto(`${manual.url}/dashboard/plans`);
  assert.match(await page.locator('article.plan.mine').innerText(), /starter[^]*your plan/i);
  await page.goto(`${manual.url}/dashboard/account`);
  assert.match(await page.locator('p.big').first().innerText(), /starter/);
  await shoot(page, 'account-starter');

  // The admin's incident view: the key found by the start of its secret, disabled after a confirmation.
  await ops.goto(`${manual.url}/dashboard/admin/keys?q=${key.slice(0, 11)}`);
  await shoot(ops, 'admin-keys-found');
  await ops.locator('a[href$="/disable"]').click();
  await shoot(ops, 'admin-key-disable-confirm');
  await ops.locator('article form button[type="submit"]').click();
  await ops.waitForURL(/done=disabled/);
  assert.equal(await statusSoon(manual, key, 403), 403);
  await ops.goto(`${manual.url}/dashboard/admin/accounts?q=maker`);
  await ops.locator('table.accounts a').first().click();
  assert.match(await ops.locator('#audit').innerText(), /disabled key[^]*approved the request/);
  await shoot(ops, 'admin-account-audit');
  await ops.goto(`${manual.url}/dashboard/admin/mail`);
  assert.match(await ops.locator('table.mails').innerText(), /maker@example\.com[^]*was approved/);
  await shoot(ops, 'admin-mail-outbox');
  await ops.goto(`${manual.url}/dashboard/admin/settings`);
  await shoot(ops, 'admin-settings');
  await page.goto(`${manual.url}/dashboard/usage`);
  await shoot(page, 'usage-chart');
  await page.close();
  await ops.close();
});

test('Stripe: Checkout → webhook → paid plan → payment failed → 402 and banner → paid → 200', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  // Stripe's own pages cannot be reached from here: stand in for Checkout and the portal.
  await page.route('https://checkout.stripe.com/**', (r) =>
    r.fulfill({ contentType: 'text/html', body: '<h1>Stripe Checkout (stand-in)</h1>' }),
  );
  await page.route('https://billing.stripe.com/**', (r) =>
    r.fulfill({ contentType: 'text/html', body: '<h1>Stripe customer portal (stand-in)</h1>' }),
  );
  const key = await signUp(page, paid, 'payer@example.com');
  await page.goto(`${paid.url}/dashboard/plans`);
  await shoot(page, 'plans-stripe');
  await page.locator('article.plan', { hasText: 'starter' }).locator('button').click();
  await page.waitForURL(/checkout\.stripe\.com\/c\/pay\/cs_test_/);
  const session = stripe.calls.find((c) => c.path === '/v1/checkout/sessions')!;
  assert.equal(session.form.get('line_items[0][price]'), 'price_starter1');
  const account = session.form.get('client_reference_id')!;

  const hook = `${paid.url}/dashboard/billing/stripe/webhook`;
  const checkout = {
    id: 'cs_test_b',
    object: 'checkout.session',
    client_reference_id: account,
    customer: 'cus_B1',
    subscription: 'sub_B1',
    metadata: { account, plan: 'starter' },
    mode: 'subscription',
    payment_status: 'paid',
    status: 'complete',
  };
  assert.equal((await sendWebhook(hook, stripeEvent('checkout.session.completed', checkout), SECRET)).status, 200);
  await page.goto(`${paid.url}/dashboard/plans?done=paid`);
  assert.match(await page.locator('article.plan.mine').innerText(), /starter/i);
  assert.equal(await statusSoon(paid, key, 200), 200);

  const invoice = { id: 'in_B1', object: 'invoice', customer: 'cus_B1', subscription: 'sub_B1' };
  await sendWebhook(hook, stripeEvent('invoice.payment_failed', { ...invoice, status: 'open' }), SECRET);
  assert.equal(await statusSoon(paid, key, 402), 402, 'payment failed: 402');
  await page.goto(`${paid.url}/dashboard/account`);
  const banner = page.locator('section.banner');
  assert.match(await banner.innerText(), /Payment required[^]*Update your card/);
  assert.match(await page.locator('.state').first().innerText(), /payment required/);
  await shoot(page, 'banner-payment-stripe');
  await banner.locator('a[role="button"]').click();
  await page.waitForURL(/\/dashboard\/billing$/);
  await shoot(page, 'billing-stripe');
  await page.locator('form[action$="/billing/portal"] button').click();
  await page.waitForURL(/billing\.stripe\.com/);

  await sendWebhook(hook, stripeEvent('invoice.paid', { ...invoice, status: 'paid' }), SECRET);
  assert.equal(await statusSoon(paid, key, 200), 200, 'paid: 200');
  await page.goto(`${paid.url}/dashboard/account`);
  assert.equal(await page.locator('section.banner').count(), 0);
  await page.close();
});

test('forgot password page', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${manual.url}/dashboard/sign-in?signed-out=1`);
  assert.match(await page.locator('.notice').innerText(), /signed out/);
  await page.click('a[href="/dashboard/forgot"]');
  await page.fill('#f-email', 'maker@example.com');
  await page.click('form button[type="submit"]');
  assert.match(await page.locator('.notice').innerText(), /If an account has the address/);
  await shoot(page, 'forgot-sent');
  await page.close();
});
