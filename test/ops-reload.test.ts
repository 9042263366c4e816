// Catalogue release without downtime, against a real `catalogue serve` process under
// concurrent load: a renamed-over file and SIGHUP switch catalogues with no failed
// request and no answer mixing the two files; bad files are refused, the old one serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { BUILT_AT, BULK_FIRST_ORD, productId } from './support/fixture';
import { buildVariant, opsDir, serveProcess, type ServeProcess } from './support/serve-process';
import { OVERWRITTEN } from '../src/ops/catalogue-reloader';
import { UNREADABLE } from '../src/catalogue/read-model';

const NEXT_BUILT_AT = '2026-04-01';
const SUFFIX = ' v2';

interface Load {
  stop(): Promise<{ requests: number; failures: string[] }>;
}

/** Workers that fetch a list, a 50-id batch and /health in a loop, checking each answer is wholly from one catalogue. */
function hammer(s: ServeProcess, key: string, counts: Record<string, number>, workers = 6): Load {
  let running = true;
  let requests = 0;
  const failures: string[] = [];
  const ids = Array.from({ length: 50 }, (_, i) => productId(BULK_FIRST_ORD + i));
  const oneVersion = (names: Array<string | null>, what: string) => {
    const v2 = names.filter((n) => n !== null && n.endsWith(SUFFIX)).length;
    if (v2 !== 0 && v2 !== names.length) failures.push(`${what} mixes catalogues: ${v2} of ${names.length} renamed`);
  };
  const check = async (p: Promise<Response>, what: string, verify: (body: any) => void) => {
    try {
      const res = await p;
      const text = await res.text();
      requests++;
      if (res.status !== 200) failures.push(`${what}: ${res.status} ${text}`);
      else verify(JSON.parse(text));
    } catch (err) {
      failures.push(`${what}: ${String((err as Error).cause ?? err)}`);
    }
  };
  const worker = async () => {
    while (running) {
      await check(
        fetch(`${s.url}/v1/products?brand=Bulk%20Brand&page=2`, { headers: { 'x-api-key': key } }),
        'filter',
        (b) =>
          oneVersion(
            b.results.map((r: { name: string }) => r.name),
            'filter page',
          ),
      );
      await check(
        fetch(`${s.url}/v1/products/batch`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ ids }),
        }),
        'batch',
        (b) =>
          oneVersion(
            b.map((p: { name: string }) => p.name),
            'batch',
          ),
      );
      await check(fetch(`${s.url}/health`), 'health', (b) => {
        if (counts[b.built_at] !== b.products) failures.push(`health mixes catalogues: ${JSON.stringify(b)}`);
      });
    }
  };
  const all = Array.from({ length: workers }, worker);
  return {
    stop: async () => {
      running = false;
      await Promise.all(all);
      return { requests, failures };
    },
  };
}

async function health(s: ServeProcess): Promise<{ products: number; built_at: string }> {
  return (await fetch(`${s.url}/health`)).json() as Promise<{ products: number; built_at: string }>;
}

async function until(cond: () => Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 50));
}

async function setup() {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  const first = await buildVariant(file, { builtAt: BUILT_AT });
  const next = await buildVariant(path.join(ops.dir, 'next.db'), { builtAt: NEXT_BUILT_AT, suffix: SUFFIX, drop: 10 });
  const counts = { [BUILT_AT]: first.products, [NEXT_BUILT_AT]: next.products };
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans]);
  return { ops, file, counts, s };
}

