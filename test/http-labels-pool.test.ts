// POST /v1/labels/analyze runs on the label worker threads of a real `catalogue serve`
// process (src/catalogue/label-pool.ts): with one thread and no queue, labels sent while
// one is analysed are answered 503 in the error shape with Retry-After, and once it is
// done labels are admitted again; after a catalogue swap (rename over the path, SIGHUP)
// labels are joined to the new catalogue's ingredients.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCatalogue } from '../src/builder';
import { BUILT_AT, ING, ingredients, products } from './support/fixture';
import { writeSource } from './support/source';
import { buildVariant, opsDir, serveProcess, type ServeProcess } from './support/serve-process';
import { ADVERSARIAL_SHAPES } from '../bench/label-shapes';

const NEW_NAME = 'Unobtainium Extract';

function analyse(s: ServeProcess, key: string, text: string): Promise<Response> {
  return fetch(`${s.url}/v1/labels/analyze`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
}

/** The fixture with the ingredient Salicylic Acid renamed NEW_NAME (same id), built at `builtAt`. */
async function buildRenamed(file: string, builtAt: string): Promise<void> {
  const src = `${file}.source`;
  const renamed = ingredients.map((i, ord) => (ord === ING.salicylic ? { ...i, name: NEW_NAME } : i));
  writeSource(src, { ingredients: renamed, products });
  await buildCatalogue({ sourceDir: src, outFile: file, builtAt });
  fs.rmSync(src, { recursive: true, force: true });
}

/** The ingredient name each entry joined to (null: unrecognised). */
async function joinedNames(res: Response): Promise<(string | null)[]> {
  assert.equal(res.status, 200);
  const body = (await res.json()) as { entries: { ingredient: { name: string } | null }[] };
  return body.entries.map((e) => e.ingredient?.name ?? null);
}

test('with one label thread and no queue, a label sent while another is analysed is answered 503 with Retry-After, then labels are admitted again; the thread runs at nice 19 (Linux)', async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: BUILT_AT });
  const s = await serveProcess([
    '--catalogue',
    file,
    '--access',
    ops.store,
    '--plans',
    ops.plans,
    '--label-threads',
    '1',
    '--label-queue',
    '0',
  ]);
  try {
    const long = ADVERSARIAL_SHAPES['distinct unknown names'](100_000).slice(0, 100_000);
    const expected = await (await analyse(s, ops.key, long)).text();
    // Sent together: the first admitted holds the one place while its thread works.
    let busy: Response | undefined;
    for (let round = 0; round < 10 && busy === undefined; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => analyse(s, ops.key, long)));
      for (const res of answers) {
        if (res.status === 200) assert.equal(await res.text(), expected);
        else if (busy === undefined) busy = res;
        else assert.equal(res.status, 503, await res.text());
      }
    }
    assert.ok(busy, 'no label was refused while the one thread was busy');
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get('retry-after'), '1');
    const body = (await busy.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(body.statusCode, 503);
    assert.equal(body.error, 'Service Unavailable');
    assert.match(String(body.message), /label analysis is busy.*retry shortly/);
    // Every place was given back: one label at a time is admitted again.
    assert.deepEqual(await joinedNames(await analyse(s, ops.key, 'Aqua, Glycerin')), ['Aqua', 'Glycerin']);
    assert.equal(await (await analyse(s, ops.key, long)).text(), expected);
    if (process.platform === 'linux') {
      // Threads below the request thread's priority (the label thread, and the password
      // hashing thread) run at nice 19, none in between; the request thread keeps its priority.
      const pid = s.child.pid!;
      const nice = (tid: string) =>
        Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
      const lowered = [...new Set(fs.readdirSync(`/proc/${pid}/task`).map(nice))].filter((n) => n !== 0);
      assert.deepEqual(lowered, [19], 'every lowered thread, the label thread among them, runs at nice 19');
      assert.equal(nice(String(pid)), 0, 'the request thread is not lowered');
    }
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test("after a catalogue swap (rename over the path, then SIGHUP), labels are joined to the new catalogue's ingredients", async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: BUILT_AT });
  await buildRenamed(path.join(ops.dir, 'next.db'), '2026-04-01');
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans]);
  try {
    const label = `Aqua, ${NEW_NAME}`;
    assert.deepEqual(await joinedNames(await analyse(s, ops.key, label)), ['Aqua', null]);
    fs.renameSync(path.join(ops.dir, 'next.db'), file);
    await s.waitForLog((l) => l.includes('catalogue swapped'));
    assert.deepEqual(await joinedNames(await analyse(s, ops.key, label)), ['Aqua', NEW_NAME]);
    s.child.kill('SIGHUP');
    await s.waitForLog((l) => l.includes('"trigger":"SIGHUP"'));
    assert.deepEqual(await joinedNames(await analyse(s, ops.key, label)), ['Aqua', NEW_NAME]);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});
