// `catalogue import`: Open Beauty Facts exports (tab-separated CSV and JSONL dump) and a
// retailer CSV with a column mapping, through build and a served catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import pino from 'pino';
import { runImport } from '../src/importer';
import { buildCatalogue } from '../src/builder';
import { startServer } from '../src/server';
import { openAdmin } from '../src/access';
import { readJsonlGz } from './support/source';

const ROOT = path.join(__dirname, '..', '..');
const FIX = path.join(ROOT, 'test', 'fixtures', 'import');
const OBF_CSV = path.join(FIX, 'en.openbeautyfacts.org.products.csv');
const OBF_JSONL = path.join(FIX, 'openbeautyfacts-products.jsonl.gz');
const RETAILER = path.join(FIX, 'retailer.csv');
const DICTIONARY = path.join(ROOT, 'data', 'sample');
const CLI = path.join(ROOT, 'bin', 'catalogue.js');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'import-test-'));
const read = (dir: string, f: string) => readJsonlGz<any>(dir, f); // records as written, fields read freely

test('the OBF preset reads both export formats, keeps what the contract allows and reports the rest as FILE:LINE', async () => {
  const out = tmp();
  const r = await runImport({ inputs: [OBF_CSV, OBF_JSONL], out, dictionary: DICTIONARY, preset: 'obf' });
  assert.equal(r.rows, 10);
  assert.equal(r.products, 7);
  // After "not JSON" come the runtime's own words, which V8 rewords between releases.
  const skipped = r.skipped.map((line) => line.replace(/: not JSON \(.+\)$/, ': not JSON (…)'));
  assert.deepEqual(skipped, [
    `${OBF_CSV}:5: no name, brand or ingredient text`,
    `${OBF_CSV}:7: the same product as ${OBF_CSV}:6 (same barcode, or same brand and name)`,
    `${OBF_JSONL}:1: the same product as ${OBF_CSV}:2 (same barcode, or same brand and name)`,
    `${OBF_JSONL}:3: not JSON (…)`,
    `${OBF_JSONL}:5: not a JSON object`,
  ]);

  assert.ok(r.notes.includes(`${OBF_CSV}:8: barcode "12345" is not 8 to 14 digits (dropped)`));
  assert.equal(r.joined, r.entries, 'every entry of these labels joins to the bundled dictionary');
  const products = read(out, 'products.jsonl.gz');
  const by = (name: string) => products.find((p: { name: string }) => p.name === name);
  const loreal = by('Hydra Genius Aloe Water');
  assert.deepEqual(
    { brand: loreal.brand, category: loreal.category, origin: loreal.origin, barcodes: loreal.barcodes },
    { brand: "L'Oréal Paris", category: 'skincare', origin: 'France', barcodes: ['3600523614455'] },
  );
  assert.deepEqual(
    loreal.ingredients.slice(0, 2).map((e: { label_name: string }) => e.label_name),
    ['Aqua/Water', 'Glycerin'],
  );
  const sun = by('Anthelios UVMune 400 Fluide Invisible SPF50+');
  assert.equal(sun.category, 'suncare');
  assert.equal(sun.origin, 'France', 'the manufacturing place, not the countries where it is sold');
  assert.equal(sun.image_url, null);
  assert.equal(sun.ingredients.length, 11, 'a list separated by bullets');
  const soap = by("Savon à l'huile d'olive");
  assert.deepEqual(
    soap.ingredients.map((e: { label_name: string }) => e.label_name),
    ['Sodium Olivate', 'Aqua', 'Sodium Chloride', 'Sodium Hydroxide'],
  );
  const acne = by('Oil-Free "Acne Wash" Daily Scrub');
  assert.deepEqual(acne.ingredients[0], {
    id: acne.ingredients[0].id,
    label_name: 'Salicylic Acid (2%)',
    concentration: 2,
  });
  assert.equal(by('Shower Gel').category, 'body/bath');
  fs.rmSync(out, { recursive: true, force: true });
});