test('a catalogue renamed over the served file is served from then on, with no failed or mixed answer under load', async () => {
  const { ops, file, counts, s } = await setup();
  try {
    const load = hammer(s, ops.key, counts);
    await until(async () => (await health(s)).built_at === BUILT_AT);
    fs.renameSync(path.join(ops.dir, 'next.db'), file);
    await until(async () => (await health(s)).built_at === NEXT_BUILT_AT);
    const line = await s.waitForLog((l) => l.includes('catalogue swapped'));
    const { requests, failures } = await load.stop();
    assert.deepEqual(failures, []);
    assert.ok(requests > 0);
    assert.equal(JSON.parse(line).trigger, 'file replaced');
    assert.deepEqual(await health(s), {
      status: 'ok',
      products: counts[NEXT_BUILT_AT],
      ingredients: 16,
      built_at: NEXT_BUILT_AT,
    });
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('SIGHUP reloads the file at the --catalogue path under load with no failed request', async () => {
  const { ops, counts, s } = await setup();
  try {
    const load = hammer(s, ops.key, counts);
    await until(async () => (await health(s)).built_at === BUILT_AT);
    s.child.kill('SIGHUP');
    const line = await s.waitForLog((l) => l.includes('catalogue swapped'));
    await until(async () => (await health(s)).built_at === BUILT_AT);
    const { failures } = await load.stop();
    assert.deepEqual(failures, []);
    assert.equal(JSON.parse(line).trigger, 'SIGHUP');
    assert.equal(s.child.exitCode, null);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('a file that is not a catalogue, or of another schema version, is refused with a logged reason and the old one keeps serving', async () => {
  const { ops, file, counts, s } = await setup();
  try {
    const load = hammer(s, ops.key, counts, 3);
    const bad = path.join(ops.dir, 'bad.db');
    fs.writeFileSync(bad, 'this is not a catalogue\n');
    fs.renameSync(bad, file);
    const refused = JSON.parse(await s.waitForLog((l) => l.includes('catalogue refused')));
    assert.match(refused.reason, /not a catalogue/);

    const old = path.join(ops.dir, 'old-schema.db');
    await buildVariant(old, { builtAt: NEXT_BUILT_AT });
    const db = new Database(old);
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    fs.renameSync(old, file);
    const second = JSON.parse(
      await s.waitForLog((l) => l.includes('catalogue refused') && l.includes('schema version')),
    );
    assert.match(second.reason, /schema version 0 is not the supported version/);

    s.child.kill('SIGHUP');
    await s.waitForLog((l) => l.includes('"trigger":"SIGHUP"') && l.includes('catalogue refused'));
    const { failures } = await load.stop();
    assert.deepEqual(failures, []);
    assert.equal((await health(s)).built_at, BUILT_AT);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('a catalogue with no products is refused with a logged reason and the old one keeps serving', async () => {
  const { ops, file, s } = await setup();
  try {
    // The builder refuses (or may refuse) to write such a file, so one is made by emptying a built one.
    const empty = path.join(ops.dir, 'empty.db');
    await buildVariant(empty, { builtAt: NEXT_BUILT_AT });
    const db = new Database(empty);
    db.exec(
      'DELETE FROM barcodes; DELETE FROM products; DELETE FROM ingredient_products; DELETE FROM search_terms WHERE kind = 0',
    );
    db.close();
    fs.renameSync(empty, file);
    const outcome = JSON.parse(
      await s.waitForLog((l) => l.includes('catalogue refused') || l.includes('catalogue swapped')),
    );
    assert.equal(outcome.reason, 'the catalogue has no products');
    const h = await health(s);
    assert.equal(h.built_at, BUILT_AT);
    assert.ok(h.products > 0);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('a catalogue overwritten in place while served (cp instead of mv): 503 with the reason, /health included, never a 500; the operator is told to rename; serving resumes with the new file', async () => {
  const { ops, file, counts, s } = await setup();
  const statuses: Record<string, number> = {};
  const odd: string[] = [];
  let running = true;
  // Product and batch reads go on throughout, through the truncation too: a read of the file
  // as it is rewritten must fail at worst, never stop the process (with the file memory-mapped
  // such a read past the new end was a SIGBUS; read-model.ts).
  const batch = JSON.stringify({ ids: Array.from({ length: 50 }, (_, i) => productId(BULK_FIRST_ORD + i)) });
  const worker = async () => {
    while (running) {
      for (const p of [`/v1/products/${productId(BULK_FIRST_ORD + 3)}`, '/v1/products/batch', '/health']) {
        try {
          const post = p.endsWith('batch') ? { method: 'POST', body: batch } : {};
          const headers = { 'x-api-key': ops.key, ...(post.body ? { 'content-type': 'application/json' } : {}) };
          const res = await fetch(s.url + p, { headers, ...post });
          const text = await res.text();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          // A request read while the process was stopped may reach the truncated file before the
          // reloader learns of it: its read fails, a 503 that says so (read-model.ts UNREADABLE),
          // unless SQLite's page cache still holds what it reads (a 200).
          const message = res.status === 503 ? (JSON.parse(text) as { message: string }).message : undefined;
          if (message !== undefined && message !== OVERWRITTEN && message !== UNREADABLE) odd.push(text);
          if (res.status !== 200 && res.status !== 503) odd.push(`${p}: ${res.status} ${text}`);
        } catch (err) {
          odd.push(`${p}: ${String((err as Error).cause ?? err)}`);
        }
      }
    }
  };
  const load = Array.from({ length: 6 }, worker);
  try {
    await until(async () => (await health(s)).built_at === BUILT_AT);
    const next = fs.readFileSync(path.join(ops.dir, 'next.db'));
    // What `cp next.db catalogue.db` does, slowed down: the same file, truncated, then written.
    const fd = fs.openSync(file, 'r+');
    // The workers' next requests reach the process while it is stopped, before the truncation:
    // it reads them when it resumes, before it can learn that the file changed.
    s.child.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 200));
    fs.ftruncateSync(fd, 0);
    s.child.kill('SIGCONT');
    const told = JSON.parse(
      await within(Promise.race([s.waitForLog((l) => l.includes('overwritten in place')), died(s)]), 10_000),
    );
    assert.equal(told.level, 50);
    assert.match(told.msg, /renaming a complete file over the path \(mv/);
    const h = await fetch(`${s.url}/health`);
    assert.equal(h.status, 503);
    assert.equal(h.headers.get('retry-after'), '1');
    assert.deepEqual(await h.json(), { statusCode: 503, error: 'Service Unavailable', message: OVERWRITTEN });
    const p = await fetch(`${s.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': ops.key } });
    assert.equal(p.status, 503);
    fs.writeSync(fd, next, 0, next.length >> 1, 0);
    await new Promise((r) => setTimeout(r, 1500)); // a poll or two with the half-written file in place
    assert.equal((await fetch(`${s.url}/health`)).status, 503);
    fs.writeSync(fd, next, next.length >> 1, next.length - (next.length >> 1), next.length >> 1);
    fs.closeSync(fd);
    await until(async () => (await fetch(`${s.url}/health`)).status === 200);
    assert.deepEqual(await health(s), {
      status: 'ok',
      products: counts[NEXT_BUILT_AT],
      ingredients: 16,
      built_at: NEXT_BUILT_AT,
    });
    running = false;
    await Promise.all(load);
    assert.deepEqual(odd, []);
    assert.ok(statuses[503] > 0 && statuses[200] > 0, JSON.stringify(statuses));
    assert.equal(s.child.exitCode, null);
  } finally {
    running = false;
    await Promise.all(load);
    await s.stop();
    ops.cleanup();
  }
});

/** Rejects when the service's process ends (a crash while this test expects it serving). */
async function died(s: ServeProcess): Promise<never> {
  const { code, signal } = await s.exited;
  throw new Error(`the service stopped (${signal ?? `exit code ${code}`})`);
}

/** Resolves when `p` does, or rejects after `ms` (a log line that never comes fails the test instead of hanging it). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>(
    (_r, reject) => (timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
