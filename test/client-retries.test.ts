// The client retries only what can succeed, against real servers: a 429 from the
// per-second rate (the server's clock is moved a second on each retry, so the next
// window is certain), a 503 (an access store that is unreachable) and a network failure
// (a connection reset before any answer); it stops after its attempts or its time budget,
// and backs off exponentially with jitter.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { CatalogueClient, backoffDelay, type ErrorKind } from '../clients/typescript/src';
import { startServer, type RunningServer } from '../src/server';
import { recordingFetch, refusal, startSampleServer, type SampleServer } from './support/sample-server';

/** A key of the right form, so the server must ask its (unreachable) store about it. */
const WELL_FORMED_KEY = `ck_${'A'.repeat(43)}`;
let s: SampleServer;
let down: RunningServer;
let id: string;
before(async () => {
  s = await startSampleServer();
  down = await startServer({
    catalogue: s.catalogue,
    host: '127.0.0.1',
    port: 0,
    access: 'redis://127.0.0.1:1',
    logger: pino({ level: 'silent' }),
  });
  id = (await new CatalogueClient({ baseUrl: s.url, apiKey: await s.key('pro') }).filterProducts()).results[0].id;
});
after(async () => {
  await down.close();
  await s.close();
});

describe('a 429 from the per-second rate', () => {
  it('is retried after a backoff and then succeeds', async () => {
    const rec = recordingFetch();
    const kinds: ErrorKind[] = [];
    const c = new CatalogueClient({
      baseUrl: s.url,
      apiKey: await s.key('one-per-second'),
      fetch: rec.fetch,
      retry: {
        baseDelayMs: 1,
        onRetry: ({ error }) => {
          kinds.push(error.kind);
          s.clock.advance(1000);
        },
      },
    });
    await c.getProduct(id);
    assert.equal((await c.getProduct(id)).id, id);
    assert.deepEqual(rec.statuses, [200, 429, 200]);
    assert.deepEqual(kinds, ['rate_limited']);
  });
  it('fails as it is when retries are off', async () => {
    const rec = recordingFetch();
    const c = new CatalogueClient({
      baseUrl: s.url,
      apiKey: await s.key('one-per-second'),
      fetch: rec.fetch,
      retry: false,
    });
    await c.getProduct(id);
    const err = await refusal(c.getProduct(id));
    assert.deepEqual(err.body(), {
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Rate limit exceeded; retry with backoff',
    });
    assert.equal(err.kind, 'rate_limited');
    assert.deepEqual(rec.statuses, [200, 429]);
  });
  it('gives up after the attempts allowed', async () => {
    const rec = recordingFetch();
    const c = new CatalogueClient({
      baseUrl: s.url,
      apiKey: await s.key('one-per-second'),
      fetch: rec.fetch,
      retry: { attempts: 3, baseDelayMs: 1 },
    });
    await c.getProduct(id);
    const err = await refusal(c.getProduct(id));
    assert.equal(err.kind, 'rate_limited');
    assert.deepEqual(rec.statuses, [200, 429, 429, 429]);
  });
});

describe('a 503 (access store unreachable)', () => {
  it('is retried up to the attempts allowed, then thrown as sent', async () => {
    const rec = recordingFetch();
    const retries: number[] = [];
    const c = new CatalogueClient({
      baseUrl: down.url,
      apiKey: WELL_FORMED_KEY,
      fetch: rec.fetch,
      retry: { attempts: 3, baseDelayMs: 1, onRetry: ({ attempt }) => retries.push(attempt) },
    });
    const err = await refusal(c.getProduct(id));
    assert.deepEqual(err.body(), {
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Unable to verify API access, retry shortly',
    });
    assert.equal(err.retryable, true);
    assert.deepEqual(rec.statuses, [503, 503, 503]);
    assert.deepEqual(retries, [1, 2]);
    assert.equal((await c.health()).status, 'ok');
  });
  it('is retried within the time budget, not up to an unbounded number of attempts', async () => {
    const rec = recordingFetch();
    const c = new CatalogueClient({
      baseUrl: down.url,
      apiKey: WELL_FORMED_KEY,
      fetch: rec.fetch,
      retry: { attempts: 100, baseDelayMs: 20, maxElapsedMs: 1000 },
    });
    await refusal(c.getProduct(id));
    // Waits of at least 10, 20, 40, … ms leave room for at most 7 retries in 1 s, however fast the server.
    assert.ok(rec.statuses.length >= 1 && rec.statuses.length <= 8, String(rec.statuses.length));
    assert.ok(rec.statuses.every((st) => st === 503));
  });
});

describe('a network failure (no answer)', () => {
  it('is retried as a 503 is, and the call then succeeds', async () => {
    // The first connection is reset before any answer; later requests are passed to the sample server.
    let requests = 0;
    const flaky = http.createServer((req, res) => {
      if (++requests === 1) return req.socket.destroy();
      void fetch(s.url + req.url!, { headers: { 'x-api-key': String(req.headers['x-api-key']) } }).then(async (r) =>
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(Buffer.from(await r.arrayBuffer())),
      );
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const kinds: ErrorKind[] = [];
      const c = new CatalogueClient({
        baseUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`,
        apiKey: await s.key('pro'),
        retry: { baseDelayMs: 1, onRetry: ({ error }) => kinds.push(error.kind) },
      });
      assert.equal((await c.getProduct(id)).id, id);
      assert.deepEqual(kinds, ['network']);
      assert.equal(requests, 2);
    } finally {
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });
  it('is thrown as a CatalogueClientError (code network) when retries are off', async () => {
    const c = new CatalogueClient({ baseUrl: 'http://127.0.0.1:1', retry: false });
    const err = await refusal(c.health());
    assert.equal(err.kind, 'network');
    assert.equal(err.statusCode, 0);
  });
});

describe('backoff', () => {
  it('doubles from the base up to the cap, with half of each wait random', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay(n, opts, () => 0)),
      [50, 100, 200, 400, 500],
    );
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay(n, opts, () => 1)),
      [100, 200, 400, 800, 1000],
    );
    assert.equal(
      backoffDelay(3, opts, () => 0.5),
      300,
    );
  });
});
