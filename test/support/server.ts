// Starts a real server (real HTTP on an ephemeral port, real SQLite access store) on
// the fixture catalogue, with one key per built-in plan, for the HTTP tests.
// startTestApp() is the same server with `get` and `fetch` going through fastify's
// app.inject() (no socket), for tests of plain requests and answers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino, { type Logger } from 'pino';
import { startServer, type RunningServer } from '../../src/server';
import { openAdmin } from '../../src/access';
import { buildFixture } from './fixture';

export interface TestServer {
  url: string;
  keys: Record<'trial' | 'sandbox' | 'starter' | 'pro', { id: string; key: string }>;
  server: RunningServer;
  store: string;
  dir: string;
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  /** fetch() of a path and query on this server. */
  fetch(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** `logger`: where the server logs (silent by default). */
export async function startTestServer(logger: Logger = pino({ level: 'silent' })): Promise<TestServer> {
  const { file, dir } = await buildFixture();
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const admin = await openAdmin(store);
  const keys = {} as TestServer['keys'];
  for (const plan of ['trial', 'sandbox', 'starter', 'pro'] as const) {
    const k = await admin.createKey(plan);
    keys[plan] = { id: k.id, key: k.key };
  }
  await admin.close();
  const server = await startServer({ catalogue: file, host: '127.0.0.1', port: 0, access: store, logger });
  return {
    url: server.url,
    keys,
    server,
    store,
    dir,
    get: (p, headers = { 'x-api-key': keys.pro.key }) => fetch(server.url + p, { headers }),
    fetch: (p, init) => fetch(server.url + p, init),
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** startTestServer(), with requests made through app.inject() instead of a socket. */
export async function startTestApp(logger?: Logger): Promise<TestServer> {
  const s = await startTestServer(logger);
  const call = (p: string, init?: RequestInit) => inject(s.server.app, p, init);
  return { ...s, get: (p, headers = { 'x-api-key': s.keys.pro.key }) => call(p, { headers }), fetch: call };
}

/**
 * The answer app.inject() gives to what fetch(path, init) would send, as a fetch
 * Response. Like fetch, a string body without a content type is sent as text/plain.
 */
async function inject(app: FastifyInstance, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  if (typeof init.body === 'string' && headers['content-type'] === undefined)
    headers['content-type'] = 'text/plain;charset=UTF-8';
  const method = (init.method ?? 'GET') as InjectOptions['method'];
  const res = await app.inject({ method, url, headers, payload: init.body as InjectOptions['payload'] });
  const out = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) out.append(k, String(one));
  }
  const empty = method === 'HEAD' || [204, 205, 304].includes(res.statusCode);
  return new Response(empty ? null : res.rawPayload, {
    status: res.statusCode,
    statusText: res.statusMessage,
    headers: out,
  });
}
