// Key checks, query strictness and the error shape on every endpoint.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { startTestServer, type TestServer } from './support/server';
import { ING, P, ingredientId, productId } from './support/fixture';
import { openAdmin } from '../src/access';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const GETS = [
  '/v1/products/search?q=daily',
  '/v1/products?brand=cerave',
  `/v1/products/${productId(P.cerave)}`,
  '/v1/products/barcode/12345678',
  '/v1/ingredients/search?q=glycerin',
  `/v1/ingredients/${ingredientId(ING.glycerin)}`,
];
const batch = (headers: Record<string, string>) =>
  fetch(`${s.url}/v1/products/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ids: [productId(0)] }),
  });

async function assertErrorShape(res: Response, status: number): Promise<any> {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as any;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  assert.equal(body.error, STATUS_CODES[status]);
  assert.equal(typeof body.message, 'string');
  return body;
}

describe('API keys', () => {
  for (const [what, headers] of [
    ['missing', {}],
    ['unknown', { 'x-api-key': 'ck_not-a-real-key' }],
    ['empty', { 'x-api-key': '' }],
  ] as const) {
    it(`answers 403 "Invalid or missing API key" on every /v1 endpoint for a ${what} key`, async () => {
      for (const p of GETS) {
        const body = await assertErrorShape(await s.get(p, headers), 403);
        assert.equal(body.message, 'Invalid or missing API key', p);
      }
      assert.equal((await assertErrorShape(await batch(headers), 403)).message, 'Invalid or missing API key');
    });
  }
  it('checks the key before validating the request', async () => {
    const r = await s.get('/v1/products/search?page=99', {});
    assert.equal(r.status, 403);
  });
  it('needs no key for /health, /openapi.json and /docs', async () => {
    for (const p of ['/health', '/openapi.json', '/docs']) assert.equal((await s.get(p, {})).status, 200, p);
  });
  it('sees a key disabled with the CLI store within a second', async () => {
    const admin = await openAdmin(s.store);
    const k = await admin.createKey('pro');
    const ok = async () => (await s.get('/v1/products/search?q=daily', { 'x-api-key': k.key })).status;
    const deadline = Date.now() + 1500;
    while ((await ok()) !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await ok(), 200, 'a new key works within a second');
    await admin.disableKey(k.id);
    await admin.close();
    const until = Date.now() + 1500;
    while ((await ok()) !== 403 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await ok(), 403);
  });
});

describe('query strictness on every endpoint', () => {
  it('refuses an unknown query parameter, listing the accepted ones', async () => {
    const cases: Array<[string, string[]]> = [
      ['/v1/products/search?q=a&size=5', ['q', 'page']],
      [
        '/v1/products?limit=5',
        [
          'category',
          'brand',
          'origin',
          'fragrance_free',
          'alcohol_free',
          'paraben_free',
          'sulfate_free',
          'silicone_free',
          'has_ingredient',
          'excludes_ingredient',
          'page',
        ],
      ],
      ['/v1/ingredients/search?q=a&sort=name', ['q', 'page']],
    ];
    for (const [p, accepted] of cases) {
      const body = await assertErrorShape(await s.get(p), 400);
      for (const a of accepted) assert.ok(body.message.includes(a), `${p}: ${body.message} lists ${a}`);
    }
    for (const p of [
      `/v1/products/${productId(0)}?x=1`,
      '/v1/products/barcode/12345678?x=1',
      `/v1/ingredients/${ingredientId(0)}?x=1`,
    ]) {
      const body = await assertErrorShape(await s.get(p), 400);
      assert.match(body.message, /"x"/);
    }
    const r = await fetch(`${s.url}/v1/products/batch?x=1`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.pro.key, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [productId(0)] }),
    });
    await assertErrorShape(r, 400);
  });
  it('refuses a parameter given twice', async () => {
    for (const p of [
      '/v1/products/search?q=a&page=1&page=2',
      '/v1/products?brand=a&brand=b',
      '/v1/ingredients/search?q=a&q=a',
    ]) {
      const body = await assertErrorShape(await s.get(p), 400);
      assert.match(body.message, /more than once/);
    }
  });
});

describe('error shape', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    for (const p of ['/nope', '/v1', '/v1/products/search/extra', '/v2/products'])
      await assertErrorShape(await s.get(p), 404);
    await assertErrorShape(await fetch(`${s.url}/v1/products/search?q=a`, { method: 'DELETE' }), 404);
  });
  it('sends a JSON content type and no stack traces on every error', async () => {
    for (const p of ['/v1/products/search', `/v1/products/${productId(99999)}`, '/v1/products/barcode/x']) {
      const res = await s.get(p);
      const text = await res.clone().text();
      assert.doesNotMatch(text, /at .*\.js:\d+|node_modules|Error:/);
      await assertErrorShape(res, res.status);
    }
  });
});
