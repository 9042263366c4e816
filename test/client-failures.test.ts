// The typed client where a call does not simply succeed, over real HTTP: a listing cut at
// 1,020 rows is refused up front unless asked for; the free-from filters are booleans and
// category an enumeration; a timeout and the caller's AbortSignal stop a call (its waits
// included) with the client's error; no answer is a CatalogueClientError; a batch refused
// part-way keeps what it fetched; a bad barcode and a missing key are refused unsent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CatalogueApiError,
  CatalogueBatchError,
  CatalogueClient,
  CatalogueClientError,
  CatalogueTruncatedError,
  REACHABLE_ROWS,
  batch,
  type ClientOptions,
} from '../clients/typescript/src';
import { recordingFetch, refusal, startSampleServer, type SampleServer } from './support/sample-server';

let s: SampleServer;
let pro: string;
/** A server that takes every request and never answers. */
let silent: http.Server;
let silentUrl: string;
before(async () => {
  s = await startSampleServer();
  pro = await s.key('pro');
  silent = http.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
after(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await s.close();
});

const client = (opts: Partial<ClientOptions> = {}) =>
  new CatalogueClient({ baseUrl: s.url, apiKey: pro, retry: { baseDelayMs: 1 }, ...opts });

async function clientError(p: Promise<unknown>): Promise<CatalogueClientError> {
  const err = await refusal(p);
  assert.ok(err instanceof CatalogueClientError, String(err));
  assert.equal(err.statusCode, 0);
  assert.equal(err.kind, err.code);
  return err;
}

describe('items(): the cut at 1,020 rows is never silent', () => {
  it('a listing of more than 1,020 results throws a CatalogueTruncatedError after its first page, before yielding', async () => {
    const rec = recordingFetch();
    const total = (await client().filterProducts()).pagination.total;
    assert.ok(total > REACHABLE_ROWS, String(total));
    const got: string[] = [];
    const err = await refusal(
      (async () => {
        for await (const p of client({ fetch: rec.fetch }).items('filterProducts', {})) got.push(p.id);
      })(),
    );
    assert.ok(err instanceof CatalogueTruncatedError);
    assert.equal(err.code, 'truncated');
    assert.equal(err.total, total);
    assert.equal(err.reachable, 1020);
    assert.match(err.message, new RegExp(`${total} results .* first 1020 .* \\{ truncate: true \\}`));
    assert.deepEqual(got, []);
    assert.deepEqual(rec.statuses, [200]);
  });
  it('{ truncate: true } takes the first 1,020 and stops', async () => {
    let n = 0;
    for await (const p of client().items('searchProducts', { q: 'cream' }, { truncate: true })) n += p.id ? 1 : 0;
    const total = (await client().searchProducts({ q: 'cream' })).pagination.total;
    assert.equal(n, Math.min(total, 1020));
  });
  it('a listing of at most 1,020 results is yielded whole, with or without the option', async () => {
    const total = (await client().searchIngredients({ q: 'sodium' })).pagination.total;
    assert.ok(total <= 1020);
    let n = 0;
    for await (const item of client().items('searchIngredients', { q: 'sodium' })) n += item.id ? 1 : 0;
    assert.equal(n, total);
  });
});

describe('filterProducts: booleans and the category enumeration', () => {
  it('fragrance_free: true filters, false filters nothing, category takes the enumeration', async () => {
    const rec = recordingFetch();
    const c = client({ fetch: rec.fetch });
    const all = (await c.filterProducts({ category: 'skincare' })).pagination.total;
    const free = await c.filterProducts({ category: 'skincare', fragrance_free: true, sulfate_free: true });
    const notFiltered = (await c.filterProducts({ category: 'skincare', fragrance_free: false })).pagination.total;
    assert.ok(free.pagination.total > 0 && free.pagination.total < all, `${free.pagination.total} of ${all}`);
    assert.equal(notFiltered, all);
    assert.ok(free.results.every((p) => p.category === 'skincare'));
    const product = await c.getProduct(free.results[0].id);
    assert.equal(product.contains_fragrance, false);
    assert.equal(product.contains_sulfates, false);
  });
});

describe('timeouts and AbortSignal', () => {
  it('timeoutMs: a server that never answers rejects with code timeout', async () => {
    const err = await clientError(client({ baseUrl: silentUrl, timeoutMs: 200 }).getProduct(crypto.randomUUID()));
    assert.equal(err.code, 'timeout');
    assert.match(err.message, /no answer within 200 ms/);
    assert.ok(err instanceof CatalogueApiError);
    assert.equal(err.retryable, false);
  });
  it('a per-call timeoutMs wins over the client’s, and bounds the retry waits too', async () => {
    const retries: number[] = [];
    const down = await startUnavailable();
    try {
      const c = client({
        baseUrl: down.url,
        timeoutMs: false,
        retry: {
          attempts: 10,
          baseDelayMs: 60_000,
          maxElapsedMs: 600_000,
          onRetry: ({ attempt }) => retries.push(attempt),
        },
      });
      const err = await clientError(c.health({ timeoutMs: 300 }));
      assert.equal(err.code, 'timeout');
      assert.deepEqual(retries, [1], 'one request, then the wait the timeout cut short');
    } finally {
      await down.close();
    }
  });
  it('the caller’s AbortSignal stops a call in flight with code aborted and its reason as cause', async () => {
    const controller = new AbortController();
    const call = client({ baseUrl: silentUrl }).getProduct(crypto.randomUUID(), { signal: controller.signal });
    setImmediate(() => controller.abort(new Error('user left')));
    const err = await clientError(call);
    assert.equal(err.code, 'aborted');
    assert.equal((err.cause as Error).message, 'user left');
  });
  it('an already aborted signal sends nothing', async () => {
    const rec = recordingFetch();
    const err = await clientError(
      client({ fetch: rec.fetch }).searchProducts({ q: 'serum' }, { signal: AbortSignal.abort() }),
    );
    assert.equal(err.code, 'aborted');
    assert.deepEqual(rec.statuses, []);
  });
  it('an abort stops items() and batch() too', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await clientError(
      (async () => {
        for await (const p of client().items('searchProducts', { q: 'serum' }, { signal: controller.signal })) void p;
      })(),
    );
    assert.equal(err.code, 'aborted');
    const b = await refusal(client().batch([crypto.randomUUID()], { signal: controller.signal }));
    assert.ok(b instanceof CatalogueBatchError);
    assert.equal(b.kind, 'aborted');
  });
});

