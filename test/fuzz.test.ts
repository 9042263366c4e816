// Fuzz: fast-check generates requests over every route (paths with percent-encoding,
// unicode and raw bytes; repeated, unknown and oddly encoded query parameters; key and
// content-type variants; bodies that are invalid, huge, nested or not objects) against
// a real `catalogue serve` process. Guarantees checked on every answer: never a 5xx,
// and every error is the spec's {statusCode, error, message} with the matching status
// and reason phrase. FUZZ_RUNS sets the request count (default 5,000); FUZZ_SEED the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import fc from 'fast-check';
import { openAdmin } from '../src/access';
import { BUILT_AT, productId, ingredientId } from './support/fixture';
import { buildVariant, opsDir, serveProcess } from './support/serve-process';

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 16;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

function arbitraries(keys: string[]): fc.Arbitrary<FuzzRequest> {
  const latin1 = fc.string({
    unit: fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)),
    maxLength: 30,
  });
  const unicode = fc.string({ unit: 'grapheme', maxLength: 20 });
  const encoded = fc.oneof(
    unicode.map(encodeURIComponent),
    latin1.map((s) => s.replace(/[?#]/g, '')),
    fc.constantFrom('%', '%zz', '%00', '%2F', '%C3%28', '%E2%82', '..', '.', '', '%252e', '%u00e9', '\u00e9', '\u00ff'),
  );
  const uuidish = fc.oneof(
    fc.constantFrom(
      productId(0),
      productId(3),
      productId(12),
      ingredientId(1),
      ingredientId(7),
      productId(0).toUpperCase(),
    ),
    fc.uuid(),
    fc.stringMatching(/^[0-9a-fA-F-]{0,40}$/),
  );
  const barcode = fc.oneof(
    fc.constantFrom('3522930003045', '0000012345670', '12345678', '00012345678'),
    fc.stringMatching(/^[0-9]{0,20}$/),
    fc.stringMatching(/^[0-9 .-]{1,16}$/).map(encodeURIComponent),
  );
  const segment = fc.oneof(
    { weight: 3, arbitrary: uuidish },
    { weight: 2, arbitrary: barcode },
    { weight: 2, arbitrary: encoded },
  );
  const route = fc.oneof(
    fc.constantFrom(
      '/health',
      '/v1/products/search',
      '/v1/products',
      '/v1/products/batch',
      '/v1/labels/analyze',
      '/v1/ingredients/search',
      '/openapi.json',
      '/docs',
      '/docs/',
      '/docs/json',
      '/docs/static/index.html',
      '/v1',
      '/',
      '/v1/',
    ),
    segment.map((s) => `/v1/products/${s}`),
    segment.map((s) => `/v1/products/barcode/${s}`),
    segment.map((s) => `/v1/ingredients/${s}`),
    fc.array(encoded, { maxLength: 6 }).map((a) => '/' + a.join('/')),
    fc
      .tuple(
        fc.constantFrom('/v1/products', '/v1/ingredients', '/docs/static', '/health'),
        fc.array(encoded, { minLength: 1, maxLength: 3 }),
      )
      .map(([p, a]) => p + '/' + a.join('/')),
  );
  const param = fc.oneof(
    fc.constantFrom(
      'q',
      'page',
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
      'Q',
      'PAGE',
      'ids',
      '',
    ),
    encoded,
  );
  const value = fc.oneof(
    fc.constantFrom(
      'serum',
      'bulk',
      'hydra',
      'Bulk Brand',
      'skincare',
      'body/bath',
      'France',
      'true',
      'false',
      'TRUE',
      '1',
      '0',
      '51',
      '52',
      '-1',
      '1e1',
      '0x10',
      ' 2',
      'NaN',
      '',
      '%%%',
      '+',
      'a'.repeat(201),
      'é'.repeat(150),
      `${ingredientId(1)},${ingredientId(2)}`,
      Array.from({ length: 11 }, (_, i) => ingredientId(i)).join(','),
    ),
    uuidish,
    encoded,
    unicode.map(encodeURIComponent),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  );
  const query = fc
    .array(fc.tuple(param, fc.option(value, { nil: undefined })), { maxLength: 6 })
    .map((pairs) =>
      pairs.length
        ? '?' +
          pairs
            .map(([k, v]) => (v === undefined ? k : `${k}=${v}`))
            .join(fc.sample(fc.constantFrom('&', '&', ';', '&&'), 1)[0])
        : '',
    );
  const headerText = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });
  const apiKey = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...keys) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'ck_',
        'ck_' + 'a'.repeat(43),
        keys[0].toUpperCase(),
        keys[0] + ' ',
        ' ' + keys[0],
        'x'.repeat(4000),
      ),
    },
    { weight: 1, arbitrary: headerText },
    { weight: 1, arbitrary: fc.constant([keys[0], keys[0]] as string[]) },
  );
  const contentType = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json;;',
        'APPLICATION/JSON',
        'application/*',
        '*/*',
        '',
        'application/vnd.api+json',
        'application/json; charset=utf-16',
      ),
    },
    { weight: 1, arbitrary: headerText },
  );
  const ids = fc.array(uuidish, { minLength: 0, maxLength: 55 });
  const body = fc.oneof(
    { weight: 4, arbitrary: ids.map((i) => JSON.stringify({ ids: i })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.string({ maxLength: 300, unit: 'grapheme' }), fc.jsonValue({ maxDepth: 2 }))
        .map((text) => JSON.stringify({ text })),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc
        .record({ ids: fc.jsonValue({ maxDepth: 3 }), extra: fc.jsonValue({ maxDepth: 2 }) })
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"ids":[',
        '[]',
        '1',
        'null',
        '"x"',
        '{"ids":null}',
        '{"ids":"' + productId(0) + '"}',
        '{"__proto__":{"ids":[1]}}',
        '{"constructor":{"prototype":{}}}',
        '\uFEFF{"ids":["' + productId(0) + '"]}',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 60, max: 90 })
        .map((k) => JSON.stringify({ ids: [productId(0)], pad: 'x'.repeat(k * 1024) })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
  );
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant('GET') },
    { weight: 6, arbitrary: fc.constant('POST') },
    { weight: 3, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE') },
  );
  const extra = fc.dictionary(
    fc.constantFrom(
      'accept',
      'accept-encoding',
      'content-encoding',
      'accept-charset',
      'x-forwarded-for',
      'transfer-encoding-x',
      'cookie',
      'origin',
    ),
    fc.oneof(headerText, fc.constantFrom('gzip', 'br', 'deflate', 'identity', '*', 'application/xml', 'utf-16')),
    { maxKeys: 3 },
  );
  return fc
    .record({ method, route, query, apiKey, contentType, body: fc.option(body, { nil: undefined }), extra })
    .map(({ method, route, query, apiKey, contentType, body, extra }) => {
      const headers: Record<string, string | string[]> = { ...extra };
      if (apiKey !== undefined) headers['x-api-key'] = apiKey;
      if (contentType !== undefined) headers['content-type'] = contentType;
      const sendsBody =
        body !== undefined && (method === 'POST' || method === 'PUT' || method === 'PATCH' || route.length % 7 === 0);
      return {
        method,
        path: (route + query).replace(/ /g, '+'),
        headers,
        body: sendsBody ? (Buffer.isBuffer(body) ? body : Buffer.from(body)) : undefined,
      };
    });
}

