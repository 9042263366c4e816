// Observability: one structured JSON log line per request (request id, route pattern,
// status, latency, key id) that never holds the secret, and Prometheus metrics on a
// separate port (requests by route pattern and status, refusals by reason, store
// errors, reloads, the catalogue's build date).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino from 'pino';
import { startServer, REDACT } from '../src/server';
import { BUILT_AT, productId } from './support/fixture';
import { opsDir } from './support/serve-process';
import { buildVariant } from './support/serve-process';

function captureLogger() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info', redact: REDACT },
    {
      write: (s: string) => {
        lines.push(s);
      },
    },
  );
  return { logger, lines };
}

async function setup(access?: string) {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: BUILT_AT });
  const { logger, lines } = captureLogger();
  const server = await startServer({
    catalogue: file,
    host: '127.0.0.1',
    port: 0,
    access: access ?? ops.store,
    plans: ops.plans,
    metricsPort: 0,
    logger,
  });
  return {
    ops,
    file,
    server,
    lines,
    close: async () => {
      await server.close();
      ops.cleanup();
    },
  };
}

const metric = (text: string, name: string, labels: Record<string, string> = {}) => {
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith(name + (Object.keys(labels).length ? '{' : ' ')) &&
        Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

test('each request logs one JSON line with request id, route pattern, status, latency and key id, and the secret appears nowhere', async () => {
  const { ops, server, lines, close } = await setup();
  try {
    const id = productId(3);
    await (await fetch(`${server.url}/v1/products/${id}`, { headers: { 'x-api-key': ops.key } })).text();
    await (
      await fetch(`${server.url}/v1/products/${id}`, { headers: { 'x-api-key': 'sk_not_a_real_key_but_secret' } })
    ).text();
    server.app.log.info(
      { req: { headers: { 'x-api-key': ops.key } }, headers: { 'x-api-key': ops.key } },
      'a line that tries to log the secret',
    );
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    assert.equal(requests.length, 2);
    const [ok, refused] = requests;
    assert.equal(ok.route, '/v1/products/:id');
    assert.equal(ok.status, 200);
    assert.equal(typeof ok.ms, 'number');
    assert.match(ok.reqId, /\S/);
    assert.notEqual(ok.reqId, refused.reqId);
    assert.match(ok.key, /\S/);
    assert.equal(refused.status, 403);
    assert.equal(refused.key, null);
    const all = lines.join('\n');
    assert.ok(!all.includes(ops.key), 'the secret is never logged');
    assert.ok(!all.includes('sk_not_a_real_key_but_secret'));
    assert.match(all, /\[Redacted\]/);
  } finally {
    await close();
  }
});

test('metrics are served on their own port: requests by route pattern and status, refusals by reason, reloads and the build date', async () => {
  const { ops, file, server, close } = await setup();
  try {
    assert.ok(server.metricsUrl);
    assert.notEqual(new URL(server.metricsUrl).port, new URL(server.url).port);
    for (let i = 0; i < 3; i++)
      await (await fetch(`${server.url}/v1/products/${productId(i)}`, { headers: { 'x-api-key': ops.key } })).text();
    await (await fetch(`${server.url}/v1/products/search?q=a`)).text();
    await (await fetch(`${server.url}/v1/products/search?q=a&q=b`, { headers: { 'x-api-key': ops.key } })).text();
    await (await fetch(`${server.url}/no/such/route`)).text();
    const next = path.join(path.dirname(file), 'next.db');
    await buildVariant(next, { builtAt: '2026-04-01' });
    fs.renameSync(next, file);
    await server.reloader.reload('test');

    const text = await (await fetch(server.metricsUrl)).text();
    assert.equal(
      metric(text, 'http_request_duration_seconds_count', { route: '/v1/products/:id', method: 'GET', status: '200' }),
      3,
    );
    assert.equal(metric(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }), 1);
    assert.ok(!text.includes(productId(0)), 'raw URLs are never labels');
    assert.equal(metric(text, 'http_refusals_total', { status: '403', reason: 'invalidKey' }), 1);
    assert.equal(metric(text, 'http_refusals_total', { status: '400', reason: 'bad_request' }), 1);
    assert.equal(metric(text, 'catalogue_reloads_total', { outcome: 'swapped' }), 1);
    assert.equal(metric(text, 'catalogue_built_at_seconds'), Date.parse('2026-04-01T00:00:00Z') / 1000);
    assert.equal(metric(text, 'catalogue_products'), server.catalogue.current.products);
    assert.ok(metric(text, 'process_resident_memory_bytes')! > 0);

    assert.equal((await fetch(`${server.url}/metrics`)).status, 404, 'the public port does not serve metrics');
  } finally {
    await close();
  }
});

test('access store failures are counted as store errors and refusals for reason unavailable', async () => {
  const { server, close } = await setup('redis://127.0.0.1:1/0');
  try {
    const res = await fetch(`${server.url}/v1/products`, { headers: { 'x-api-key': 'ck_' + 'a'.repeat(43) } });
    assert.equal(res.status, 503);
    const text = await (await fetch(server.metricsUrl!)).text();
    assert.ok(metric(text, 'access_store_errors_total')! >= 1);
    assert.equal(metric(text, 'http_refusals_total', { status: '503', reason: 'unavailable' }), 1);
  } finally {
    await close();
  }
});
