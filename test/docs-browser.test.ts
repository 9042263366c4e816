// The interactive API reference (/docs) in a real headless browser (Debian's chromium
// via playwright-core): every operation renders, and "Try it out" with a key authorized
// gets a 200. Skipped, with a message, when /usr/bin/chromium is absent outside CI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './support/server';
import { P, productId } from './support/fixture';
import { browserSkip, launchChromium } from './support/browser';

const skip = browserSkip('docs-browser', '/docs');

const GETS = [
  '/health',
  '/v1/products/search',
  '/v1/products',
  '/v1/products/{id}',
  '/v1/products/barcode/{barcode}',
  '/v1/ingredients/search',
  '/v1/ingredients/{id}',
];
/** The nine operations and the HEAD twin of each GET. */
const OPERATIONS = [
  ...GETS.map((p) => `GET ${p}`),
  ...GETS.map((p) => `HEAD ${p}`),
  'POST /v1/labels/analyze',
  'POST /v1/products/batch',
];

let t: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  t = await startTestServer();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test(
  'the API reference renders every operation, and "Try it out" with an authorized key answers 200',
  { skip },
  async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${t.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const rendered = await page
      .locator('.opblock .opblock-summary')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            `${e.querySelector('.opblock-summary-method')?.textContent?.trim()} ${e.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? e.querySelector('.opblock-summary-path')?.textContent?.trim()}`,
        ),
      );
    assert.deepEqual([...rendered].sort(), [...OPERATIONS].sort());

    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(t.keys.pro.key);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done, .modal-ux .close-modal').first().click();

    const op = page
      .locator('.opblock.opblock-get')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/v1/products/{id}"]') });
    await op.locator('.opblock-summary').click();
    const tryOut = op.locator('button.try-out__btn');
    if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
    await op.locator('tr[data-param-name="id"] input').fill(productId(P.caudalie));
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.textContent())?.trim(), '200');
    assert.match(await op.locator('.live-responses-table').first().innerText(), /Vinoperfect Radiance Serum/);
    assert.deepEqual(pageErrors, []);
  },
);
