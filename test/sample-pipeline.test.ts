// The sample-data pipeline end to end on tiny excerpts of every raw format
// (test/fixtures/raw-excerpts): joins, dedupe, tags, scores, validity per
// catalogue-source.md, determinism; and validity of the committed data/sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { runPipeline, PipelineResult } from '../src/sample/pipeline';
import { writeSource } from '../src/source/writer';
import { renderReport } from '../src/sample/report';
import { isValidGtin } from '../src/source/barcodes';
import { gtinKey, isBarcode, isUuid } from '../src/shared/text';

const ROOT = path.join(__dirname, '..', '..');
const RAW = path.join(ROOT, 'test', 'fixtures', 'raw-excerpts');
const result = runPipeline(RAW);
const byName = new Map(result.ingredients.map((i) => [i.name, i]));
const byId = new Map(result.ingredients.map((i) => [i.id, i]));

const SCORE = /^([0-5])(-([0-5]))?$/;
const RATINGS = new Set([null, 'direct actives', 'supporting actives', 'sensitizers']);
const TAGS = new Set([null, 'fragrance', 'drying_alcohol', 'parabens', 'sulfates', 'silicones']);
const CATEGORIES = new Set([null, 'skincare', 'suncare', 'makeup', 'haircare', 'body/bath', 'fragrance', 'other']);

/** Check the records against catalogue-source.md; returns the list of problems. */
function problems(r: Pick<PipelineResult, 'ingredients' | 'products'>): string[] {
  const out: string[] = [];
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const i of r.ingredients) {
    if (!isUuid(i.id) || ids.has(i.id.toLowerCase())) out.push(`ingredient id ${i.id}`);
    ids.add(i.id.toLowerCase());
    if (i.name.trim() === '' || names.has(i.name.toLowerCase())) out.push(`ingredient name ${i.name}`);
    names.add(i.name.toLowerCase());
    if (!RATINGS.has(i.rating) || !TAGS.has(i.category)) out.push(`enum ${i.name}`);
    for (const s of [i.irritancy, i.comedogenicity]) {
      const m = s === null ? null : SCORE.exec(s);
      if (s !== null && (!m || (m[3] !== undefined && Number(m[1]) >= Number(m[3])))) out.push(`score ${i.name} ${s}`);
    }
    if (new Set(i.functions).size !== i.functions.length || i.functions.some((f) => f === ''))
      out.push(`functions ${i.name}`);
    for (const v of [i.cas_number, i.ec_number, i.ph_eur_name, i.iupac_name, i.other_names])
      if (v !== null && v.trim() === '') out.push(`empty ${i.name}`);
  }
  const pids = new Set<string>();
  const keys = new Set<string>();
  for (const p of r.products) {
    if (!isUuid(p.id) || pids.has(p.id)) out.push(`product id ${p.id}`);
    pids.add(p.id);
    if (!CATEGORIES.has(p.category)) out.push(`category ${p.category}`);
    if (p.image_url !== null && !/^https?:\/\//.test(p.image_url)) out.push(`image ${p.image_url}`);
    for (const b of p.barcodes) {
      if (!isBarcode(b) || !isValidGtin(b) || keys.has(gtinKey(b))) out.push(`barcode ${b}`);
      keys.add(gtinKey(b));
    }
    for (const e of p.ingredients) {
      const c = e.concentration;
      if (!ids.has(e.id) || e.label_name.trim() === '' || (c !== null && !(c > 0 && c <= 100)))
        out.push(`entry ${p.name} ${e.label_name}`);
    }
  }
  return out;
}

test('the excerpt catalogue is valid per catalogue-source.md', () => {
  assert.deepEqual(problems(result), []);
});

test('every CosIng entry becomes an ingredient; duplicate names ignoring case merge into one, and one substance into one record', () => {
  assert.equal(result.stats.cosingRows, 31);
  assert.equal(result.stats.cosingIngredients, 29);
  assert.deepEqual(result.stats.mergedDuplicateNames, ['METHOXYETHANOL']);
  // WATER is a curated alias of AQUA and shares its CAS number: one record, WATER its synonym.
  assert.deepEqual(result.stats.dictionary.merged, [['WATER', 'AQUA']]);
  assert.ok(!byName.has('Water') && /\bWater\b/.test(byName.get('Aqua')?.other_names ?? ''));
  assert.ok(
    byName.has('Glycerin') &&
      byName.has('C12-15 Alkyl Benzoate') &&
      byName.has('PEG-40 Hydrogenated Castor Oil') &&
      byName.has('CI 77491'),
  );
});

