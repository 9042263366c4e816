// catalogue build, bad sources: every rule of catalogue-source.md is reported as
// `FILE:LINE: message` naming the field and value, all errors at once, and a failed
// build never touches the output file nor leaves a temporary file.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCatalogue, BuildError } from '../src/builder';
import { entry, ingredient, product, uuid, writeLines, writeSource, type SourceLine } from './support/source';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-errors-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => path.join(root, String(n++));

const GOOD_INGREDIENTS = [ingredient(0), ingredient(1), ingredient(2)];
const GOOD_PRODUCTS = [product(0, { ingredients: [entry(0), entry(1)] })];

async function failure(dir: string, outFile = path.join(dir, 'c.db')): Promise<BuildError> {
  const err = await buildCatalogue({ sourceDir: dir, outFile }).then(
    () => assert.fail('the build should have failed'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof BuildError, `expected a BuildError, got ${err}`);
  assert.ok(!fs.existsSync(outFile), 'no catalogue is written');
  return err;
}

/** Builds a source with the given lines (defaults: valid ones) and returns its errors, FILE relative to the source dir. */
async function errorsOf(src: { ingredients?: SourceLine[]; products?: SourceLine[] }): Promise<string[]> {
  const dir = scratch();
  writeSource(dir, { ingredients: src.ingredients ?? GOOD_INGREDIENTS, products: src.products ?? GOOD_PRODUCTS });
  const err = await failure(dir);
  return err.errors.map((e) => e.replace(dir + path.sep, ''));
}

const badIngredient = (over: Record<string, unknown>) =>
  errorsOf({ ingredients: [...GOOD_INGREDIENTS, ingredient(3, over)] });
const badProduct = (over: Record<string, unknown>) => errorsOf({ products: [...GOOD_PRODUCTS, product(1, over)] });

test('FILE in a message is the path of the source file as found, followed by the line number', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: GOOD_INGREDIENTS, products: ['{'] }, { gzip: true });
  const err = await failure(dir);
  assert.equal(err.errors.length, 1);
  assert.ok(err.errors[0].startsWith(path.join(dir, 'products.jsonl.gz') + ':1: malformed JSON: '), err.errors[0]);
});

test('malformed JSON is reported with its line', async () => {
  const errors = await errorsOf({ products: [...GOOD_PRODUCTS, '{"id": "x",'] });
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^products\.jsonl:2: malformed JSON: /);
});

test('a line that is JSON but not an object is reported', async () => {
  assert.deepEqual(await errorsOf({ ingredients: [...GOOD_INGREDIENTS, '["a"]', '42'] }), [
    'ingredients.jsonl:4: line must be a JSON object, got ["a"]',
    'ingredients.jsonl:5: line must be a JSON object, got 42',
  ]);
});

test('line numbers count blank lines and CRLF line ends', async () => {
  const dir = scratch();
  writeSource(
    dir,
    { ingredients: GOOD_INGREDIENTS, products: ['', ...GOOD_PRODUCTS, '', product(1, { category: 'x' })] },
    { crlf: true },
  );
  const err = await failure(dir);
  assert.deepEqual(err.errors, [
    `${path.join(dir, 'products.jsonl')}:4: category "x" is not one of skincare, suncare, makeup, haircare, body/bath, fragrance, other`,
  ]);
});