describe('no answer', () => {
  it('a refused connection is a CatalogueClientError with code network, retryable, and caught as CatalogueApiError', async () => {
    const closed = await freePort();
    const retries: string[] = [];
    const c = new CatalogueClient({
      baseUrl: `http://127.0.0.1:${closed}`,
      retry: { attempts: 3, baseDelayMs: 1, onRetry: ({ error }) => retries.push(error.kind) },
    });
    const err = await clientError(c.health());
    assert.equal(err.code, 'network');
    assert.equal(err.retryable, true);
    assert.match(err.message, /GET \/health: no answer \(ECONNREFUSED/);
    assert.ok(err.cause instanceof TypeError, 'the fetch error is kept as the cause');
    assert.deepEqual(retries, ['network', 'network']);
  });
  it('an answer that is not JSON is code bad_response, not retried', async () => {
    const html = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const retries: number[] = [];
      const c = new CatalogueClient({
        baseUrl: `http://127.0.0.1:${(html.address() as AddressInfo).port}`,
        retry: { baseDelayMs: 1, onRetry: ({ attempt }) => retries.push(attempt) },
      });
      const err = await clientError(c.health());
      assert.equal(err.code, 'bad_response');
      assert.deepEqual(retries, []);
    } finally {
      html.closeAllConnections();
      await new Promise((resolve) => html.close(resolve));
    }
  });
});

