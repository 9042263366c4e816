// Malformed requests from a hostile client, over a real socket: over-long path segments,
// malformed percent-encoding in the query, CONNECT. Each is answered in the spec's error
// shape with the security headers, naming what is wrong, logged like any request, and
// never charged; every error code fastify can raise is mapped on purpose.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { METHODS } from 'node:http';
import pino from 'pino';
import { errorCodes } from 'fastify';
import { startTestServer, type TestServer } from './support/server';
import { FRAMEWORK, toApiError } from '../src/http/errors';
import { ApiError } from '../src/shared/errors';
import { monthOf, openAdmin } from '../src/access';

let t: TestServer;
const lines: string[] = [];
before(async () => {
  t = await startTestServer(pino({ level: 'info' }, { write: (l: string) => lines.push(l) }));
});
after(async () => {
  await t.close();
});

/** Sends raw bytes on a fresh connection; resolves with everything received until the server closes it. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', () => {});
    socket.on('close', () => resolve(data));
    socket.end(bytes);
  });
}

const logged = (test: (entry: Record<string, unknown>) => boolean) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter(test);

async function usage(): Promise<number> {
  const admin = await openAdmin(t.store);
  const report = await admin.usage(monthOf(Date.now()));
  await admin.close();
  return report.keys.find((k) => k.id === t.keys.pro.id)?.calls ?? 0;
}

const LONG = 'a'.repeat(1001);
const LONG_PATHS: Array<[string, string]> = [
  [`/v1/products/${LONG}`, 'id'],
  [`/v1/ingredients/${LONG}`, 'id'],
  [`/v1/products/barcode/${'1'.repeat(1001)}`, 'barcode'],
];

test('a path segment over 1,000 characters is a 400 naming the parameter, with security headers, with or without a key', async () => {
  for (const [p, param] of LONG_PATHS) {
    for (const headers of [{ 'x-api-key': t.keys.pro.key }, {}] as Record<string, string>[]) {
      const res = await t.get(p, headers);
      const body = (await res.json()) as { statusCode: number; error: string; message: string };
      const expected = 'x-api-key' in headers ? 400 : 403;
      assert.equal(res.status, expected, p.slice(0, 30));
      assert.equal(body.statusCode, expected);
      if (expected === 400) assert.match(body.message, new RegExp(`^${param} `));
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
  }
});

test('HEAD with a path segment over 1,000 characters is a 400 with security headers and no body', async () => {
  const res = await raw(
    `HEAD /v1/products/${LONG} HTTP/1.1\r\nHost: x\r\nx-api-key: ${t.keys.pro.key}\r\nConnection: close\r\n\r\n`,
  );
  assert.match(res, /^HTTP\/1\.1 400 /);
  assert.match(res, /\r\nx-content-type-options: nosniff\r\n/);
  assert.equal(res.slice(res.indexOf('\r\n\r\n') + 4), '');
});

test('over-long paths and malformed URLs are logged like every other request', async () => {
  lines.length = 0;
  await (await t.get(`/v1/products/${LONG}`)).text();
  await raw(`GET /v1/products/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  assert.equal(logged((e) => e.msg === 'request' && e.status === 400).length, 2, lines.join('\n'));
  assert.equal(lines.length, 2, lines.join('\n'));
});

test('malformed percent-encoding in the query string is a 400 naming the parameter, and not charged', async () => {
  const before = await usage();
  for (const [query, param] of [
    ['/v1/products?category=%zz', 'category'],
    ['/v1/products/search?q=%ff', 'q'],
    ['/v1/ingredients/search?q=a%E2%82', 'q'],
    ['/v1/products?brand=x&origin=%C3%28', 'origin'],
  ]) {
    const res = await t.get(query);
    assert.equal(res.status, 400, query);
    assert.deepEqual(await res.json(), {
      statusCode: 400,
      error: 'Bad Request',
      message: `${param} is not valid percent-encoded UTF-8`,
    });
  }
  assert.equal(await usage(), before);
  assert.equal((await t.get('/v1/products/search?q=caf%C3%A9+cr%E8me'.replace('%E8', '%C3%A8'))).status, 200);
});

test('CONNECT is answered 405 in the error shape with security headers, and logged', async () => {
  lines.length = 0;
  const res = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  assert.match(res, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  assert.match(res, /\r\nx-content-type-options: nosniff\r\n/);
  assert.deepEqual(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)), {
    statusCode: 405,
    error: 'Method Not Allowed',
    message: 'Method CONNECT is not allowed',
  });
  assert.equal(logged((e) => e.method === 'CONNECT' && e.status === 405).length, 1);
  assert.equal((await t.get('/health')).status, 200);
});

test('every error code fastify defines is mapped on purpose; those a request causes are never a 500', () => {
  assert.deepEqual(Object.keys(FRAMEWORK).sort(), Object.keys(errorCodes).sort());
  const fromRequests = [
    'FST_ERR_NOT_FOUND',
    'FST_ERR_VALIDATION',
    'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    'FST_ERR_CTP_EMPTY_JSON_BODY',
    'FST_ERR_CTP_BODY_TOO_LARGE',
    'FST_ERR_CTP_INVALID_JSON_BODY',
    'FST_ERR_BAD_URL',
    'FST_ERR_MAX_PARAM_LENGTH',
    'FST_ERR_HANDLER_TIMEOUT',
    'FST_ERR_ROUTE_MISSING_CONTENT_TYPE',
  ];
  for (const [code, Err] of Object.entries(errorCodes)) {
    const e = toApiError(new (Err as new (...a: string[]) => Error)('a', 'b', 'c'));
    assert.ok(e instanceof ApiError);
    if (fromRequests.includes(code)) assert.ok(e.statusCode < 500 || e.statusCode === 503, `${code} → ${e.statusCode}`);
    else assert.equal(e.statusCode, 500, code);
    assert.ok(!e.message.includes('FST_'), code);
  }
  assert.equal(toApiError(new errorCodes.FST_ERR_MAX_PARAM_LENGTH('x')).statusCode, 400);
  // The /docs static files: a forbidden path (`..`, NUL) is a 404, never a 500.
  const forbidden = Object.assign(new Error('Forbidden'), { code: 'FST_STATIC_FORBIDDEN_PATH', statusCode: 403 });
  assert.equal(toApiError(forbidden).statusCode, 404);
});

test('every method Node parses, with or without a Content-Type and a body, on every kind of route: never a 5xx, always the error shape, nothing logged above info', async () => {
  lines.length = 0;
  const statuses = new Map<string, number>();
  for (const method of METHODS.filter((m) => m !== 'CONNECT')) {
    for (const path of ['/health', '/v1/products/batch', '/v1/labels/analyze', '/nowhere', '/docs/']) {
      for (const type of [
        '',
        'Content-Type: application/json\r\n',
        'Content-Type: text/plain\r\n',
        'Content-Type: \r\n',
      ]) {
        for (const body of ['', '{"ids":[]}']) {
          const res = await raw(
            `${method} ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: ${t.keys.pro.key}\r\n${type}` +
              `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
          const what = `${method} ${path} ${JSON.stringify(type)} ${body.length}`;
          const status = Number(res.slice(9, 12));
          statuses.set(what, status);
          assert.ok(status >= 100 && status < 500, `${what} → ${res.slice(0, 200)}`);
          assert.match(res, /\r\nx-content-type-options: nosniff\r\n/i, what);
          if (status >= 400 && method !== 'HEAD') {
            const answer = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
            assert.deepEqual(Object.keys(answer), ['statusCode', 'error', 'message'], what);
            assert.equal(answer.statusCode, status, what);
          }
        }
      }
    }
  }
  // QUERY carries a body: without a Content-Type it is refused as a media type, never a 500.
  assert.equal(statuses.get('QUERY /health "" 0'), 415);
  assert.equal(statuses.get('QUERY /v1/products/batch "" 10'), 415);
  const loud = logged((e) => (e.level as number) > 30);
  assert.deepEqual(loud, []);
});

test('QUERY without a Content-Type is a 415 naming the media type, logged at info', async () => {
  lines.length = 0;
  const res = await raw(`QUERY /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  assert.match(res, /^HTTP\/1\.1 415 /);
  assert.deepEqual(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)), {
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: 'Content-Type must be application/json',
  });
  assert.equal(logged((e) => e.msg === 'request' && e.status === 415 && e.level === 30).length, 1, lines.join('\n'));
  assert.equal(lines.length, 1, lines.join('\n'));
});

test("Node's early answers are in the error shape with the security headers: an unsupported Expect (417), an HTTP/1.1 request without Host (400)", async () => {
  lines.length = 0;
  const expect = await raw(
    `POST /v1/products/batch HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  );
  assert.match(expect, /^HTTP\/1\.1 417 /);
  assert.match(expect, /\r\nx-content-type-options: nosniff\r\n/);
  assert.match(expect, /\r\ncontent-security-policy: default-src 'none'; frame-ancestors 'none'\r\n/);
  assert.deepEqual(JSON.parse(expect.slice(expect.indexOf('\r\n\r\n') + 4)), {
    statusCode: 417,
    error: 'Expectation Failed',
    message: 'the Expect header is not supported; only 100-continue is',
  });
  assert.equal(logged((e) => e.status === 417).length, 1);

  const noHost = await raw(`GET /health HTTP/1.1\r\nConnection: close\r\n\r\n`);
  assert.match(noHost, /^HTTP\/1\.1 400 /);
  assert.match(noHost, /\r\nx-content-type-options: nosniff\r\n/);
  assert.deepEqual(JSON.parse(noHost.slice(noHost.indexOf('\r\n\r\n') + 4)), {
    statusCode: 400,
    error: 'Bad Request',
    message: 'the Host header is required',
  });
  // HTTP/1.0 does not require Host.
  assert.match(await raw(`GET /health HTTP/1.0\r\n\r\n`), /^HTTP\/1\.1 200 /);
});

test('refusals carry a machine-readable reason from a closed set, independent of their message', () => {
  const e = ApiError.refusal('trialUsed');
  assert.equal(e.reason, 'trialUsed');
  assert.equal(e.statusCode, 429);
  assert.equal(new ApiError('bad_request', 'page must be an integer from 1 to 51').reason, 'bad_request');
});

test('a charged trial request refused afterwards (404) still carries X-Trial-Requests-Remaining', async () => {
  const res = await t.get('/v1/products/00000000-0000-4000-8000-000000000000', { 'x-api-key': t.keys.trial.key });
  assert.equal(res.status, 404);
  assert.match(res.headers.get('x-trial-requests-remaining') ?? '', /^\d+$/);
});
