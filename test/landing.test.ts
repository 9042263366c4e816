// GET / over real HTTP: a small HTML page linking to the dashboard (where it is served), the
// API reference, the OpenAPI document and /health, under a CSP that allows only its own inline
// style; every other unknown path keeps the JSON 404 (api-spec.md 2.9); the page is not in the
// OpenAPI document; and in a real browser at a phone's width it applies its style with no CSP
// violation, fits the screen and each of its links answers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './support/server';
import { startDashboard, type DashboardServer } from './support/dashboard';
import { browserSkip, launchChromium } from './support/browser';
import { LANDING_CSP, landingHtml } from '../src/http/landing';

const skip = browserSkip('landing', 'the landing page');

let plain: TestServer;
let withDashboard: DashboardServer;
let ownPort: DashboardServer;
let browser: Browser | undefined;
before(async () => {
  plain = await startTestServer();
  withDashboard = await startDashboard({ signup: 'open' });
  ownPort = await startDashboard({}, { dashboardPort: 0 });
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await plain.close();
  await withDashboard.close();
  await ownPort.close();
});

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe('GET /', () => {
  it('answers a small HTML page with links to the dashboard, /docs, /openapi.json and /health', async () => {
    const res = await fetch(`${withDashboard.url}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), LANDING_CSP);
    assert.match(LANDING_CSP, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.doesNotMatch(html, /<script/);
    assert.deepEqual(hrefs(html), ['/dashboard', '/docs', '/openapi.json', '/health']);
    for (const href of hrefs(html)) assert.equal((await fetch(withDashboard.url + href)).status, 200, href);
    const head = await fetch(`${withDashboard.url}/`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/html; charset=utf-8');
  });
  it('links no dashboard where none is served, and names the port of a dashboard on a port of its own', async () => {
    const html = await (await fetch(`${plain.url}/`)).text();
    assert.deepEqual(hrefs(html), ['/docs', '/openapi.json', '/health']);
    const own = await (await fetch(`${ownPort.url}/`)).text();
    const port = new URL(ownPort.server.dashboardUrl!).port;
    assert.match(own, new RegExp(`Developer dashboard: on port ${port} of this host`));
    assert.deepEqual(hrefs(own), ['/docs', '/openapi.json', '/health']);
  });
  it('escapes what it prints', () => {
    assert.match(landingHtml({ path: '/x"><script>' }), /href="\/x&quot;&gt;&lt;script&gt;"/);
  });
  it('leaves every other unknown path, and other methods on /, the JSON 404 of the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/index.html'],
      ['GET', '/v2'],
      ['GET', '//'],
      ['POST', '/'],
      ['DELETE', '/'],
    ]) {
      const res = await fetch(plain.url + path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(String(res.headers.get('content-type')), /^application\/json/);
      assert.deepEqual(await res.json(), {
        statusCode: 404,
        error: 'Not Found',
        message: `Route ${method} ${path} not found`,
      });
    }
  });
  it('is not an operation of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${plain.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.equal(doc.paths['/'], undefined);
  });
});

describe('GET / in a browser', { skip }, () => {
  it("at a phone's width: its style applies with no CSP violation, it fits the screen, and each link answers", async () => {
    const context = await browser!.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    const res = await page.goto(`${withDashboard.url}/`);
    assert.equal(res?.status(), 200);
    const look = await page.evaluate<{ fontSize: string; scrollWidth: number; innerWidth: number }>(
      '({ fontSize: getComputedStyle(document.body).fontSize, scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    assert.equal(look.fontSize, '17px', 'the inline style applies (a CSP block would leave 16px)');
    assert.ok(look.scrollWidth <= look.innerWidth, JSON.stringify(look));
    assert.deepEqual(
      console.filter((c) => /Content Security Policy/i.test(c)),
      [],
    );
    for (const name of ['Developer dashboard', 'API reference', 'OpenAPI 3.1 document', 'Health']) {
      await page.goto(`${withDashboard.url}/`);
      const [answer] = await Promise.all([page.waitForNavigation(), page.getByRole('link', { name }).click()]);
      assert.equal(answer?.status(), 200, name);
    }
    await context.close();
  });
});
