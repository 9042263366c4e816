// The OpenAPI document says what the service does: real answers of every operation
// (GET, its HEAD twin and POST), for every status the document lists, are checked
// against GET /openapi.json by an independent validator, Stoplight Prism's (the status
// is documented, the media type, the body and the documented headers match), and every
// header an answer carries is documented on that response or named in the document's
// description. A status the document lists that no request here provokes fails the
// last test, so neither the document nor the service can change alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import Ajv from 'ajv/dist/2020';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IHttpOperation } from '@stoplight/types';
import { buildApp } from '../src/http/app';
import { openAccess, openAdmin } from '../src/access';
import type { AccessControl } from '../src/access/types';
import type { CatalogueRef } from '../src/catalogue/read-model';
import { ApiError } from '../src/shared/errors';
import { securityHeaders } from '../src/http/security-headers';
import { startServer, type RunningServer } from '../src/server';
import { OVERWRITTEN } from '../src/ops/catalogue-reloader';
import { ING, P, buildFixture, ingredientId, productId } from './support/fixture';
import { PLANS } from './support/plans';

/** Headers of HTTP itself, not of this API. */
const PROTOCOL = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Decompressed bytes. */
  raw: Buffer;
}

/** One request over a fresh connection, answered as sent (headers exactly, body decompressed). */
function send(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = String(v);
        const raw = out['content-encoding'] === 'gzip' && bytes.length > 0 ? gunzipSync(bytes) : bytes;
        resolve({ status: res.statusCode ?? 0, headers: out, raw });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One request over a raw socket, read until the server closes it: for the 431 the HTTP
 * layer answers before it has read the method, with its body even to a HEAD (which
 * node's HTTP client refuses to parse). Only for answers with a Content-Length.
 */
function sendRaw(base: string, method: string, url: string, headers: Record<string, string>): Promise<Answer> {
  const { hostname, port } = new URL(base);
  const lines = [`${method} ${url} HTTP/1.1`, `host: ${hostname}:${port}`, 'connection: close'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(lines.join('\r\n') + '\r\n\r\n'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const [status, ...fields] = all.subarray(0, end).toString().split('\r\n');
      const out: Record<string, string> = {};
      for (const f of fields) out[f.slice(0, f.indexOf(':')).toLowerCase()] = f.slice(f.indexOf(':') + 1).trim();
      resolve({ status: Number(status.split(' ')[1]), headers: out, raw: all.subarray(end + 4) });
    });
  });
}

/** A request of the test: the operation it is for, what is sent and the status it must get. */
interface Case {
  op: string;
  status: number;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Which server: the real one, one whose catalogue file is being replaced, one whose access store is down. */
  on?: 'outage' | 'storeDown';
  why: string;
}

let server: RunningServer;
let outage: FastifyInstance;
let storeDown: FastifyInstance;
let dir: string;
let doc: any;
let operations: IHttpOperation[];
const keys: Record<'pro' | 'trial' | 'sandbox' | 'owing' | 'spent', string> = {} as never;
const provoked = new Set<string>();

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** An access store that cannot be reached: every key check is answered 503. */
const unreachable: AccessControl = {
  admit: () => Promise.reject(ApiError.refusal('unavailable')),
  charge: () => Promise.reject(ApiError.refusal('unavailable')),
  close: async () => {},
};

let urls: Record<'real' | 'outage' | 'storeDown', string>;

before(async () => {
  const fixture = await buildFixture();
  dir = fixture.dir;
  const plans = path.join(dir, 'plans.json');
  // No per-second limits: the number of requests a second here depends on the machine.
  fs.writeFileSync(plans, JSON.stringify([PLANS.unlimited, PLANS.trialFree, PLANS.oneAMonth]));
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const admin = await openAdmin(store, { plansFile: plans });
  for (const [name, plan] of [
    ['pro', PLANS.unlimited.name],
    ['trial', PLANS.trialFree.name],
    ['sandbox', 'sandbox'], // no barcode lookup; sent 3 requests, under its 5 a second
    ['owing', PLANS.unlimited.name],
    ['spent', PLANS.oneAMonth.name],
  ] as const) {
    const k = await admin.createKey(plan);
    keys[name] = k.key;
    if (name === 'owing') await admin.setPaymentRequired(k.id, true);
  }
  await admin.close();
  const logger = pino({ level: 'silent' });
  server = await startServer({ catalogue: fixture.file, host: '127.0.0.1', port: 0, access: store, plans, logger });
  const noCatalogue = {} as CatalogueRef;
  const noAccess = await openAccess(store, { plansFile: plans });
  outage = await buildApp({ catalogue: noCatalogue, access: noAccess, catalogueProblem: () => OVERWRITTEN });
  storeDown = await buildApp({ catalogue: noCatalogue, access: unreachable });
  urls = { real: server.url, outage: await listen(outage), storeDown: await listen(storeDown) };
  // The one call of the spent key's month.
  assert.equal((await send(urls.real, 'GET', '/v1/products/search?q=daily', { 'x-api-key': keys.spent })).status, 200);
  doc = JSON.parse((await send(urls.real, 'GET', '/openapi.json')).raw.toString());
  operations = await getHttpOperationsFromSpec(doc);
});