describe('batch(): a refusal part-way keeps what was fetched', () => {
  it('one request at a time: the chunks before the refused one are kept, the rest are listed as unfetched', async () => {
    const ids = (await client().filterProducts({ category: 'skincare' })).results.map((p) => p.id);
    const asked = [...Array.from({ length: 100 }, (_, i) => ids[i % ids.length]), 'not-a-uuid', ids[0]];
    const rec = recordingFetch();
    const err = await refusal(client({ fetch: rec.fetch }).batch(asked, { concurrency: 1 }));
    assert.ok(err instanceof CatalogueBatchError);
    assert.equal(err.statusCode, 400);
    assert.equal(err.kind, 'bad_request');
    assert.equal(err.message, 'ids[0] must be a uuid (8-4-4-4-12 hexadecimal characters)');
    assert.ok(err.cause instanceof CatalogueApiError);
    assert.equal(err.results.length, asked.length);
    assert.deepEqual(
      err.results.slice(0, 100).map((p) => p?.id),
      asked.slice(0, 100),
    );
    assert.deepEqual(err.results.slice(100), [undefined, undefined]);
    assert.deepEqual(err.unfetchedIds, ['not-a-uuid', ids[0]]);
    assert.deepEqual(rec.statuses, [200, 200, 400]);
  });
  it('requests in flight when one is refused finish and are kept; none is started after', async () => {
    const ids = (await client().filterProducts({ category: 'skincare' })).results.map((p) => p.id);
    const chunk = (bad: boolean) =>
      Array.from({ length: 50 }, (_, i) => (bad && i === 7 ? 'nope' : ids[i % ids.length]));
    const asked = [...chunk(true), ...chunk(false), ...chunk(false), ...chunk(false), ...chunk(false)];
    const rec = recordingFetch();
    const real = client({ fetch: rec.fetch });
    // The good answers are held until the refusal has reached batch(), so they are surely in flight then.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = {
      batchProducts: async (chunkIds: string[]) => {
        if (chunkIds.includes('nope')) return real.batchProducts(chunkIds).finally(() => setTimeout(open, 0));
        const answer = await real.batchProducts(chunkIds);
        await gate;
        return answer;
      },
    };
    const err = await refusal(batch(held, asked, { concurrency: 3 }));
    assert.ok(err instanceof CatalogueBatchError);
    assert.deepEqual(rec.statuses.slice().sort(), [200, 200, 400]);
    assert.deepEqual(
      err.results.map((p) => p?.id),
      [
        ...chunk(true).map(() => undefined),
        ...chunk(false),
        ...chunk(false),
        ...chunk(false).map(() => undefined),
        ...chunk(false).map(() => undefined),
      ],
    );
    assert.deepEqual(err.unfetchedIds, [...chunk(true), ...chunk(false), ...chunk(false)]);
    // the caller can finish the job with the ids left
    const rest = await client().batch(err.unfetchedIds.filter((id) => id !== 'nope'));
    assert.equal(rest.length, 149);
  });
});

describe('refused before sending', () => {
  it('a malformed barcode is a CatalogueClientError (code invalid_barcode), caught as CatalogueApiError', async () => {
    const rec = recordingFetch();
    const err = await clientError(client({ fetch: rec.fetch }).getProductByBarcode('3 5229-30'));
    assert.equal(err.code, 'invalid_barcode');
    assert.deepEqual(rec.statuses, []);
  });
  it('apiKey: process.env.UNSET is accepted; /v1 calls then reject with code no_api_key, unsent; /health works', async () => {
    const rec = recordingFetch();
    const c = new CatalogueClient({ baseUrl: s.url, apiKey: process.env.CATALOGUE_KEY_NEVER_SET, fetch: rec.fetch });
    const err = await clientError(c.getProduct(crypto.randomUUID()));
    assert.equal(err.code, 'no_api_key');
    assert.match(err.message, /pass apiKey to new CatalogueClient/);
    assert.deepEqual(rec.statuses, []);
    assert.equal((await c.health()).status, 'ok');
    assert.equal(
      (await clientError(new CatalogueClient({ baseUrl: s.url, apiKey: '' }).getProduct('x'))).code,
      'no_api_key',
    );
  });
});

/** A port nothing listens on (taken from the system, then released). */
async function freePort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** A server whose every answer is the API's 503 (access cannot be verified). */
async function startUnavailable(): Promise<{ url: string; close(): Promise<void> }> {
  const srv = http.createServer((_req, res) =>
    res
      .writeHead(503, { 'content-type': 'application/json' })
      .end('{"statusCode":503,"error":"Service Unavailable","message":"Unable to verify API access, retry shortly"}'),
  );
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: async () => {
      srv.closeAllConnections();
      await new Promise((resolve) => srv.close(resolve));
    },
  };
}
