// The synthetic catalogue generator (src/synth): deterministic output, a structurally
// valid catalogue source, the spec's null rates and plausible flag rates, and a source
// that `catalogue build` accepts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { generateCatalogue } from '../src/synth/generate';
import { isValidGtin } from '../src/source/barcodes';
import { buildCatalogue } from '../src/builder';
import { gtinKey, isBarcode, isUuid, words } from '../src/shared/text';
import { INGREDIENT_CATEGORIES, PRODUCT_CATEGORIES, RATINGS } from '../src/source/records';

const BIN = path.join(__dirname, '..', '..', 'bin', 'catalogue.js');
const ING_FIELDS = [
  'id',
  'name',
  'rating',
  'irritancy',
  'comedogenicity',
  'functions',
  'cas_number',
  'ec_number',
  'ph_eur_name',
  'iupac_name',
  'other_names',
  'category',
];
const PROD_FIELDS = ['id', 'brand', 'name', 'category', 'origin', 'image_url', 'barcodes', 'ingredients'];
const ENTRY_FIELDS = ['id', 'label_name', 'concentration'];

let tmp: string;
let ingredients: any[];
let products: any[];

function readJsonl(file: string): any[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-test-'));
  await generateCatalogue({ outDir: path.join(tmp, 'main'), products: 4000, ingredients: 3000, seed: 'test' });
  ingredients = readJsonl(path.join(tmp, 'main', 'ingredients.jsonl'));
  products = readJsonl(path.join(tmp, 'main', 'products.jsonl'));
});

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function filesOf(name: string, seed: string, gzip: boolean): Promise<Buffer[]> {
  const r = await generateCatalogue({ outDir: path.join(tmp, name), products: 300, ingredients: 400, seed, gzip });
  return [fs.readFileSync(r.ingredientsFile), fs.readFileSync(r.productsFile)];
}

test('the same seed gives byte-identical files, plain and gzipped', async () => {
  assert.deepEqual(await filesOf('a', 's1', false), await filesOf('b', 's1', false));
  assert.deepEqual(await filesOf('c', 's1', true), await filesOf('d', 's1', true));
});

test('a different seed gives different ingredients and products', async () => {
  const [i1, p1] = await filesOf('e', 's1', false);
  const [i2, p2] = await filesOf('f', 's2', false);
  assert.notDeepEqual(i1, i2);
  assert.notDeepEqual(p1, p2);
});

test('writes exactly the requested numbers of lines', () => {
  assert.equal(ingredients.length, 3000);
  assert.equal(products.length, 4000);
});

test('ingredient lines have exactly the spec fields, valid values, unique ids and names ignoring case', () => {
  const ids = new Set<string>();
  const names = new Set<string>();
  const scale = /^([0-5])(-([0-5]))?$/;
  for (const ing of ingredients) {
    assert.deepEqual(Object.keys(ing), ING_FIELDS);
    assert.ok(isUuid(ing.id) && ing.id === ing.id.toLowerCase(), ing.id);
    assert.ok(!ids.has(ing.id));
    ids.add(ing.id);
    assert.ok(typeof ing.name === 'string' && ing.name.trim() !== '');
    assert.ok(!names.has(ing.name.toLowerCase()), `duplicate name ${ing.name}`);
    names.add(ing.name.toLowerCase());
    assert.ok(ing.rating === null || (RATINGS as readonly string[]).includes(ing.rating));
    for (const v of [ing.irritancy, ing.comedogenicity]) {
      if (v === null) continue;
      const m = scale.exec(v);
      assert.ok(m && (m[3] === undefined || +m[1] < +m[3]), `bad scale ${v}`);
    }
    assert.ok(Array.isArray(ing.functions) && new Set(ing.functions).size === ing.functions.length);
    for (const f of ing.functions) assert.ok(typeof f === 'string' && f !== '');
    for (const k of ['cas_number', 'ec_number', 'ph_eur_name', 'iupac_name', 'other_names'])
      assert.ok(ing[k] === null || (typeof ing[k] === 'string' && ing[k] !== ''));
    assert.ok(ing.category === null || (INGREDIENT_CATEGORIES as readonly string[]).includes(ing.category));
  }
});

