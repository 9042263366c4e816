// The OpenAPI document passes Redocly's recommended rules with no error and no warning,
// and every operation keeps its documented, stable operationId (the client's method names).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestServer, type TestServer } from './support/server';

let s: TestServer;

let doc: any;
before(async () => {
  s = await startTestServer();
  doc = await (await s.get('/openapi.json', {})).json();
});
after(async () => {
  await s.close();
});

async function lint(document: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
}

/** The stable operationIds, documented in clients/typescript/README.md. */
const OPERATION_IDS = {
  'GET /health': 'getHealth',
  'GET /v1/products/search': 'searchProducts',
  'GET /v1/products': 'filterProducts',
  'GET /v1/products/{id}': 'getProduct',
  'GET /v1/products/barcode/{barcode}': 'getProductByBarcode',
  'POST /v1/products/batch': 'batchProducts',
  'GET /v1/ingredients/search': 'searchIngredients',
  'GET /v1/ingredients/{id}': 'getIngredient',
  'POST /v1/labels/analyze': 'analyzeLabel',
};

describe("GET /openapi.json under Redocly's recommended rules", () => {
  it('reports no problem at all', async () => {
    assert.deepEqual(await lint(doc), []);
  });
  it('would report a missing operationId, server list or tag description (the lint can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/health'].get.operationId;
    delete broken.servers;
    delete broken.tags[0].description;
    const rules = (await lint(broken)).map((p) => p.split(':')[0]).sort();
    assert.deepEqual(rules, ['error no-empty-servers', 'warn operation-operationId', 'warn tag-description']);
  });
  it('would report an example answer that breaks its schema (the examples are checked)', async () => {
    const broken = structuredClone(doc);
    broken.paths['/v1/products/{id}'].get.responses['200'].content['application/json'].example.brand = 7;
    const rules = new Set((await lint(broken)).map((p) => p.split(':')[0]));
    assert.deepEqual([...rules], ['warn no-invalid-media-type-examples']);
  });
  it('gives every operation its documented operationId', () => {
    const found: Record<string, string> = {};
    for (const [p, item] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) found[`${method.toUpperCase()} ${p}`] = op.operationId ?? '';
    }
    for (const [op, id] of Object.entries(OPERATION_IDS)) assert.equal(found[op], id, op);
  });
  it('names the licence and a server relative to the document', () => {
    assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
    assert.equal(doc.servers[0].url, '/');
  });
  it('documents the 4xx /health can answer, and it is real: 431 for headers over 16 KiB', async () => {
    assert.ok(doc.paths['/health'].get.responses['431']);
    const url = new URL(s.url + '/health');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        { host: url.hostname, port: url.port, path: '/health', headers: { 'x-padding': 'a'.repeat(17 * 1024) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
    });
    assert.equal(status, 431);
  });
});
