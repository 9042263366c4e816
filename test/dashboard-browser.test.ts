// The dashboard in a real headless browser (Debian's chromium via playwright-core), as an app
// builder and an operator use it: open sign-up → a key (its secret copied from the page) → calls
// to /v1 with it → the usage chart and table show them → a roll with a grace period, its button
// pressed twice (both secrets work, then only the new one, on the server's injected clock) →
// disable → 403; and an admin changing the account's plan and setting payment required (402)
// and lifting it. Every main page is saved as a screenshot at desktop and phone width under
// var/screenshots/. No page may log a script error or a CSP violation. Skipped, with a message,
// when /usr/bin/chromium is absent outside CI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { packageRoot } from '../src/shared/package-root';
import { ADMIN, outboxMailbox, startDashboard, type DashboardServer } from './support/dashboard';
import { productId } from './support/fixture';
import { browserSkip, launchChromium } from './support/browser';

const skip = browserSkip('dashboard-browser', 'the dashboard');

const SHOTS = path.join(packageRoot(), 'var', 'screenshots');
const BILLING =
  'Pay by bank transfer to IBAN DE00 1234 5678 9000, quoting your account id.\n<script>alert("x")</script> "quoted"';

let t: DashboardServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  t = await startDashboard({ signup: 'open', signupPlan: 'trial', billingText: BILLING });
  browser = await launchChromium();
  fs.mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await t?.close();
});