function send(
  agent: http.Agent,
  base: URL,
  r: FuzzRequest,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: r.method,
        path: r.path,
        headers: { ...r.headers, connection: 'close', ...(r.body ? { 'content-length': r.body.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

/** What is wrong with an answer, or null. */
function problem(
  r: FuzzRequest,
  res: { status: number; headers: http.IncomingHttpHeaders; body: string },
): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (res.status < 400 || r.method === 'HEAD') return null;
  if (!String(res.headers['content-type']).startsWith('application/json'))
    return `error content-type ${res.headers['content-type']}`;
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(res.body);
  } catch {
    return 'error body is not JSON';
  }
  if (Object.keys(b).sort().join() !== 'error,message,statusCode') return `error body keys ${Object.keys(b)}`;
  if (b.statusCode !== res.status) return `statusCode ${b.statusCode} on a ${res.status}`;
  if (b.error !== http.STATUS_CODES[res.status]) return `error "${b.error}" on a ${res.status}`;
  if (typeof b.message !== 'string' || b.message === '') return 'empty message';
  return null;
}

test(`${RUNS} generated requests over every route: no 5xx and the spec's error shape on every error`, async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: BUILT_AT });
  const admin = await openAdmin(ops.store, { plansFile: ops.plans });
  const keys = [
    ops.key,
    (await admin.createKey('sandbox')).key,
    (await admin.createKey('trial')).key,
    (await admin.createKey('pro')).key,
  ];
  await admin.close();
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans], {
    LOG_LEVEL: 'warn',
  });
  // One connection per request (Connection: close), so a connection the server closes after refusing one request never fails another.
  const agent = new http.Agent({ keepAlive: false });
  const base = new URL(s.url);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let sent = 0;
  const started = Date.now();
  try {
    const gen = arbitraries(keys);
    for (let chunk = 0; sent < RUNS; chunk++) {
      const batch = fc.sample(gen, { numRuns: Math.min(1000, RUNS - sent), seed: SEED + chunk });
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < batch.length) {
            const r = batch[next++];
            sent++;
            try {
              const res = await send(agent, base, r);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              const p = problem(r, res);
              if (p)
                failures.push(
                  `${p}: ${r.method} ${r.path} ${JSON.stringify(r.headers).slice(0, 200)} body=${r.body?.toString('latin1').slice(0, 80)} -> ${res.body.slice(0, 200)}`,
                );
            } catch (err) {
              // The server may close a connection after refusing a malformed request; that is an answer, not a crash.
              const code = (err as NodeJS.ErrnoException).code;
              // A HEAD client cannot read the body Node's parser-error answer carries (HPE_*).
              if (code !== 'ECONNRESET' && code !== 'EPIPE' && !(r.method === 'HEAD' && code?.startsWith('HPE_')))
                failures.push(`${code ?? err}: ${r.method} ${r.path}`);
              statuses.set(0, (statuses.get(0) ?? 0) + 1);
            }
          }
        }),
      );
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `# fuzz: ${sent} requests in ${seconds.toFixed(1)} s (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n`,
    );
    failures.sort((a, b) => Number(b.startsWith('status 5')) - Number(a.startsWith('status 5')));
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} bad answers (seed ${SEED})`);
    assert.equal(s.child.exitCode, null, 'the server is still running');
    assert.deepEqual(
      s.logs.filter((l) => l.includes('"level":50')),
      [],
      'no request failed inside the server',
    );
    assert.equal((await fetch(`${s.url}/health`)).status, 200);
  } finally {
    agent.destroy();
    await s.stop();
    ops.cleanup();
  }
});
