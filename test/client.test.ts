// The typed client (clients/typescript) against a real server on the sample catalogue:
// every operation returns its typed body, every refusal is one CatalogueApiError with the
// body and headers as sent, and the helpers page, batch and normalise as documented.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  CatalogueApiError,
  CatalogueClient,
  CatalogueClientError,
  normalizeBarcode,
  type LabelAnalysis,
  type Product,
} from '../clients/typescript/src';
import { recordingFetch, refusal, startSampleServer, type SampleServer } from './support/sample-server';

let s: SampleServer;
let pro: string;
let first: { id: string; barcode: string };
before(async () => {
  s = await startSampleServer();
  pro = await s.key('pro');
  const line = zlib
    .gunzipSync(fs.readFileSync(path.resolve(__dirname, '../../data/sample/products.jsonl.gz')))
    .toString('utf8')
    .split('\n')[0];
  const p = JSON.parse(line);
  first = { id: p.id, barcode: p.barcodes[0] };
});
after(async () => {
  await s.close();
});

const client = (opts: { key?: string; rec?: ReturnType<typeof recordingFetch> } = {}) =>
  new CatalogueClient({
    baseUrl: s.url + '/',
    apiKey: opts.key ?? pro,
    fetch: opts.rec?.fetch,
    retry: { baseDelayMs: 1 },
  });

describe('every operation, typed', () => {
  it('getHealth: the served catalogue, with no key', async () => {
    const h = await new CatalogueClient({ baseUrl: s.url }).health();
    const counted = await fetch(`${s.url}/health`).then((r) => r.json());
    assert.deepEqual(h, counted);
    assert.equal(h.status, 'ok');
    assert.ok(h.products > 9000 && h.ingredients > 30000);
  });
  it('searchProducts: ranked summaries and pagination', async () => {
    const list = await client().searchProducts({ q: 'drunk elephant' });
    assert.ok(list.pagination.total > 0);
    assert.ok(list.results.every((r) => r.brand === 'Drunk Elephant'));
    const none = await client().searchProducts({ q: 'zzzqqq' });
    assert.equal(none.pagination.total, 0);
    assert.deepEqual(none.no_match?.terms, [{ term: 'zzzqqq', matches: 0 }]);
  });
  it('filterProducts: filters combine, the free-from filters as booleans', async () => {
    const list = await client().filterProducts({ category: 'haircare', fragrance_free: true, page: 2 });
    assert.equal(list.pagination.page, 2);
    assert.ok(list.results.length > 0 && list.results.every((r) => r.category === 'haircare'));
  });
  it('getProduct: the full payload', async () => {
    const p: Product = await client().getProduct(first.id.toUpperCase());
    assert.equal(p.id, first.id);
    assert.ok(p.ingredients.length > 0 && p.ingredients[0].position === 0);
  });
  it('getProductByBarcode: spaces and dashes are stripped before sending', async () => {
    const spaced = `${first.barcode.slice(0, 1)} ${first.barcode.slice(1, 7)}-${first.barcode.slice(7)}`;
    assert.equal((await client().getProductByBarcode(spaced)).id, first.id);
    assert.equal((await client().getProductByBarcode('0' + first.barcode)).id, first.id);
  });
  it('batchProducts: in order, null for unknown ids, X-Item-Count in the headers', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await client().call('batchProducts', { body: { ids: [first.id, unknown, first.id] } });
    assert.deepEqual(
      res.data.map((p) => p?.id ?? null),
      [first.id, null, first.id],
    );
    assert.equal(res.headers.get('x-item-count'), '3');
  });
  it('searchIngredients and getIngredient', async () => {
    const list = await client().searchIngredients({ q: 'glycerin' });
    assert.equal(list.results[0].name, 'Glycerin');
    const ing = await client().getIngredient(list.results[0].id);
    assert.equal(ing.name, 'Glycerin');
    assert.ok(Array.isArray(ing.functions));
  });
  it('analyzeLabel: entries in label order, joined or unrecognised, with the free-from flags', async () => {
    const a: LabelAnalysis = await client().analyzeLabel(
      'Ingredients: Aqua, Glycerin, Parfum (Fragrance)*, Zzyzx Extract. *Natural',
    );
    assert.deepEqual(
      a.entries.map((e) => e.label_name),
      ['Aqua', 'Glycerin', 'Parfum (Fragrance)', 'Zzyzx Extract'],
    );
    assert.equal(a.contains_fragrance, true);
    assert.deepEqual(a.counts, { entries: 4, recognised: 3, unrecognised: 1 });
    assert.equal(a.entries[3].ingredient, null);
  });
  it('the types refuse what the API refuses (checked by the compiler)', () => {
    const c = client();
    // @ts-expect-error getProduct needs its path parameter
    void c.call('getProduct', {}).catch(() => undefined);
    // @ts-expect-error q is required
    void c.searchProducts({ page: 1 }).catch(() => undefined);
    // @ts-expect-error the free-from filters are booleans, not the words
    void c.filterProducts({ fragrance_free: 'true' }).catch(() => undefined);
    // @ts-expect-error category is one of the categories (any other would match nothing)
    void c.filterProducts({ category: 'Skincare' }).catch(() => undefined);
  });
});