/** A page that records script errors and CSP violations. */
async function newPage(problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => {
    // A page answered 4xx is logged as a failed resource: those are checked by their status instead.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'document' && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  return page;
}

/** The page as it is now, at desktop and at phone width (375 px). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(50);
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
}

const api = (key: string, p = `/v1/products/${productId(0)}`) => fetch(t.url + p, { headers: { 'x-api-key': key } });

async function statusSoon(key: string, want: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < 40 && status !== want; i++) {
    status = (await api(key)).status;
    if (status !== want) await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

test(
  'an app builder signs up, makes a key, sees its calls, rolls it with a grace period and disables it',
  { skip },
  async () => {
    const problems: string[] = [];
    const page = await newPage(problems);
    await page.goto(`${t.url}/dashboard/sign-in`);
    await shoot(page, 'sign-in');
    await page.goto(`${t.url}/dashboard/sign-up`);
    await page.fill('#f-email', 'builder@example.com');
    await page.fill('#f-password', 'short');
    await page.fill('#f-confirm', 'short');
    await page.click('button[type=submit]');
    assert.match(await page.locator('#e-password').innerText(), /at least 10 characters/);
    await shoot(page, 'sign-up-errors');
    await page.fill('#f-password', 'a good long password');
    await page.fill('#f-confirm', 'a good long password');
    await page.click('button[type=submit]');
    assert.match(await page.locator('p.notice').innerText(), /Check your mail/);
    await shoot(page, 'sign-up-check-mail');
    await page.goto(await outboxMailbox(t.store)('builder@example.com'));
    assert.match(await page.locator('h1').innerText(), /Address confirmed/);
    await page.click('article footer a[href="/dashboard/sign-in"]');
    await page.fill('#f-email', 'builder@example.com');
    await page.fill('#f-password', 'a good long password');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dashboard\/account$/);
    await page.goto(`${t.url}/dashboard/keys`);

    await page.fill('#f-name', 'my <b>app</b>');
    await page.click('form.create button[type=submit]');
    const first = (await page.locator('#secret-value').innerText()).trim();
    assert.match(first, /^ck_[A-Za-z0-9_-]{43}$/);
    assert.match(await page.locator('#curl').innerText(), new RegExp(`x-api-key: ${first}`));
    assert.ok(await page.locator('button[data-copy]').first().isVisible(), 'the copy button shows when script runs');
    await shoot(page, 'key-created');

    for (const q of ['serum', 'cream', 'oil'])
      assert.equal((await api(first, `/v1/products/search?q=${q}`)).status, 200);

    await page.goto(`${t.url}/dashboard/usage`);
    await page.locator('#usage-chart canvas').first().waitFor();
    assert.equal(await page.locator('table.usage tbody tr').count(), 1);
    assert.match(await page.locator('table.usage tbody tr').first().innerText(), /\b3\b/);
    await shoot(page, 'usage');

    await page.goto(`${t.url}/dashboard/keys`);
    assert.match(await page.locator('table.keys').innerText(), /my <b>app<\/b>/, 'a key name is text, not markup');
    assert.equal(await page.locator('table.keys b').count(), 0);
    await page.locator('details.roll summary').first().click();
    await shoot(page, 'keys');
    await page.locator('details.roll input[value="1h"]').check();
    // A double press, the second while the first is on its way (its answer held back 400 ms): one roll.
    await page.route('**/roll', async (route) => {
      const response = await route.fetch();
      await new Promise((r) => setTimeout(r, 400));
      await route.fulfill({ response }).catch(() => {}); // a request the browser gave up
    });
    const rollButton = page.locator('details.roll form[action$="/roll"] button');
    await rollButton.scrollIntoViewIfNeeded(); // the mouse presses inside the viewport only
    const box = (await rollButton.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(100);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('#secret-value').waitFor();
    await page.unroute('**/roll');
    const second = (await page.locator('#secret-value').innerText()).trim();
    assert.notEqual(second, first);
    assert.equal(await statusSoon(second, 200), 200, 'the new secret works');
    assert.equal((await api(first)).status, 200, 'the old one during the grace period');
    t.clock.offset += 3_600_000;
    assert.equal((await api(first)).status, 403, 'the old one after it');
    assert.equal((await api(second)).status, 200);

    await page.goto(`${t.url}/dashboard/keys`);
    await page.waitForURL(/\/dashboard\/sign-in$/); // an hour unused: the session has ended (idle timeout)
    await page.fill('#f-email', 'builder@example.com');
    await page.fill('#f-password', 'a good long password');
    await page.click('main form button[type=submit]');
    await page.waitForURL(/\/dashboard\/account$/);
    await page.goto(`${t.url}/dashboard/keys`);
    await page.fill('#f-name', 'second app');
    await page.click('form.create button[type=submit]');
    const other = (await page.locator('#secret-value').innerText()).trim();

    await page.goto(`${t.url}/dashboard/playground`);
    await page.click('main form button[type=submit]');
    await page.locator('#result table').waitFor();
    assert.match(await page.locator('#result').innerText(), /Niacinamide/i);
    await shoot(page, 'playground');

    await page.goto(`${t.url}/dashboard/keys`);
    const row = page.locator('table.keys tbody tr', { hasText: 'my <b>app</b>' });
    await row.locator('details.roll summary').click();
    await row.locator('a[href$="/disable"]').click();
    await page.waitForURL(/\/disable$/);
    assert.match(await page.locator('h1').innerText(), /Disable this key\?/);
    assert.equal((await api(second)).status, 200, 'asking to disable changes nothing until confirmed');
    await shoot(page, 'key-disable-confirm');
    await page.locator('form[action$="/disable"] button').click();
    await page.waitForURL(/\/dashboard\/keys$/);
    assert.equal(await statusSoon(second, 403), 403, 'a disabled key is refused');
    assert.equal((await api(other)).status, 200, 'the other key still works');

    await page.goto(`${t.url}/dashboard/account`);
    await shoot(page, 'account');
    await page.goto(`${t.url}/dashboard/password`);
    await shoot(page, 'password');
    assert.deepEqual(problems, []);

    // The operator's side, in a browser of its own.
    const adminProblems: string[] = [];
    const admin = await newPage(adminProblems);
    await admin.goto(`${t.url}/dashboard/sign-in`);
    await admin.fill('#f-email', ADMIN.email);
    await admin.fill('#f-password', ADMIN.password);
    await admin.click('main form button[type=submit]');
    await admin.waitForURL(/\/dashboard\/account$/);
    await admin.goto(`${t.url}/dashboard/admin/accounts`);
    await shoot(admin, 'admin-accounts');
    await admin.click('text=builder@example.com');
    await admin.selectOption('#f-plan', 'starter');
    await admin.click('form[action$="/plan"] button');
    assert.match(await admin.locator('.notice').innerText(), /plan starter/);
    await admin.click('form[action$="/payment"] button');
    assert.match(await admin.locator('.notice').innerText(), /402/);
    await shoot(admin, 'admin-account');
    assert.equal(await statusSoon(other, 402), 402, 'payment required reaches the API');

    await page.goto(`${t.url}/dashboard/account`);
    assert.match(await page.locator('section.banner').innerText(), /Payment required[^]*How to pay/);
    assert.doesNotMatch(await page.locator('.state').innerText(), /active/);
    assert.match(await page.locator('.billing-text').innerText(), /<script>alert\("x"\)<\/script> "quoted"/);
    await shoot(page, 'account-payment-required');

    await admin.click('form[action$="/payment"] button');
    assert.match(await admin.locator('.notice').innerText(), /lifted/);
    assert.equal(await statusSoon(other, 200), 200, 'lifted');
    await admin.goto(`${t.url}/dashboard/admin/usage`);
    assert.match(await admin.locator('main').innerText(), /builder|acct_/);
    await shoot(admin, 'admin-usage');
    await admin.goto(`${t.url}/dashboard/admin/settings`);
    await shoot(admin, 'admin-settings');
    assert.deepEqual(adminProblems, []);
  },
);