test('re-importing the same rows keeps every id; the output builds, serves and answers by barcode', async () => {
  const [a, b] = [tmp(), tmp()];
  await runImport({ inputs: [OBF_CSV, OBF_JSONL], out: a, dictionary: DICTIONARY, preset: 'obf' });
  await runImport({ inputs: [OBF_CSV, OBF_JSONL], out: b, dictionary: DICTIONARY, preset: 'obf' });
  for (const f of ['products.jsonl.gz', 'ingredients.jsonl.gz']) assert.deepEqual(read(a, f), read(b, f), f);
  const file = path.join(a, 'catalogue.db');
  await buildCatalogue({ sourceDir: a, outFile: file, builtAt: '2026-11-22' });
  const store = `sqlite:${path.join(a, 'access.sqlite')}`;
  const admin = await openAdmin(store);
  const { key } = await admin.createKey('pro');
  await admin.close();
  const server = await startServer({
    catalogue: file,
    host: '127.0.0.1',
    port: 0,
    access: store,
    logger: pino({ level: 'silent' }),
  });
  try {
    const res = await fetch(`${server.url}/v1/products/barcode/03600523614455`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 200);
    const p = (await res.json()) as {
      name: string;
      contains_fragrance: boolean;
      ingredients: { name: string; position: number }[];
    };
    assert.equal(p.name, 'Hydra Genius Aloe Water');
    assert.equal(p.contains_fragrance, true);
    assert.deepEqual(
      p.ingredients.slice(0, 2).map((i) => i.name),
      ['Aqua', 'Glycerin'],
    );
  } finally {
    await server.close();
    for (const d of [a, b]) fs.rmSync(d, { recursive: true, force: true });
  }
});

test('a retailer CSV imports through --map: concentrations, kits as one list, footnotes and broken rows reported', () => {
  const out = tmp();
  const run = execFileSync(
    process.execPath,
    [
      CLI,
      'import',
      '--input',
      RETAILER,
      '--out',
      out,
      '--map',
      'barcode=,name=product_title,brand=maker,category=dept,image_url=photo,origin=made_in,ingredients=inci',
    ],
    { encoding: 'utf8' },
  );
  assert.match(run, /- products written: 2 \(0 without ingredient text\)/);
  assert.match(run, new RegExp(`${RETAILER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: `));
  const [serum, kit] = read(out, 'products.jsonl.gz');
  assert.deepEqual(
    [serum.origin, serum.category, serum.image_url, serum.ingredients[0].concentration],
    ['Canada', 'skincare', 'https://cdn.example.org/a1.jpg', 15],
  );
  assert.deepEqual(
    kit.ingredients.map((e: { label_name: string }) => e.label_name),
    [
      'Mica',
      'Talc',
      'Dimethicone',
      'CI 77891',
      'Ricinus Communis (Castor) Seed Oil',
      'Parfum (Fragrance)',
      'Tocopherol',
    ],
  );
  fs.rmSync(out, { recursive: true, force: true });
});

test('a mapping naming an unknown field, or input with no usable row, fails with a reason and writes nothing', () => {
  const out = tmp();
  const bad = spawnSync(
    process.execPath,
    [CLI, 'import', '--input', RETAILER, '--out', out, '--map', 'title=product_title'],
    { encoding: 'utf8' },
  );
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--map: "title=product_title" is not field=column/);
  const empty = path.join(out, 'empty.jsonl');
  fs.writeFileSync(empty, '{"sku": 1}\n');
  const none = spawnSync(process.execPath, [CLI, 'import', '--input', empty, '--out', path.join(out, 'src')], {
    encoding: 'utf8',
  });
  assert.notEqual(none.status, 0);
  assert.match(
    none.stderr,
    /no products: every row was skipped \(.*empty\.jsonl:1: no name, brand or ingredient text\)/,
  );
  assert.equal(fs.existsSync(path.join(out, 'src')), false);
  fs.rmSync(out, { recursive: true, force: true });
});

test('a colour index or a CAS number printed in a name decides its join, as in the served analysis', async () => {
  // Real label strings (the sample's Sephora labels); the CAS number is the only thing
  // that names Verdyl Acetate in the second (it joined nothing before the importer read
  // the dictionary's cas_number).
  const dir = tmp();
  const input = path.join(dir, 'labels.csv');
  fs.writeFileSync(
    input,
    'name,brand,ingredients\n' +
      '"Glow Balm",Example,"Titanium Dioxide (CI 77891), Mica"\n' +
      '"Candle Scent",Example,"4,5,6,7,7a-Hexahydro-4,7- Methano-1(3)- Inden-6-Yl- Acetate 5413-60-5, Hexyl Acetate 142-92-7"\n',
  );
  const out = path.join(dir, 'out');
  const r = await runImport({ inputs: [input], out, dictionary: DICTIONARY, preset: 'generic' });
  assert.equal(r.joined, r.entries);
  const names = new Map(read(out, 'ingredients.jsonl.gz').map((i: { id: string; name: string }) => [i.id, i.name]));
  const joined = read(out, 'products.jsonl.gz').map((p: { ingredients: { id: string }[] }) =>
    p.ingredients.map((e) => names.get(e.id)),
  );
  assert.deepEqual(joined, [
    ['CI 77891', 'Mica'],
    ['Verdyl Acetate', 'Hexyl Acetate'],
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});
