// `catalogue import` writes only what `catalogue build` accepts: every record is checked by
// the build's own checker (too long, too many entries, names equal ignoring case), and an
// input that cannot be read to its end or is not UTF-8 fails the run and leaves --out as
// it was. Each case is imported, then built.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { runImport } from '../src/importer';
import { buildCatalogue } from '../src/builder';
import { ingredient, readJsonlGz } from './support/source';

const ROOT = path.join(__dirname, '..', '..');
const DICTIONARY = path.join(ROOT, 'data', 'sample');
const CLI = path.join(ROOT, 'bin', 'catalogue.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'import-checks-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => {
  const dir = path.join(root, String(n++));
  fs.mkdirSync(dir);
  return dir;
};
const read = readJsonlGz;

const csv = (rows: string[][]) =>
  rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n') + '\n';
/** A long value as a message shows it: its JSON, cut to 77 characters and followed by "...". */
const shown = (v: string) => JSON.stringify(v).slice(0, 77) + '...';
const HEADER = ['barcode', 'name', 'brand', 'category', 'image_url', 'ingredients'];

test('rows the build would refuse are skipped with the build’s reason; what is written builds', async () => {
  const dir = scratch();
  const input = path.join(dir, 'feed.csv');
  const longUrl = 'https://img.example.org/' + 'a'.repeat(3_004);
  fs.writeFileSync(
    input,
    csv([
      HEADER,
      ['40060000000017', 'Good cream', 'Acme', '', '', 'Aqua, Glycerin'],
      ['40060000000024', 'x'.repeat(5 * 1024 * 1024), 'Acme', 'skin', '', 'Aqua'],
      ['40060000000031', 'Crème '.repeat(834).trim(), 'Acme', 'skin', '', 'Aqua'],
      [
        '40060000000048',
        'Kit',
        'Acme',
        'skin',
        '',
        Array.from({ length: 1_200 }, (_, i) => `Qzx Blend ${i}`).join(', '),
      ],
      ['40060000000055', 'Long photo', 'Acme', 'skin', longUrl, 'Aqua'],
      ['40060000000062', 'Крем', 'Чистая Линия', 'en:face-creams', '', 'Вода, Экстракт ромашки'],
      ['40060000000079', 'Мыло', 'Чистая Линия', 'en:soaps', '', 'ВОДА, экстракт РОМАШКИ'],
      ['40060000000086', 'Mint paste', 'Acme', 'en:toothpastes', '', 'Aqua'],
    ]),
  );
  const out = path.join(dir, 'src');
  const r = await runImport({ inputs: [input], out, dictionary: DICTIONARY, preset: 'generic' });
  assert.deepEqual(
    r.skipped.map((s) => s.replace(input, 'feed.csv')),
    [
      `feed.csv:3: name ${shown('x'.repeat(5 * 1024 * 1024))} is 5,242,880 characters long; the limit is 4,000`,
      `feed.csv:4: name ${shown('Crème '.repeat(834).trim())} is 5,003 characters long; the limit is 4,000`,
      'feed.csv:5: ingredients has 1,200 items; the limit is 1,000',
    ],
  );
  assert.ok(
    r.notes.includes(`${input}:6: image_url ${shown(longUrl)} is 3,028 characters long; the limit is 2,048 (dropped)`),
    r.notes.join('\n'),
  );
  assert.equal(r.products, 5);
  await buildCatalogue({ sourceDir: out, outFile: path.join(dir, 'c.db'), builtAt: '2026-11-25' });

  const products = read(out, 'products.jsonl.gz');
  const by = (name: string) => products.find((p) => p.name === name)!;
  type Entry = { id: string; label_name: string };
  const ids = (name: string) => (by(name).ingredients as Entry[]).map((e) => e.id);
  assert.deepEqual(ids('Мыло'), ids('Крем'), 'a printed name equal to another ignoring case is the same ingredient');
  assert.equal(by('Long photo').image_url, null);
  assert.equal(by('Mint paste').category, 'other', 'a category outside the six named groups');
  assert.equal(by('Good cream').category, null, 'no category given');
  const labelOnly = read(out, 'ingredients.jsonl.gz').filter((i) => /Qzx/.test(String(i.name)));
  assert.deepEqual(labelOnly, [], 'a skipped row adds no label-only ingredient');
});

/** Runs `catalogue import` on `input` into an --out that already holds a source; the old source must stay. */
function importFails(input: string, format?: string): { stderr: string; status: number | null } {
  const out = path.join(path.dirname(input), 'out');
  fs.mkdirSync(out, { recursive: true });
  const old = { 'ingredients.jsonl.gz': zlib.gzipSync('{}\n'), 'products.jsonl.gz': zlib.gzipSync('{}\n') };
  for (const [f, data] of Object.entries(old)) fs.writeFileSync(path.join(out, f), data);
  const args = [CLI, 'import', '--input', input, '--out', out, ...(format ? ['--format', format] : [])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.deepEqual(fs.readdirSync(out).sort(), Object.keys(old), '--out holds what it held');
  for (const [f, data] of Object.entries(old)) assert.deepEqual(fs.readFileSync(path.join(out, f)), data, f);
  return { stderr: run.stderr, status: run.status };
}

test('a truncated .csv.gz or .jsonl.gz fails the import with FILE:LINE: file is truncated and writes nothing', () => {
  const dir = scratch();
  const rows = Array.from({ length: 4_000 }, (_, i) => [
    '4006' + String(i).padStart(9, '0'),
    `Cream ${i}`,
    'Acme',
    '',
    '',
    'Aqua, Glycerin, Parfum',
  ]);
  const jsonl = rows
    .map(([barcode, name, brand, , , ingredients]) => JSON.stringify({ barcode, name, brand, ingredients }))
    .join('\n');
  for (const [name, text] of [
    ['feed.csv.gz', csv([HEADER, ...rows])],
    ['feed.jsonl.gz', jsonl],
  ]) {
    const gz = zlib.gzipSync(text);
    const file = path.join(dir, name);
    fs.writeFileSync(file, gz.subarray(0, gz.length >> 1));
    const { stderr, status } = importFails(file);
    assert.notEqual(status, 0, name);
    const m = new RegExp(
      `^catalogue: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+): file is truncated\\n$`,
    ).exec(stderr);
    assert.ok(m, `${name}: ${stderr}`);
    assert.ok(+m[1] > 100 && +m[1] < 4_000, `${name}: the line reached, got ${m[1]}`);
  }
});

test('a CSV that is not UTF-8 is refused at the line of the first bad byte, never read with replacement characters', () => {
  const dir = scratch();
  const file = path.join(dir, 'latin1.csv');
  const good = Buffer.from(csv([HEADER, ['40060000000017', 'Good cream', 'Acme', '', '', 'Aqua']]));
  const bad = Buffer.from('"40060000000024","Cr\xe8me","Acme","","","Aqua"\n', 'latin1');
  fs.writeFileSync(file, Buffer.concat([good, bad]));
  const { stderr, status } = importFails(file);
  assert.notEqual(status, 0);
  assert.match(stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: invalid UTF-8`));
  const tsv = path.join(dir, 'latin1.tsv.gz');
  fs.writeFileSync(tsv, zlib.gzipSync(Buffer.from('name\tingredients\nCr\xe8me\tAqua\n', 'latin1')));
  assert.match(importFails(tsv).stderr, /latin1\.tsv\.gz:2: invalid UTF-8/);
});

test('--format and --preset take only their listed choices', () => {
  const dir = scratch();
  const run = (...extra: string[]) =>
    spawnSync(process.execPath, [CLI, 'import', '--input', path.join(dir, 'x.csv'), '--out', dir, ...extra], {
      encoding: 'utf8',
    });
  assert.match(run('--format', 'xlsx').stderr, /argument 'xlsx' is invalid\. Allowed choices are csv, tsv, jsonl/);
  assert.match(run('--preset', 'amazon').stderr, /argument 'amazon' is invalid\. Allowed choices are obf, generic/);
});

test('the dictionary is checked as the build checks ingredients.jsonl: a bad one fails the import as FILE:LINE', async () => {
  const dir = scratch();
  const rec = (id: string, name: string) => JSON.stringify(ingredient(0, { id, name }));
  const dict = path.join(dir, 'dict');
  fs.mkdirSync(dict);
  fs.writeFileSync(
    path.join(dict, 'ingredients.jsonl'),
    [rec('aaaaaaaa-0000-4000-8000-000000000001', 'Aqua'), rec('aaaaaaaa-0000-4000-8000-000000000002', 'AQUA')].join(
      '\n',
    ),
  );
  const input = path.join(dir, 'feed.csv');
  fs.writeFileSync(input, csv([HEADER, ['40060000000017', 'Good cream', 'Acme', '', '', 'Aqua']]));
  await assert.rejects(
    runImport({ inputs: [input], out: path.join(dir, 'src'), dictionary: dict, preset: 'generic' }),
    {
      message: `${path.join(dict, 'ingredients.jsonl')}:2: name "AQUA" duplicates the name "Aqua" on line 1 (names are compared ignoring case); the dictionary must be a valid ingredients.jsonl`,
    },
  );
  assert.equal(fs.existsSync(path.join(dir, 'src')), false);
});
