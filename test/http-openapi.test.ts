// The OpenAPI document describes the service it is served by: every operation, and
// real responses of every operation validate against the schemas it publishes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { startTestApp, type TestServer } from './support/server';
import { ING, P, ingredientId, productId } from './support/fixture';

let s: TestServer;
let doc: any;
before(async () => {
  s = await startTestApp();
  doc = await (await s.get('/openapi.json', {})).json();
});
after(async () => {
  await s.close();
});

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
function schemaFor(path: string, method: string, status: number): object {
  const op = doc.paths[path][method];
  assert.ok(op, `${method} ${path} is documented`);
  const res = op.responses[String(status)];
  assert.ok(res, `${method} ${path} documents ${status}`);
  // The schema, with the document's components beside it for its $refs (#/components/schemas/ErrorBody).
  return { ...res.content['application/json'].schema, components: doc.components };
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document, version 1.0.0, listing the nine operations and the HEAD of each GET', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    const ops = Object.entries(doc.paths)
      .flatMap(([p, v]: [string, any]) => Object.keys(v).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    const gets = [
      '/health',
      '/v1/ingredients/search',
      '/v1/ingredients/{id}',
      '/v1/products',
      '/v1/products/barcode/{barcode}',
      '/v1/products/search',
      '/v1/products/{id}',
    ];
    assert.deepEqual(
      ops,
      [
        ...gets.map((p) => `GET ${p}`),
        ...gets.map((p) => `HEAD ${p}`),
        'POST /v1/labels/analyze',
        'POST /v1/products/batch',
      ].sort(),
    );
  });
  it('documents the label analysis as operationId analyzeLabel, tag labels, with its body', () => {
    const op = doc.paths['/v1/labels/analyze'].post;
    assert.equal(op.operationId, 'analyzeLabel');
    assert.deepEqual(op.tags, ['labels']);
    assert.deepEqual(op.requestBody.content['application/json'].schema.required, ['text']);
    assert.equal(op.requestBody.content['application/json'].schema.properties.text.maxLength, 100000);
  });
  it('declares the x-api-key scheme for /v1 and none for /health', () => {
    assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
    assert.deepEqual(doc.paths['/health'].get.security, []);
  });
  it('documents the query parameters each operation accepts', () => {
    const params = (p: string) =>
      doc.paths[p].get.parameters
        .filter((x: any) => x.in === 'query')
        .map((x: any) => x.name)
        .sort();
    assert.deepEqual(params('/v1/products/search'), ['page', 'q']);
    assert.deepEqual(params('/v1/products'), [
      'alcohol_free',
      'brand',
      'category',
      'excludes_ingredient',
      'fragrance_free',
      'has_ingredient',
      'origin',
      'page',
      'paraben_free',
      'silicone_free',
      'sulfate_free',
    ]);
  });
});

describe('responses match the published schemas', () => {
  const cases: Array<[string, string, string, number, string?]> = [
    ['/health', '/health', 'get', 200],
    ['/v1/products/search?q=daily', '/v1/products/search', 'get', 200],
    ['/v1/products/search?q=zzzz', '/v1/products/search', 'get', 200],
    ['/v1/products?category=haircare', '/v1/products', 'get', 200],
    ['/v1/products?category=none', '/v1/products', 'get', 200],
    [`/v1/products/${productId(P.caudalie)}`, '/v1/products/{id}', 'get', 200],
    [`/v1/products/${productId(P.nobrand)}`, '/v1/products/{id}', 'get', 200],
    [`/v1/products/${productId(99999)}`, '/v1/products/{id}', 'get', 404],
    ['/v1/products/barcode/12345678', '/v1/products/barcode/{barcode}', 'get', 200],
    ['/v1/products/barcode/1', '/v1/products/barcode/{barcode}', 'get', 400],
    ['/v1/ingredients/search?q=sodium', '/v1/ingredients/search', 'get', 200],
    ['/v1/ingredients/search?q=qqqq', '/v1/ingredients/search', 'get', 200],
    [`/v1/ingredients/${ingredientId(ING.glycerin)}`, '/v1/ingredients/{id}', 'get', 200],
  ];
  for (const [url, path, method, status] of cases) {
    it(`${url} → ${status}`, async () => {
      const res = await s.get(url);
      assert.equal(res.status, status);
      const validate = ajv.compile(schemaFor(path, method, status));
      const body = await res.json();
      assert.ok(validate(body), JSON.stringify(validate.errors));
    });
  }
  it('POST /v1/products/batch → 200', async () => {
    const res = await s.fetch(`/v1/products/batch`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.pro.key, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [productId(0), productId(99999)] }),
    });
    const validate = ajv.compile(schemaFor('/v1/products/batch', 'post', 200));
    assert.ok(validate(await res.json()), JSON.stringify(validate.errors));
  });
  it('POST /v1/labels/analyze → 200', async () => {
    const res = await s.fetch(`/v1/labels/analyze`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.pro.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        text: 'Shade 1:\nAqua, Glycerin, Niacinamide (5%), Unobtainium. May contain: Parfum\n*Organic',
      }),
    });
    const validate = ajv.compile(schemaFor('/v1/labels/analyze', 'post', 200));
    assert.ok(validate(await res.json()), JSON.stringify(validate.errors));
  });
  it('a response that breaks the schema is caught (the check can fail)', () => {
    const validate = ajv.compile(schemaFor('/v1/products/{id}', 'get', 200));
    assert.equal(validate({ id: 'x', brand: 1 }), false);
  });
});

describe('GET /docs', () => {
  it('serves the interactive API reference page', async () => {
    const res = await s.get('/docs', {});
    assert.equal(res.status, 200);
    assert.match(await res.text(), /swagger-ui/i);
  });
});