describe('refusals are CatalogueApiError with the body and headers as sent', () => {
  it('400 names the parameter', async () => {
    const err = await refusal(client().searchProducts({ q: '!!!' }));
    assert.deepEqual(err.body(), {
      statusCode: 400,
      error: 'Bad Request',
      message: 'q contains no searchable characters',
    });
    assert.equal(err.kind, 'bad_request');
    const page = await refusal(client().filterProducts({ page: 52 }));
    assert.equal(page.message, 'page must be an integer from 1 to 51');
  });
  it('402 payment required, not retried', async () => {
    const rec = recordingFetch();
    const err = await refusal(client({ key: await s.key('pro', { paymentRequired: true }), rec }).getProduct(first.id));
    assert.equal(err.statusCode, 402);
    assert.equal(err.kind, 'payment_required');
    assert.deepEqual(rec.statuses, [402]);
  });
  it('403 for a bad key and for barcodes on a plan without them, not retried', async () => {
    const rec = recordingFetch();
    const bad = await refusal(client({ key: 'ck_not_a_key', rec }).getProduct(first.id));
    assert.deepEqual(bad.body(), { statusCode: 403, error: 'Forbidden', message: 'Invalid or missing API key' });
    const plan = await refusal(client({ key: await s.key('starter'), rec }).getProductByBarcode(first.barcode));
    assert.equal(plan.statusCode, 403);
    assert.match(plan.message, /barcode/);
    assert.deepEqual(rec.statuses, [403, 403]);
  });
  it('404 echoes the id', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const err = await refusal(client().getProduct(id));
    assert.equal(err.statusCode, 404);
    assert.equal(err.error, 'Not Found');
    assert.match(err.message, new RegExp(id));
  });
  it('429 from a used-up trial is not retried, and carries the headers', async () => {
    const rec = recordingFetch();
    const c = client({ key: await s.key('one-trial-request'), rec });
    const ok = await c.call('getProduct', { path: { id: first.id } });
    assert.equal(ok.headers.get('x-trial-requests-remaining'), '0');
    const err = await refusal(c.getProduct(first.id));
    assert.equal(err.statusCode, 429);
    assert.equal(err.kind, 'trial_used');
    assert.equal(err.retryable, false);
    assert.equal(err.headers.get('content-type')?.startsWith('application/json'), true);
    assert.deepEqual(rec.statuses, [200, 429]);
  });
  it('429 from a monthly ceiling is not retried', async () => {
    const rec = recordingFetch();
    const c = client({ key: await s.key('one-a-month'), rec });
    await c.getProduct(first.id);
    const err = await refusal(c.getProduct(first.id));
    assert.equal(err.kind, 'monthly_limit');
    assert.deepEqual(rec.statuses, [200, 429]);
  });
  it('a barcode that is not 8 to 14 digits is refused before any request', async () => {
    const rec = recordingFetch();
    const err = await refusal(client({ rec }).getProductByBarcode('12-34'));
    assert.ok(err instanceof CatalogueClientError);
    assert.equal(err.code, 'invalid_barcode');
    assert.equal(err.kind, 'invalid_barcode');
    assert.equal(err.statusCode, 0);
    assert.equal(normalizeBarcode(' 0012 3456-78 '), '0012345678');
    assert.throws(() => normalizeBarcode('123456789012345'), CatalogueClientError);
    assert.throws(() => normalizeBarcode('1234567a'), CatalogueApiError);
    assert.deepEqual(rec.statuses, []);
  });
});

describe('helpers', () => {
  it('pages: every page of an unfiltered listing, stopping after page 51 (no request for 52)', async () => {
    const rec = recordingFetch();
    const seen: number[] = [];
    for await (const page of client({ rec }).pages('filterProducts', {})) {
      seen.push(page.pagination.page);
      if (page.pagination.page === 51) assert.equal(page.pagination.has_more, true);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 51 }, (_, i) => i + 1),
    );
    assert.equal(rec.statuses.length, 51);
  });
  it('pages and items: stop at the last page with results, from the page asked', async () => {
    const c = client();
    const total = (await c.searchIngredients({ q: 'sodium' })).pagination.total;
    assert.ok(total > 40 && total < 1020, String(total));
    let n = 0;
    for await (const item of c.items('searchIngredients', { q: 'sodium' })) n += item.name.length > 0 ? 1 : 0;
    assert.equal(n, total);
    const pages = [];
    for await (const page of c.pages('searchIngredients', { q: 'sodium', page: 2 })) pages.push(page.pagination.page);
    assert.deepEqual(
      pages,
      Array.from({ length: Math.ceil(total / 20) - 1 }, (_, i) => i + 2),
    );
  });
  it('batch: any number of ids, 50 a request, in order, at most `concurrency` requests at a time', async () => {
    const ids: string[] = [];
    for await (const p of client().items('filterProducts', { category: 'skincare' }, { truncate: true })) {
      ids.push(p.id);
      if (ids.length === 130) break;
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    const asked = [...ids, unknown, ids[0]];
    const rec = recordingFetch();
    const got = await client({ rec }).batch(asked, { concurrency: 2 });
    assert.deepEqual(
      got.map((p) => p?.id ?? null),
      [...ids, null, ids[0]],
    );
    assert.deepEqual(
      (rec.bodies as { ids: string[] }[]).map((b) => b.ids.length),
      [50, 50, 32],
    );
    assert.deepEqual(
      (rec.bodies as { ids: string[] }[]).flatMap((b) => b.ids),
      asked,
    );
    assert.equal(rec.maxInFlight(), 2);
    assert.deepEqual(await client({ rec }).batch([]), []);
    assert.equal(rec.statuses.length, 3);
  });
  it('batch: a refused request rejects the call with the refusal as sent', async () => {
    const ids = Array.from({ length: 60 }, (_, i) =>
      i === 55 ? 'not-a-uuid' : '00000000-0000-4000-8000-000000000000',
    );
    const err = await refusal(client().batch(ids, { concurrency: 1 }));
    assert.equal(err.message, 'ids[5] must be a uuid (8-4-4-4-12 hexadecimal characters)');
  });
});