test('product lines have the spec fields, known ingredient ids, and barcodes unique after zero-stripping', () => {
  const ingIds = new Set(ingredients.map((i) => i.id));
  const ids = new Set<string>();
  const codes = new Set<string>();
  for (const p of products) {
    assert.deepEqual(Object.keys(p), PROD_FIELDS);
    assert.ok(isUuid(p.id) && !ids.has(p.id));
    ids.add(p.id);
    for (const k of ['brand', 'name', 'origin']) assert.ok(p[k] === null || (typeof p[k] === 'string' && p[k] !== ''));
    assert.ok(p.category === null || (PRODUCT_CATEGORIES as readonly string[]).includes(p.category));
    assert.ok(p.image_url === null || /^https?:\/\/\S+$/.test(p.image_url));
    for (const code of p.barcodes) {
      assert.ok(isBarcode(code) && isValidGtin(code), code);
      assert.ok(!codes.has(gtinKey(code)), `barcode ${code} collides`);
      codes.add(gtinKey(code));
    }
    assert.ok(
      p.ingredients.length === 0 || (p.ingredients.length >= 15 && p.ingredients.length <= 40),
      `${p.ingredients.length} ingredients`,
    );
    assert.equal(new Set(p.ingredients.map((e: any) => e.id)).size, p.ingredients.length);
    for (const e of p.ingredients) {
      assert.deepEqual(Object.keys(e), ENTRY_FIELDS);
      assert.ok(ingIds.has(e.id));
      assert.ok(typeof e.label_name === 'string' && e.label_name !== '');
      assert.ok(e.concentration === null || (e.concentration > 0 && e.concentration <= 100));
    }
  }
});

test('barcodes include short and zero-padded forms and products with none or several codes', () => {
  const lengths = new Set(products.flatMap((p) => p.barcodes.map((c: string) => c.length)));
  for (const len of [8, 12, 13, 14]) assert.ok(lengths.has(len), `no ${len}-digit code`);
  assert.ok(products.some((p) => p.barcodes.length === 0));
  assert.ok(products.some((p) => p.barcodes.length >= 2));
  assert.ok(products.some((p) => p.barcodes.some((c: string) => c.startsWith('0'))));
});

function share(items: any[], pred: (x: any) => boolean): number {
  return items.filter(pred).length / items.length;
}

function near(actual: number, target: number, tolerance: number, what: string): void {
  assert.ok(
    Math.abs(actual - target) <= tolerance,
    `${what}: ${actual.toFixed(4)} not within ${tolerance} of ${target}`,
  );
}

test('ingredient null rates follow api-spec part 2', () => {
  near(
    share(ingredients, (i) => i.rating === null),
    0.975,
    0.008,
    'rating null',
  );
  near(
    share(ingredients, (i) => i.irritancy === null),
    0.99,
    0.005,
    'irritancy null',
  );
  near(
    share(ingredients, (i) => i.comedogenicity === null),
    0.99,
    0.005,
    'comedogenicity null',
  );
  near(
    share(ingredients, (i) => i.functions.length === 0),
    0.51,
    0.03,
    'functions empty',
  );
  near(
    share(ingredients, (i) => i.category === null),
    0.975,
    0.003,
    'category null',
  );
  for (const k of ['cas_number', 'ec_number', 'other_names'])
    assert.ok(share(ingredients, (i) => i[k] !== null) > 0.05, `${k} mostly filled`);
  for (const c of INGREDIENT_CATEGORIES)
    assert.ok(
      ingredients.some((i) => i.category === c),
      `no ${c} ingredient`,
    );
});

test('product null rates, free-from flag rates and list lengths are near their targets', () => {
  near(
    share(products, (p) => p.category === null),
    0.025,
    0.01,
    'category null',
  );
  near(
    share(products, (p) => p.origin === null),
    0.53,
    0.03,
    'origin null',
  );
  const entries = products.flatMap((p) => p.ingredients);
  near(
    share(entries, (e) => e.concentration === null),
    0.997,
    0.0015,
    'concentration null',
  );
  const tagOf = new Map(ingredients.map((i) => [i.id, i.category]));
  const flag = (c: string) => share(products, (p) => p.ingredients.some((e: any) => tagOf.get(e.id) === c));
  const expected: Record<string, [number, number]> = {
    fragrance: [0.4, 0.6],
    silicones: [0.25, 0.45],
    drying_alcohol: [0.1, 0.22],
    sulfates: [0.06, 0.15],
    parabens: [0.04, 0.1],
  };
  for (const [c, [lo, hi]] of Object.entries(expected)) {
    const f = flag(c);
    assert.ok(f >= lo && f <= hi, `contains_${c}: ${f.toFixed(3)} not in [${lo}, ${hi}]`);
  }
  const listed = products.filter((p) => p.ingredients.length > 0);
  near(listed.length / products.length, 0.98, 0.01, 'products with an ingredient list');
  near(listed.reduce((n, p) => n + p.ingredients.length, 0) / listed.length, 27.5, 1.5, 'mean ingredients per product');
});

