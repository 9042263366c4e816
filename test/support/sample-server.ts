// Starts a real server on the bundled sample catalogue (data/sample, built once per test
// file into a temp dir) with a real SQLite access store, a plans file of tiny plans and a
// clock the test moves by hand, for the client's tests; and the client's refusal of a call.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import pino from 'pino';
import { CatalogueApiError } from '../../clients/typescript/src';
import { buildCatalogue } from '../../src/builder';
import { openAdmin } from '../../src/access';
import { startServer, type RunningServer } from '../../src/server';
import { PLANS } from './plans';

/** Plans whose limits a test reaches in one or two requests. */
export const TINY_PLANS = [PLANS.onePerSecond, PLANS.oneAMonth, PLANS.oneTrialRequest];

export interface SampleServer {
  url: string;
  catalogue: string;
  server: RunningServer;
  /** The access layer's clock: frozen, moved only by the test (rate windows are its seconds). */
  clock: { now: () => number; advance: (ms: number) => void };
  /** Creates a key on a plan (built-in or TINY_PLANS), optionally marked payment-required. */
  key(plan: string, opts?: { paymentRequired?: boolean }): Promise<string>;
  close(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../../..');

export async function buildSample(dir: string): Promise<string> {
  const file = path.join(dir, 'sample.db');
  await buildCatalogue({ sourceDir: path.join(ROOT, 'data/sample'), outFile: file, builtAt: '2026-03-14' });
  return file;
}

export async function startSampleServer(): Promise<SampleServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-sample-'));
  const catalogue = await buildSample(dir);
  const plans = path.join(dir, 'plans.json');
  fs.writeFileSync(plans, JSON.stringify(TINY_PLANS));
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  let now = Date.now();
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  const server = await startServer({
    catalogue,
    host: '127.0.0.1',
    port: 0,
    access: store,
    plans,
    clock,
    logger: pino({ level: 'silent' }),
  });
  return {
    url: server.url,
    catalogue,
    server,
    clock,
    key: async (plan, opts = {}) => {
      const admin = await openAdmin(store, { plansFile: plans, clock });
      try {
        const k = await admin.createKey(plan);
        if (opts.paymentRequired) await admin.setPaymentRequired(k.id, true);
        return k.key;
      } finally {
        await admin.close();
      }
    },
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fetch that sends for real and records each request's status and JSON body. */
export function recordingFetch(): {
  fetch: typeof fetch;
  statuses: number[];
  bodies: unknown[];
  maxInFlight: () => number;
} {
  const statuses: number[] = [];
  const bodies: unknown[] = [];
  let inFlight = 0;
  let max = 0;
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
    max = Math.max(max, ++inFlight);
    try {
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    } finally {
      inFlight--;
    }
  };
  return { fetch: recording, statuses, bodies, maxInFlight: () => max };
}

/** The client's error for a call that must be refused (fails the test when it succeeds). */
export async function refusal(p: Promise<unknown>): Promise<CatalogueApiError> {
  const err = await p.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof CatalogueApiError, String(err));
  return err;
}
