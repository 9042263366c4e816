// catalogue build, faults in the source files themselves (issue 12): invalid UTF-8,
// an empty products file, truncated gzip, over-long fields and lines, and the
// temporaries a killed build leaves behind. Each is reported as FILE:LINE or cleaned
// up, and the output file is never touched by a failed build.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { buildCatalogue, BuildError } from '../src/builder';
import { MAX_LINE_BYTES } from '../src/source/lines';
import { entry, ingredient, product, writeLines, writeSource } from './support/source';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-faults-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => path.join(root, String(n++));

const INGREDIENTS = [ingredient(0), ingredient(1)];
const PRODUCTS = [product(0, { ingredients: [entry(0), entry(1)] })];

async function errorsOf(dir: string, allowEmpty = false): Promise<string[]> {
  const out = path.join(dir, 'c.db');
  const err = await buildCatalogue({ sourceDir: dir, outFile: out, allowEmpty }).then(
    () => assert.fail('the build should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof BuildError, `expected a BuildError, got ${String(err)}`);
  assert.ok(!fs.existsSync(out), 'no catalogue is written');
  return err.errors.map((e) => e.replace(dir + path.sep, ''));
}

test('a line that is not valid UTF-8 is rejected with FILE:LINE, not stored as U+FFFD', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const good = JSON.stringify(product(1, { ingredients: [entry(0, { label_name: 'WATER' })] }));
  const [before, afterText] = good.split('WATER');
  const bad = Buffer.concat([Buffer.from(before + 'W'), Buffer.from([0xc3]), Buffer.from('ATER' + afterText + '\n')]);
  fs.appendFileSync(path.join(dir, 'products.jsonl'), bad);
  const errors = await errorsOf(dir);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^products\.jsonl:2: invalid UTF-8 at byte \d+ of the line$/);
});

test('an empty products file is refused unless allowEmpty is given', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: [] });
  assert.deepEqual(await errorsOf(dir), [
    'products.jsonl:1: no products: an empty catalogue is refused (build with --allow-empty to allow it)',
  ]);
  const s = await buildCatalogue({ sourceDir: dir, outFile: path.join(dir, 'c.db'), allowEmpty: true });
  assert.equal(s.products, 0);
});

test('the build command refuses an empty source and accepts it with --allow-empty', () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: [] });
  const bin = path.join(__dirname, '..', '..', 'bin', 'catalogue.js');
  const args = [bin, 'build', '--source', dir, '--out', path.join(dir, 'c.db'), '--built-at', '2024-01-01'];
  const refused = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /products\.jsonl:1: no products/);
  const allowed = spawnSync(process.execPath, [...args, '--allow-empty'], { encoding: 'utf8' });
  assert.equal(allowed.status, 0, allowed.stderr);
});

test('a truncated gzip file is reported at the line reached', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const many = Array.from({ length: 3000 }, (_, i) => product(i, { ingredients: [entry(i % 2)] }));
  const file = writeLines(path.join(dir, 'products.jsonl'), many, { gzip: true });
  fs.rmSync(path.join(dir, 'products.jsonl'));
  const whole = fs.readFileSync(file);
  fs.writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
  const errors = await errorsOf(dir);
  assert.equal(errors.length, 1, errors.join('\n'));
  const m = /^products\.jsonl\.gz:(\d+): cannot read: /.exec(errors[0]);
  assert.ok(m, errors[0]);
  assert.ok(Number(m[1]) > 1 && Number(m[1]) <= 3000, errors[0]);
  assert.equal(zlib.gunzipSync(whole).toString().split('\n').length, 3001);
});

test('fields beyond the documented limits are rejected, naming the field', async () => {
  const dir = scratch();
  const products = [...PRODUCTS, product(1, { name: 'x'.repeat(4_001), ingredients: [entry(0)] })];
  writeSource(dir, { ingredients: [...INGREDIENTS, ingredient(2, { other_names: 'y'.repeat(10_001) })], products });
  const errors = await errorsOf(dir);
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(
    errors[0],
    /^ingredients\.jsonl:3: other_names "y+\.\.\. is 10,001 characters long; the limit is 10,000$/,
  );
  assert.match(errors[1], /^products\.jsonl:2: name "x+\.\.\. is 4,001 characters long; the limit is 4,000$/);
});

test('a line longer than the reader cap is reported and skipped, the lines after it still checked', async () => {
  const dir = scratch();
  const huge = JSON.stringify(product(1, { name: 'z'.repeat(MAX_LINE_BYTES) }));
  writeSource(dir, { ingredients: INGREDIENTS, products: [...PRODUCTS, huge, product(2, { category: 'nope' })] });
  const errors = await errorsOf(dir);
  assert.deepEqual(errors.length, 2, errors.join('\n'));
  assert.equal(errors[0], `products.jsonl:2: line is longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes`);
  assert.match(errors[1], /^products\.jsonl:3: category "nope" is not one of/);
});

test('temporaries of a killed build are removed by the next build; live ones and the output are kept', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const out = path.join(dir, 'c.db');
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = Number(dead.stdout);
  const stale = [`c.db.tmp-${deadPid}`, `c.db.tmp-${deadPid}-journal`];
  const live = `c.db.tmp-${process.ppid}`;
  for (const f of [...stale, live]) fs.writeFileSync(path.join(dir, f), 'leftover');
  await buildCatalogue({ sourceDir: dir, outFile: out });
  const left = fs.readdirSync(dir).sort();
  for (const f of stale) assert.ok(!left.includes(f), `${f} was not removed`);
  assert.ok(left.includes(live), 'the temporary of a live process is kept');
  assert.ok(left.includes('c.db'));
});