test('ingredient fields come from CosIng, CosDNA, Fulton, the annexes and the editorial lists', () => {
  const glycerin = byName.get('Glycerin')!;
  assert.equal(glycerin.cas_number, '56-81-5');
  assert.equal(glycerin.ph_eur_name, 'Glycerolum');
  assert.equal(glycerin.rating, 'supporting actives');
  assert.equal(glycerin.irritancy, '0');
  assert.ok(glycerin.functions.includes('humectant'));
  assert.match(glycerin.other_names ?? '', /Glycerol/);
  const dimethicone = byName.get('Dimethicone')!;
  assert.equal(dimethicone.ec_number, null);
  assert.equal(dimethicone.category, 'silicones');
  const ipm = byName.get('Isopropyl Myristate')!;
  assert.equal(ipm.comedogenicity, '5'); // CosDNA [5] and Fulton 5 agree
  assert.equal(byName.get('Cocos Nucifera Oil')!.comedogenicity, '4'); // Fulton "Coconut Oil" via the alias table
  assert.equal(byName.get('Linalool')!.rating, 'sensitizers');
  assert.equal(byName.get('Linalool')!.category, 'fragrance');
  assert.equal(byName.get('Methylparaben')!.category, 'parabens');
  assert.equal(byName.get('Sodium Laureth Sulfate')!.category, 'sulfates');
  assert.equal(byName.get('Zinc Sulfate')!.category, null);
  assert.equal(byName.get('Alcohol Denat.')!.category, 'drying_alcohol');
  assert.equal(byName.get('Titanium Dioxide')!.rating, 'direct actives'); // Annex VI UV filter
});

test('products are deduplicated across files by brand and name, keep label order and printed names', () => {
  const tatcha = result.products.filter((p) => p.brand === 'Tatcha' && p.name === 'The Water Cream');
  assert.equal(tatcha.length, 1);
  assert.match(tatcha[0].image_url ?? '', /^https:\/\/www\.sephora\.com\//);
  const protini = result.products.find((p) => p.name === 'Protini™ Polypeptide Moisturizer')!;
  assert.deepEqual(
    protini.ingredients.slice(0, 3).map((e) => e.label_name),
    ['Water/Aqua/Eau', 'Dicaprylyl Carbonate', 'Glycerin'],
  );
  assert.equal(protini.ingredients[0].id, byName.get('Aqua')!.id);
  assert.equal(protini.origin, 'United States');
  const junk = result.products.find((p) => p.ingredients.length === 0)!;
  assert.ok(junk, 'the "No Info" cell gives a product with no list');
  assert.ok(result.products.filter((p) => p.category === 'haircare').length >= 2);
  // A product_info row that repeats a kept product (same brand and name) is dropped, not added twice.
  assert.ok(result.stats.perSource['sephora-product-info'].read > 0);
  const keys = result.products.map((p) => `${p.brand}|${p.name}`.toLowerCase());
  assert.equal(new Set(keys).size, keys.length);
});

test('label names that match no CosIng entry become label-only ingredients; nothing is dropped', () => {
  const entries = result.products.reduce((s, p) => s + p.ingredients.length, 0);
  const joined = Object.values(result.stats.perSource).reduce((s, x) => s + x.joined, 0);
  const labelOnly = result.ingredients.filter(
    (i) =>
      i.cas_number === null &&
      i.functions.length === 0 &&
      !result.stats.mergedDuplicateNames.includes(i.name.toUpperCase()),
  );
  assert.ok(labelOnly.length >= result.stats.labelOnlyIngredients);
  const unmatchedEntries = result.stats.unmatched.reduce((s, [, n]) => s + n, 0);
  assert.equal(joined + unmatchedEntries, entries);
  for (const p of result.products) for (const e of p.ingredients) assert.ok(byId.has(e.id));
});

test('the pipeline is deterministic: two runs write byte-identical gzip files', () => {
  const dirs = [
    fs.mkdtempSync(path.join(os.tmpdir(), 'sample-a-')),
    fs.mkdtempSync(path.join(os.tmpdir(), 'sample-b-')),
  ];
  try {
    const again = runPipeline(RAW);
    writeSource(dirs[0], result.ingredients, result.products);
    writeSource(dirs[1], again.ingredients, again.products);
    for (const f of ['ingredients.jsonl.gz', 'products.jsonl.gz']) {
      assert.ok(fs.readFileSync(path.join(dirs[0], f)).equals(fs.readFileSync(path.join(dirs[1], f))), f);
    }
    assert.equal(renderReport(again), renderReport(result));
    const lines = zlib
      .gunzipSync(fs.readFileSync(path.join(dirs[0], 'products.jsonl.gz')))
      .toString('utf8')
      .trim()
      .split('\n');
    assert.deepEqual(Object.keys(JSON.parse(lines[0])), [
      'id',
      'brand',
      'name',
      'category',
      'origin',
      'image_url',
      'barcodes',
      'ingredients',
    ]);
  } finally {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
});

test('the committed sample catalogue (data/sample) is valid and joins at least 97 % of label entries', () => {
  const read = (f: string) =>
    zlib
      .gunzipSync(fs.readFileSync(path.join(ROOT, 'data', 'sample', f)))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const committed = { ingredients: read('ingredients.jsonl.gz'), products: read('products.jsonl.gz') };
  assert.deepEqual(problems(committed).slice(0, 10), []);
  assert.ok(committed.ingredients.length > 30000 && committed.products.length > 3000);
  const cosingIds = new Set(
    committed.ingredients
      .filter((i: { cas_number: unknown; functions: unknown[] }) => i.cas_number !== null || i.functions.length > 0)
      .map((i: { id: string }) => i.id),
  );
  let entries = 0;
  let joined = 0;
  for (const p of committed.products)
    for (const e of p.ingredients) {
      entries++;
      if (cosingIds.has(e.id)) joined++;
    }
  assert.ok(joined / entries >= 0.97, `join rate ${joined / entries}`);
});