test('a name given twice in one object is refused, not resolved by keeping the last value', async () => {
  const good = JSON.stringify(product(1));
  const twiceTop = good.replace('"name":', '"name":"Earlier name","name":');
  const e = JSON.stringify(entry(0));
  const twiceEntry = JSON.stringify(product(2, { ingredients: [entry(1)] })).replace(
    '"ingredients":[',
    `"ingredients":[${e},${e.replace('"label_name":', '"label_name":"x","label_name":')},`,
  );
  const asText = JSON.stringify(product(3, { name: 'says "name": twice, "name": here', brand: ':brand\\' }));
  const spaced = JSON.stringify(product(4)).replace(/":/g, '" : ');
  const spacedTwice = spaced.replace('"name" : ', '"name" : "Earlier name", "name" : ');
  assert.deepEqual(
    await errorsOf({ products: [...GOOD_PRODUCTS, twiceTop, twiceEntry, asText, spaced, spacedTwice] }),
    [
      'products.jsonl:2: field "name" appears twice in one object (JSON keeps only the last)',
      'products.jsonl:3: ingredients[1]: field "label_name" appears twice in one object (JSON keeps only the last)',
      'products.jsonl:6: field "name" appears twice in one object (JSON keeps only the last)',
    ],
  );
  const ing = JSON.stringify(ingredient(3)).replace('"rating":null', '"rating":null,"rating":null');
  assert.deepEqual(await errorsOf({ ingredients: [...GOOD_INGREDIENTS, ing] }), [
    'ingredients.jsonl:4: field "rating" appears twice in one object (JSON keeps only the last)',
  ]);
});

test('a missing field and an unknown field are named', async () => {
  const { rating: _, ...noRating } = ingredient(3);
  assert.deepEqual(await errorsOf({ ingredients: [...GOOD_INGREDIENTS, { ...noRating, ratng: 'x' }] }), [
    'ingredients.jsonl:4: missing field "rating"',
    'ingredients.jsonl:4: unknown field "ratng"',
  ]);
  const { label_name: __, ...noLabel } = entry(0);
  assert.deepEqual(await badProduct({ ingredients: [entry(0), { ...noLabel, extra: 1 }] }), [
    'products.jsonl:2: ingredients[1]: missing field "label_name"',
    'products.jsonl:2: ingredients[1]: unknown field "extra"',
  ]);
});

test('a wrong type names the field and the value', async () => {
  assert.deepEqual(await badProduct({ brand: 42, barcodes: 'x', ingredients: {} }), [
    'products.jsonl:2: brand must be a string or null, got 42',
    'products.jsonl:2: barcodes must be an array of strings, got "x"',
    'products.jsonl:2: ingredients must be an array of objects, got {}',
  ]);
  assert.deepEqual(await badIngredient({ name: null, functions: 'humectant' }), [
    'ingredients.jsonl:4: name must be a string, got null',
    'ingredients.jsonl:4: functions must be an array of strings, got "humectant"',
  ]);
  assert.deepEqual(await badProduct({ ingredients: ['aqua'] }), [
    'products.jsonl:2: ingredients[0] must be an object, got "aqua"',
  ]);
});

test('enum values outside the spec are reported with the allowed values', async () => {
  assert.deepEqual(await badProduct({ category: 'skin care' }), [
    'products.jsonl:2: category "skin care" is not one of skincare, suncare, makeup, haircare, body/bath, fragrance, other',
  ]);
  assert.deepEqual(await badIngredient({ rating: 'good', category: 'Silicones' }), [
    'ingredients.jsonl:4: rating "good" is not one of direct actives, supporting actives, sensitizers',
    'ingredients.jsonl:4: category "Silicones" is not one of fragrance, drying_alcohol, parabens, sulfates, silicones',
  ]);
});

test('a bad uuid is reported for ingredient, product and label entry ids', async () => {
  assert.deepEqual(await badIngredient({ id: 'not-a-uuid' }), [
    'ingredients.jsonl:4: id "not-a-uuid" is not a uuid (8-4-4-4-12 hex digits)',
  ]);
  assert.deepEqual(
    await badProduct({ id: '0b6f9a8e3c1d4e529a471f2d3c4b5a60', ingredients: [{ ...entry(0), id: 7 }] }),
    [
      'products.jsonl:2: id "0b6f9a8e3c1d4e529a471f2d3c4b5a60" is not a uuid (8-4-4-4-12 hex digits)',
      'products.jsonl:2: ingredients[0].id 7 is not a uuid (8-4-4-4-12 hex digits)',
    ],
  );
});

test('a duplicate id, in any letter case, names the earlier line', async () => {
  assert.deepEqual(
    await errorsOf({ ingredients: [...GOOD_INGREDIENTS, ingredient(3, { id: uuid(1).toUpperCase() })] }),
    [`ingredients.jsonl:4: id "${uuid(1).toUpperCase()}" duplicates the id on line 2`],
  );
  assert.deepEqual(await errorsOf({ products: [...GOOD_PRODUCTS, '', product(1, { id: uuid(0, 'b') })] }), [
    `products.jsonl:3: id "${uuid(0, 'b')}" duplicates the id on line 1`,
  ]);
});

test('a duplicate ingredient name, ignoring case, names the earlier line', async () => {
  assert.deepEqual(await badIngredient({ name: 'INGREDIENT 2' }), [
    'ingredients.jsonl:4: name "INGREDIENT 2" duplicates the name "Ingredient 2" on line 3 (names are compared ignoring case)',
  ]);
});

test('irritancy and comedogenicity must be N or N-M with 0 <= N < M <= 5', async () => {
  const errors = await errorsOf({
    ingredients: [
      ...GOOD_INGREDIENTS,
      ingredient(3, { irritancy: '0-5', comedogenicity: '5' }), // valid
      ingredient(4, { irritancy: '3-2', comedogenicity: '6' }),
      ingredient(5, { irritancy: '1-1', comedogenicity: 2 }),
      ingredient(6, { irritancy: '', comedogenicity: '1 - 2' }),
    ],
  });
  const rule = 'is not "N" or "N-M" with integers 0 <= N < M <= 5 (or null)';
  assert.deepEqual(errors, [
    `ingredients.jsonl:5: irritancy "3-2" ${rule}`,
    `ingredients.jsonl:5: comedogenicity "6" ${rule}`,
    `ingredients.jsonl:6: irritancy "1-1" ${rule}`,
    `ingredients.jsonl:6: comedogenicity 2 ${rule}`,
    `ingredients.jsonl:7: irritancy "" ${rule}`,
    `ingredients.jsonl:7: comedogenicity "1 - 2" ${rule}`,
  ]);
});

test('functions must be non-empty strings without duplicates', async () => {
  assert.deepEqual(await badIngredient({ functions: ['humectant', '', 'humectant', 3] }), [
    'ingredients.jsonl:4: functions[1] "" is not a non-empty string',
    'ingredients.jsonl:4: functions[2] "humectant" repeats functions[0]',
    'ingredients.jsonl:4: functions[3] 3 is not a non-empty string',
  ]);
  // only a repeat (the compiled first check leaves uniqueness to a Set of the functions)
  assert.deepEqual(await badIngredient({ functions: ['humectant', 'solvent', 'humectant'] }), [
    'ingredients.jsonl:4: functions[2] "humectant" repeats functions[0]',
  ]);
});

test('optional strings must be non-empty when present', async () => {
  assert.deepEqual(await badIngredient({ cas_number: '', other_names: '  ' }), [
    'ingredients.jsonl:4: cas_number "" must not be empty (use null for none)',
    'ingredients.jsonl:4: other_names "  " must not be empty (use null for none)',
  ]);
  assert.deepEqual(await badProduct({ origin: '' }), [
    'products.jsonl:2: origin "" must not be empty (use null for none)',
  ]);
});

test('image_url must be an absolute http or https URL', async () => {
  const errors = await errorsOf({
    products: [
      product(0, { image_url: 'HTTP://img.example.org/a.png' }), // valid
      product(1, { image_url: '/images/a.png' }),
      product(2, { image_url: 'ftp://img.example.org/a.png' }),
      product(3, { image_url: 'https://' }),
    ],
  });
  assert.deepEqual(errors, [
    'products.jsonl:2: image_url "/images/a.png" is not an absolute http or https URL (or null)',
    'products.jsonl:3: image_url "ftp://img.example.org/a.png" is not an absolute http or https URL (or null)',
    'products.jsonl:4: image_url "https://" is not an absolute http or https URL (or null)',
  ]);
});

test('each barcode must be 8 to 14 digits', async () => {
  assert.deepEqual(await badProduct({ barcodes: ['12345678', '1234567', '123456789012345', '1234567a', 12345678] }), [
    'products.jsonl:2: barcodes[1] "1234567" is not a string of 8 to 14 digits',
    'products.jsonl:2: barcodes[2] "123456789012345" is not a string of 8 to 14 digits',
    'products.jsonl:2: barcodes[3] "1234567a" is not a string of 8 to 14 digits',
    'products.jsonl:2: barcodes[4] 12345678 is not a string of 8 to 14 digits',
  ]);
});

test("a barcode that collides with another product's code after removing leading zeros names both products", async () => {
  const errors = await errorsOf({
    products: [
      product(0, { barcodes: ['3522930003045'] }),
      product(1, { barcodes: ['87654321'] }),
      product(2, { barcodes: ['12345678', '03522930003045'] }),
    ],
  });
  assert.deepEqual(errors, [
    `products.jsonl:3: barcodes[1] "03522930003045" of product ${uuid(2, 'b')} collides with barcode "3522930003045" ` +
      `of product ${uuid(0, 'b')} (line 1): codes must be unique once leading zeros are removed`,
  ]);
});

test('a product listing the same code twice, in two forms, is an error', async () => {
  assert.deepEqual(await badProduct({ barcodes: ['3522930003045', '03522930003045'] }), [
    'products.jsonl:2: barcodes[1] "03522930003045" is the same code as barcodes[0] "3522930003045" once leading zeros are removed',
  ]);
});

test('a label entry must name an ingredient of ingredients.jsonl, with a label and a concentration in (0, 100]', async () => {
  const errors = await badProduct({
    ingredients: [
      entry(0, { id: uuid(0).toUpperCase(), concentration: 100 }), // valid
      entry(9),
      entry(1, { label_name: '' }),
      entry(1, { concentration: 0 }),
      entry(2, { concentration: 100.5 }),
      entry(2, { concentration: '5' }),
    ],
  });
  assert.deepEqual(errors, [
    `products.jsonl:2: ingredients[1].id "${uuid(9)}" is not the id of any line in ingredients.jsonl`,
    'products.jsonl:2: ingredients[2].label_name "" must not be empty',
    'products.jsonl:2: ingredients[3].concentration 0 is not a number with 0 < value <= 100 (or null)',
    'products.jsonl:2: ingredients[4].concentration 100.5 is not a number with 0 < value <= 100 (or null)',
    'products.jsonl:2: ingredients[5].concentration "5" is not a number with 0 < value <= 100 (or null)',
  ]);
});

test('an ingredient line with other errors still defines its id, so products are not blamed for it', async () => {
  assert.deepEqual(await errorsOf({ ingredients: [ingredient(0, { rating: 'x' }), ingredient(1), ingredient(2)] }), [
    'ingredients.jsonl:1: rating "x" is not one of direct actives, supporting actives, sensitizers',
  ]);
});

test('errors from both files are reported together, in file then line order', async () => {
  const errors = await errorsOf({
    ingredients: [...GOOD_INGREDIENTS, 'nope'],
    products: [product(0, { category: 'x' }), product(1, { name: '' })],
  });
  assert.deepEqual(
    errors.map((e) => e.slice(0, e.indexOf(': '))),
    ['ingredients.jsonl:4', 'products.jsonl:1', 'products.jsonl:2'],
  );
});

test('every error is counted; the first 1000 are kept in order', async () => {
  const products = Array.from({ length: 1500 }, (_, i) => product(i, { category: 'bad' }));
  const dir = scratch();
  writeSource(dir, { ingredients: GOOD_INGREDIENTS, products });
  const err = await failure(dir);
  assert.equal(err.total, 1500);
  assert.equal(err.errors.length, 1000);
  assert.ok(err.errors[999].startsWith(path.join(dir, 'products.jsonl') + ':1000: category "bad"'));
});

test('a missing source file, or both plain and gzipped forms of one, is reported', async () => {
  const dir = scratch();
  fs.mkdirSync(dir);
  writeLines(path.join(dir, 'products.jsonl'), GOOD_PRODUCTS);
  writeLines(path.join(dir, 'products.jsonl'), GOOD_PRODUCTS, { gzip: true });
  const err = await failure(dir);
  assert.deepEqual(err.errors, [
    `${path.join(dir, 'ingredients.jsonl')}: missing (expected ingredients.jsonl or ingredients.jsonl.gz in ${dir})`,
    `${path.join(dir, 'products.jsonl')}: both products.jsonl and products.jsonl.gz exist; keep only one`,
  ]);
});

test('a corrupt gzip file is reported, not thrown as a crash', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: GOOD_INGREDIENTS, products: GOOD_PRODUCTS });
  fs.writeFileSync(path.join(dir, 'products.jsonl.gz'), 'not gzip at all');
  fs.rmSync(path.join(dir, 'products.jsonl'));
  const err = await failure(dir);
  assert.equal(err.errors.length, 1);
  assert.ok(err.errors[0].startsWith(`${path.join(dir, 'products.jsonl.gz')}:1: cannot read: `), err.errors[0]);
});

