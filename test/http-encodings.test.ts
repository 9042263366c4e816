// Compressed product answers: the form each Accept-Encoding gets, byte-exact against the
// JSON answer, with Vary on every product answer and identity everywhere else.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './support/server';
import { P, productId } from './support/fixture';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

async function get(url: string, accept?: string, method: 'GET' | 'POST' = 'GET', body?: object) {
  const headers: Record<string, string> = { 'x-api-key': s.keys.pro.key };
  if (accept !== undefined) headers['accept-encoding'] = accept;
  const res = await s.server.app.inject({ method, url, headers, payload: body });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

function decoded(r: { headers: Record<string, unknown>; bytes: Buffer }): Buffer {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(r.bytes);
  assert.equal(encoding, undefined);
  return r.bytes;
}

const PATHS = {
  'by id': `/v1/products/${productId(P.caudalie)}`,
  'by barcode': '/v1/products/barcode/03522930003045',
};

for (const [what, path] of Object.entries(PATHS)) {
  describe(`product ${what}`, () => {
    it('sends the JSON as is, with Vary, to a client that sends no Accept-Encoding', async () => {
      const r = await get(path);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], undefined);
      assert.equal(r.headers.vary, 'Accept-Encoding');
      assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(JSON.parse(r.bytes.toString()).id, productId(P.caudalie));
    });

    it('sends the form each Accept-Encoding prefers, byte-identical once decoded', async () => {
      const plain = (await get(path)).bytes;
      const cases: Array<[string, string | undefined]> = [
        ['gzip', 'gzip'],
        ['gzip, deflate, br', 'gzip'],
        ['br;q=1, gzip;q=0.5', 'gzip'],
        ['GZIP', 'gzip'],
        ['x-gzip', undefined],
        ['*', 'gzip'],
        ['*;q=0.5', 'gzip'],
        ['gzip;q=0, br', undefined],
        ['br', undefined],
        ['deflate', undefined],
        ['identity', undefined],
        ['', undefined],
      ];
      for (const [accept, expected] of cases) {
        const r = await get(path, accept);
        assert.equal(r.status, 200, accept);
        assert.equal(r.headers['content-encoding'], expected, accept);
        assert.equal(r.headers.vary, 'Accept-Encoding', accept);
        assert.equal(Number(r.headers['content-length']), r.bytes.length, accept);
        if (expected !== undefined) assert.ok(r.bytes.length < plain.length, `${accept}: smaller than the JSON`);
        assert.deepEqual(decoded(r), plain, accept);
      }
    });
  });
}

describe('answers that are not single products', () => {
  it('a 404 for a product is JSON as is, even when gzip is accepted', async () => {
    const r = await get('/v1/products/00000000-0000-4000-8000-000000000000', 'gzip, br');
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(r.bytes.toString()).statusCode, 404);
  });

  it('batches, searches and ingredients are sent as is (they are assembled per request)', async () => {
    const batch = await get('/v1/products/batch', 'gzip, br', 'POST', { ids: [productId(P.caudalie)] });
    assert.equal(batch.status, 200);
    assert.equal(batch.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(batch.bytes.toString())[0].id, productId(P.caudalie));
    const search = await get('/v1/products/search?q=caudalie', 'gzip, br');
    assert.equal(search.status, 200);
    assert.equal(search.headers['content-encoding'], undefined);
  });
});
