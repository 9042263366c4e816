// Hardened input and security headers: every answer carries the JSON-API security
// headers and no banner; oversized bodies, headers and malformed requests are refused
// in the spec's error shape (or by Node before the app) without hurting the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { startTestServer, type TestServer } from './support/server';
import { productId } from './support/fixture';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

/** Sends raw bytes on a fresh connection; resolves with everything received until the server closes it. */
function raw(bytes: string | Buffer): Promise<string> {
  const { port } = new URL(t.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      data += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(data));
    socket.end(bytes);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

test('every API answer carries nosniff, no-referrer, frame denial, no-store and a deny-all CSP, and no banner header', async () => {
  for (const [p, headers] of [
    ['/health', {}],
    [`/v1/products/${productId(0)}`, undefined],
    ['/v1/products', {}],
    ['/nowhere', {}],
    ['/v1/products?page=0', undefined],
  ] as const) {
    const res = await t.get(p, headers);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer', p);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', p);
    assert.equal(res.headers.get('cache-control'), 'no-store', p);
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'", p);
    assert.equal(res.headers.get('x-powered-by'), null, p);
    assert.equal(res.headers.get('server'), null, p);
  }
});

test('the API reference page gets a CSP that lets it run its own scripts', async () => {
  const res = await fetch(`${t.url}/docs/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-security-policy'), "frame-ancestors 'none'");
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});

test('a batch body over 64 KiB is refused with 413 in the error shape', async () => {
  const res = await fetch(`${t.url}/v1/products/batch`, {
    method: 'POST',
    headers: { 'x-api-key': t.keys.pro.key, 'content-type': 'application/json' },
    body: JSON.stringify({ ids: [productId(0)], pad: 'x'.repeat(70 * 1024) }),
  });
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), { statusCode: 413, error: 'Payload Too Large', message: 'the body is too large' });
});

test('headers over 16 KiB are refused with 431 in the error shape and the server keeps serving', async () => {
  const response = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
  assert.match(response, /^HTTP\/1\.1 431 /);
  assert.deepEqual(Object.keys(bodyOf(response)).sort(), ['error', 'message', 'statusCode']);
  assert.equal((await t.get('/health')).status, 200);
});

test('a malformed request line is refused with 400 in the error shape and the server keeps serving', async () => {
  const response = await raw('GARBAGE\x00 / HTTP/9.9\r\n\r\n');
  assert.match(response, /^HTTP\/1\.1 400 /);
  assert.equal(bodyOf(response).statusCode, 400);
  assert.equal((await t.get('/health')).status, 200);
});

test('deeply nested and non-object JSON bodies are 400s, never 5xx', async () => {
  for (const body of [
    '['.repeat(20_000) + ']'.repeat(20_000),
    '{"ids":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}',
    '"ids"',
    'null',
    '{"__proto__":{"x":1},"ids":[]}',
    '\u0000',
  ]) {
    const res = await fetch(`${t.url}/v1/products/batch`, {
      method: 'POST',
      headers: { 'x-api-key': t.keys.pro.key, 'content-type': 'application/json' },
      body,
    });
    assert.equal(res.status, 400, body.slice(0, 30));
    const b = (await res.json()) as { statusCode: number; error: string };
    assert.equal(b.statusCode, 400);
    assert.equal(b.error, 'Bad Request');
  }
});