test('on failure an existing output file is left byte-for-byte untouched and no temporary file remains', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: GOOD_INGREDIENTS, products: [...GOOD_PRODUCTS, product(1, { barcodes: ['1'] })] });
  const outDir = path.join(dir, 'out');
  fs.mkdirSync(outDir);
  const out = path.join(outDir, 'catalogue.db');
  const old = Buffer.from('the previous catalogue \u0000\u00ff bytes');
  fs.writeFileSync(out, old);
  const mtime = fs.statSync(out).mtimeMs;
  await assert.rejects(buildCatalogue({ sourceDir: dir, outFile: out }), BuildError);
  assert.deepEqual(fs.readFileSync(out), old);
  assert.equal(fs.statSync(out).mtimeMs, mtime);
  assert.deepEqual(fs.readdirSync(outDir), ['catalogue.db']);
});

test('built_at must be a real YYYY-MM-DD date', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: GOOD_INGREDIENTS, products: GOOD_PRODUCTS });
  for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '01/02/2024', '']) {
    await assert.rejects(buildCatalogue({ sourceDir: dir, outFile: path.join(dir, 'c.db'), builtAt: bad }), {
      message: `built-at ${JSON.stringify(bad)} is not a real date in the form YYYY-MM-DD`,
    });
  }
  assert.deepEqual(fs.readdirSync(dir).sort(), ['ingredients.jsonl', 'products.jsonl']);
});
