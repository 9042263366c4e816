// Starts a real server (real HTTP on an ephemeral port, real SQLite access store) on
// the fixture catalogue, with one key per built-in plan, for the HTTP tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
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
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
