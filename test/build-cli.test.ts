// `npx catalogue build` through the real command line: options and environment
// variables, exit status, the summary line, and the error listing on stderr.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { entry, ingredient, product, writeSource } from './support/source';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'catalogue.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-cli-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => path.join(root, String(n++));

function catalogue(args: string[], env: Record<string, string> = {}) {
  const clean = { ...process.env };
  for (const k of ['CATALOGUE_SOURCE', 'CATALOGUE_DB', 'BUILT_AT']) delete clean[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...clean, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const VALID = {
  ingredients: [ingredient(0), ingredient(1)],
  products: [product(0, { barcodes: ['12345678'], ingredients: [entry(0), entry(1)] })],
};

test('build with options exits 0 and prints one summary line on stderr', () => {
  const dir = scratch();
  writeSource(dir, VALID);
  const out = path.join(dir, 'out', 'c.db');
  const r = catalogue(['build', '--source', dir, '--out', out, '--built-at', '2024-06-30']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    new RegExp(`^built ${out.replace(/[.\\]/g, '\\$&')}: 1 product, 2 ingredients, 1 barcode in \\d+\\.\\d s\\n$`),
  );
  const db = new Database(out, { readonly: true });
  assert.deepEqual(db.prepare("SELECT value FROM meta WHERE key = 'built_at'").get(), { value: '2024-06-30' });
  db.close();
});

test('build takes its options from CATALOGUE_SOURCE, CATALOGUE_DB and BUILT_AT', () => {
  const dir = scratch();
  writeSource(dir, VALID);
  const out = path.join(dir, 'c.db');
  const r = catalogue(['build'], { CATALOGUE_SOURCE: dir, CATALOGUE_DB: out, BUILT_AT: '2020-01-02' });
  assert.equal(r.status, 0, r.stderr);
  const db = new Database(out, { readonly: true });
  assert.deepEqual(db.prepare("SELECT value FROM meta WHERE key = 'built_at'").get(), { value: '2020-01-02' });
  db.close();
});

test('a bad source prints the first 100 errors, a count of the rest and a one-line reason, and exits non-zero', () => {
  const dir = scratch();
  writeSource(dir, {
    ingredients: VALID.ingredients,
    products: Array.from({ length: 150 }, (_, i) => product(i, { category: 'bad' })),
  });
  const out = path.join(dir, 'c.db');
  fs.writeFileSync(out, 'previous');
  const r = catalogue(['build', '--source', dir, '--out', out]);
  assert.notEqual(r.status, 0);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 102);
  const file = path.join(dir, 'products.jsonl');
  assert.equal(
    lines[0],
    `${file}:1: category "bad" is not one of skincare, suncare, makeup, haircare, body/bath, fragrance, other`,
  );
  assert.ok(lines[99].startsWith(`${file}:100: category "bad"`));
  assert.equal(lines[100], '... and 50 more errors');
  assert.equal(lines[101], `catalogue: build failed: 150 errors in ${dir}; ${out} was left untouched`);
  assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['c.db', 'ingredients.jsonl', 'products.jsonl']);
});

test('a --built-at that is not a real date fails with a clear message and writes nothing', () => {
  const dir = scratch();
  writeSource(dir, VALID);
  const out = path.join(dir, 'c.db');
  const r = catalogue(['build', '--source', dir, '--out', out, '--built-at', '2023-02-29']);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'catalogue: --built-at "2023-02-29" is not a real date in the form YYYY-MM-DD\n');
  assert.ok(!fs.existsSync(out));
});

test('build without --source fails', () => {
  const r = catalogue(['build', '--out', path.join(root, 'never.db')]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--source/);
});