test('ingredient popularity is skewed: water and glycerin nearly everywhere, most ingredients rare', () => {
  const uses = new Map<string, number>();
  for (const p of products) for (const e of p.ingredients) uses.set(e.id, (uses.get(e.id) ?? 0) + 1);
  const byName = new Map(ingredients.map((i) => [i.name, uses.get(i.id) ?? 0]));
  assert.ok(byName.get('Aqua')! / products.length > 0.8);
  assert.ok(byName.get('Glycerin')! / products.length > 0.55);
  const counts = ingredients.map((i) => uses.get(i.id) ?? 0).sort((a, b) => a - b);
  assert.ok(counts[counts.length >> 1] <= products.length * 0.005, 'median ingredient is rare');
  assert.equal(
    products.filter((p) => p.ingredients.length && p.ingredients[0].id === ingredients[0].id).length,
    products.filter((p) => p.ingredients.some((e: any) => e.id === ingredients[0].id)).length,
    'water is listed first',
  );
});

test('product and brand vocabularies have realistic word frequencies and some accented brands', () => {
  const freq = new Map<string, number>();
  for (const p of products)
    for (const w of new Set(words(`${p.brand ?? ''} ${p.name ?? ''}`))) freq.set(w, (freq.get(w) ?? 0) + 1);
  assert.ok(freq.get('cream')! > products.length * 0.1, 'cream is a very common word');
  assert.ok(freq.get('hydrating')! > products.length * 0.04, 'hydrating is a common word');
  const rare = [...freq.values()].filter((n) => n <= 3).length;
  assert.ok(rare > freq.size / 4, 'many words are rare');
  assert.ok(
    products.some((p) => p.brand && /[\u0080-\uffff]/.test(p.brand)),
    'some brand has an accent',
  );
  const brands = new Map<string, number>();
  for (const p of products) if (p.brand) brands.set(p.brand, (brands.get(p.brand) ?? 0) + 1);
  const sizes = [...brands.values()].sort((a, b) => b - a);
  assert.ok(sizes[0] > 4 * sizes[sizes.length >> 1], 'brand sizes are skewed');
});

test('a generated source builds into a catalogue', async () => {
  const dir = path.join(tmp, 'build');
  await generateCatalogue({ outDir: dir, products: 600, ingredients: 500, seed: 'build', gzip: true });
  const summary = await buildCatalogue({ sourceDir: dir, outFile: path.join(tmp, 'build.db'), builtAt: '2024-01-01' });
  assert.equal(summary.products, 600);
  assert.equal(summary.ingredients, 500);
});

test('the generate command writes a source that the build command accepts', () => {
  const dir = path.join(tmp, 'cli');
  const out = execFileSync(
    process.execPath,
    [BIN, 'generate', '--out', dir, '--products', '200', '--ingredients', '300', '--seed', 'cli', '--gzip'],
    { encoding: 'utf8' },
  );
  assert.match(out, /wrote 300 ingredients .* and 200 products .* in [0-9.]+ s/);
  assert.ok(fs.existsSync(path.join(dir, 'products.jsonl.gz')));
  execFileSync(process.execPath, [BIN, 'build', '--source', dir, '--out', path.join(tmp, 'cli.db')], {
    encoding: 'utf8',
  });
  assert.ok(fs.statSync(path.join(tmp, 'cli.db')).size > 0);
});

test('the generate command rejects a non-numeric size with a one-line reason', () => {
  assert.throws(
    () =>
      execFileSync(process.execPath, [BIN, 'generate', '--out', path.join(tmp, 'bad'), '--products', 'lots'], {
        encoding: 'utf8',
        stdio: 'pipe',
      }),
    (err: any) => err.status === 1 && /catalogue: --products must be a non-negative integer/.test(err.stderr),
  );
});