after(async () => {
  await server?.close();
  await outage?.close();
  await storeDown?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const JSON_BODY = { 'content-type': 'application/json' };
const BIG_HEADER = { 'x-padding': 'a'.repeat(17 * 1024) };

/** The requests for one GET operation (each also sent as HEAD), from a URL that answers 200. */
function getCases(
  op: string,
  ok: string,
  extra: { notFound?: string; bad?: string; wrongPlan?: boolean } = {},
): Case[] {
  const sep = ok.includes('?') ? '&' : '?';
  const v1 = ok.startsWith('/v1/');
  const cases: Case[] = [{ op, status: 200, method: 'GET', url: ok, headers: { 'x-api-key': keys.pro }, why: 'found' }];
  cases.push({ op, status: 431, method: 'GET', url: ok, headers: BIG_HEADER, why: 'headers over 16 KiB' });
  cases.push({
    op,
    status: 503,
    method: 'GET',
    url: ok,
    headers: { 'x-api-key': keys.pro },
    on: 'outage',
    why: 'catalogue being replaced',
  });
  if (!v1) cases.push({ op, status: 200, method: 'GET', url: `${ok}?anything=1`, why: 'query parameters ignored' });
  if (v1) {
    const pro = { 'x-api-key': keys.pro };
    cases.push(
      { op, status: 200, method: 'GET', url: ok, headers: { 'x-api-key': keys.trial }, why: 'a trial key' },
      { op, status: 200, method: 'GET', url: ok, headers: { ...pro, 'accept-encoding': 'gzip' }, why: 'gzip accepted' },
      { op, status: 400, method: 'GET', url: `${ok}${sep}limit=5`, headers: pro, why: 'unknown parameter' },
      { op, status: 402, method: 'GET', url: ok, headers: { 'x-api-key': keys.owing }, why: 'payment required' },
      { op, status: 403, method: 'GET', url: ok, why: 'no key' },
      { op, status: 429, method: 'GET', url: ok, headers: { 'x-api-key': keys.spent }, why: 'monthly ceiling' },
      { op, status: 503, method: 'GET', url: ok, headers: pro, on: 'storeDown', why: 'access store down' },
    );
  }
  if (extra.bad)
    cases.push({
      op,
      status: 400,
      method: 'GET',
      url: extra.bad,
      headers: { 'x-api-key': keys.pro },
      why: 'bad value',
    });
  if (extra.notFound)
    cases.push({
      op,
      status: 404,
      method: 'GET',
      url: extra.notFound,
      headers: { 'x-api-key': keys.trial },
      why: 'not found',
    });
  if (extra.wrongPlan)
    cases.push({
      op,
      status: 403,
      method: 'GET',
      url: ok,
      headers: { 'x-api-key': keys.sandbox },
      why: 'plan without barcodes',
    });
  return [...cases, ...cases.map((c) => ({ ...c, op: `${op}-head`, method: 'HEAD' }))];
}

/** The requests for one POST operation, from a body that answers 200 and the operation's body limit. */
function postCases(op: string, url: string, okBody: object, limit: number): Case[] {
  const body = JSON.stringify(okBody);
  const pro = { 'x-api-key': keys.pro, ...JSON_BODY };
  return [
    { op, status: 200, method: 'POST', url, headers: pro, body, why: 'found' },
    { op, status: 200, method: 'POST', url, headers: { ...pro, 'x-api-key': keys.trial }, body, why: 'a trial key' },
    {
      op,
      status: 400,
      method: 'POST',
      url,
      headers: pro,
      body: JSON.stringify({ ...okBody, extra: 1 }),
      why: 'extra body field',
    },
    { op, status: 400, method: 'POST', url: `${url}?x=1`, headers: pro, body, why: 'a query parameter' },
    {
      op,
      status: 402,
      method: 'POST',
      url,
      headers: { ...pro, 'x-api-key': keys.owing },
      body,
      why: 'payment required',
    },
    { op, status: 403, method: 'POST', url, headers: JSON_BODY, body, why: 'no key' },
    { op, status: 413, method: 'POST', url, headers: pro, body: ' '.repeat(limit + 1), why: 'body over the limit' },
    { op, status: 415, method: 'POST', url, headers: { ...pro, 'content-type': 'text/plain' }, body, why: 'not JSON' },
    {
      op,
      status: 429,
      method: 'POST',
      url,
      headers: { ...pro, 'x-api-key': keys.spent },
      body,
      why: 'monthly ceiling',
    },
    { op, status: 431, method: 'POST', url, headers: { ...pro, ...BIG_HEADER }, why: 'headers over 16 KiB' },
    { op, status: 503, method: 'POST', url, headers: pro, body, on: 'outage', why: 'catalogue being replaced' },
    { op, status: 503, method: 'POST', url, headers: pro, body, on: 'storeDown', why: 'access store down' },
  ];
}

function allCases(): Case[] {
  const product = `/v1/products/${productId(P.caudalie)}`;
  return [
    ...getCases('getHealth', '/health'),
    ...getCases('searchProducts', '/v1/products/search?q=daily', { bad: '/v1/products/search?q=!!!' }),
    ...getCases('filterProducts', '/v1/products?category=haircare', { bad: '/v1/products?brand=---' }),
    ...getCases('getProduct', product, { notFound: `/v1/products/${productId(99999)}`, bad: '/v1/products/12345678' }),
    ...getCases('getProductByBarcode', '/v1/products/barcode/12345678', {
      notFound: '/v1/products/barcode/99999999',
      bad: '/v1/products/barcode/1',
      wrongPlan: true,
    }),
    ...getCases('searchIngredients', '/v1/ingredients/search?q=sodium', { bad: '/v1/ingredients/search?q=a&q=b' }),
    ...getCases('getIngredient', `/v1/ingredients/${ingredientId(ING.glycerin)}`, {
      notFound: `/v1/ingredients/${ingredientId(9999)}`,
    }),
    ...postCases('batchProducts', '/v1/products/batch', { ids: [productId(0), productId(99999)] }, 64 * 1024),
    ...postCases('analyzeLabel', '/v1/labels/analyze', { text: 'Aqua, Glycerin, Niacinamide (5%)' }, 640 * 1024),
  ];
}

/** The documented response of an operation for a status, or undefined. */
function documented(op: string, status: number): any {
  for (const item of Object.values<any>(doc.paths))
    for (const o of Object.values<any>(item)) if (o.operationId === op) return o.responses[String(status)];
  return undefined;
}

/** What Prism finds wrong with an answer to `op`, as lines (none when it conforms). */
function violations(op: string, a: Answer): string[] {
  const resource = operations.find((o) => o.iid === op);
  assert.ok(resource, `the document has an operation ${op}`);
  const isJson = (a.headers['content-type'] ?? '').startsWith('application/json');
  const body = a.raw.length === 0 ? undefined : isJson ? JSON.parse(a.raw.toString()) : a.raw.toString();
  const result = validateOutput({ resource, element: { statusCode: a.status, headers: a.headers, body } });
  return result._tag === 'Right' ? [] : result.left.map((v) => `${v.path?.join('.') ?? ''} ${v.message}`);
}

/** Headers the answer carries that neither its response nor the document's description mentions. */
function undocumentedHeaders(op: string, a: Answer): string[] {
  const listed = new Set(Object.keys(documented(op, a.status)?.headers ?? {}).map((h) => h.toLowerCase()));
  const every = securityHeaders('/v1');
  return Object.keys(a.headers).filter(
    (h) => !PROTOCOL.has(h) && !listed.has(h) && !(h in every && doc.info.description.includes(`${h}: ${every[h]}`)),
  );
}

describe('real answers conform to GET /openapi.json', () => {
  it('sends every case below (the setup works)', () => {
    assert.ok(operations.length >= 16);
  });
  // The cases need the keys made in before(): each is built and run inside its own test.
  const names = [
    ['getHealth', 'GET'],
    ['searchProducts', 'GET'],
    ['filterProducts', 'GET'],
    ['getProduct', 'GET'],
    ['getProductByBarcode', 'GET'],
    ['searchIngredients', 'GET'],
    ['getIngredient', 'GET'],
    ['batchProducts', 'POST'],
    ['analyzeLabel', 'POST'],
  ] as const;
  for (const [name, method] of names) {
    const variants = method === 'GET' ? [name, `${name}-head`] : [name];
    for (const op of variants) {
      it(`${op}: every answer is documented, body and headers included`, async () => {
        const problems: string[] = [];
        for (const c of allCases().filter((x) => x.op === op)) {
          const base = urls[c.on ?? 'real'];
          const a =
            c.status === 431
              ? await sendRaw(base, c.method, c.url, c.headers ?? {})
              : await send(base, c.method, c.url, c.headers, c.body);
          const label = `${c.method} ${c.url.slice(0, 80)} (${c.why})`;
          if (a.status !== c.status) {
            problems.push(`${label}: status ${a.status}, expected ${c.status}: ${a.raw.toString().slice(0, 200)}`);
            continue;
          }
          provoked.add(`${op} ${a.status}`);
          for (const v of violations(op, a)) problems.push(`${label} → ${a.status}: ${v}`);
          for (const h of undocumentedHeaders(op, a)) problems.push(`${label} → ${a.status}: undocumented header ${h}`);
          if (c.method === 'HEAD' && c.status !== 431) {
            assert.equal(a.raw.length, 0, `${label}: a HEAD answer has no body`);
            const get = await send(base, 'GET', c.url, c.headers, c.body);
            const names = (x: Answer) =>
              Object.keys(x.headers)
                .filter((h) => !PROTOCOL.has(h))
                .sort();
            assert.equal(get.status, a.status, `${label}: HEAD answers as GET does`);
            assert.deepEqual(names(a), names(get), `${label}: HEAD sends the headers GET sends`);
          }
        }
        assert.deepEqual(problems, []);
      });
    }
  }
  it('provokes every status the document lists for every operation', () => {
    const listed: string[] = [];
    for (const item of Object.values<any>(doc.paths))
      for (const o of Object.values<any>(item))
        for (const s of Object.keys(o.responses)) listed.push(`${o.operationId} ${s}`);
    assert.deepEqual(listed.filter((x) => !provoked.has(x)).sort(), []);
    assert.equal(listed.length, provoked.size);
  });
  it("has an example answer for every operation's 200, and every example in the document fits its schema", () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const check = (schema: object, example: unknown, where: string) => {
      const validate = ajv.compile({ ...schema, components: doc.components });
      assert.ok(validate(example), `${where}: ${JSON.stringify(validate.errors)}`);
    };
    for (const [p, item] of Object.entries<any>(doc.paths))
      for (const [method, o] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${p}`;
        if (method !== 'head')
          assert.ok(o.responses['200'].content['application/json'].example, `${where} has an example`);
        for (const param of o.parameters ?? [])
          if (param.example !== undefined) check(param.schema, param.example, `${where} ${param.name}`);
        const body = o.requestBody?.content['application/json'];
        if (body) check(body.schema, body.example, `${where} body`);
      }
    for (const [name, schema] of Object.entries<any>(doc.components.schemas))
      for (const example of schema.examples ?? []) check(schema, example, name);
  });
  it('would catch an undocumented status, a body breaking its schema and a wrong media type (the check can fail)', () => {
    const ok = { 'content-type': 'application/json; charset=utf-8' };
    const body = Buffer.from(JSON.stringify({ statusCode: 418, error: "I'm a teapot", message: 'x' }));
    assert.notDeepEqual(violations('getProduct', { status: 418, headers: ok, raw: body }), []);
    const broken = Buffer.from(JSON.stringify({ statusCode: 404, error: 1 }));
    assert.notDeepEqual(violations('getProduct', { status: 404, headers: ok, raw: broken }), []);
    const text = { 'content-type': 'text/plain' };
    assert.notDeepEqual(violations('getProduct', { status: 404, headers: text, raw: Buffer.from('x') }), []);
    const badHeader = { ...ok, 'x-item-count': 'many' };
    const batch = Buffer.from('[null]');
    assert.notDeepEqual(violations('batchProducts', { status: 200, headers: badHeader, raw: batch }), []);
    const extra = { status: 200, headers: { ...ok, 'x-item-count': '1', 'x-powered-by': 'x' }, raw: batch };
    assert.deepEqual(undocumentedHeaders('batchProducts', extra), ['x-powered-by']);
  });
});
