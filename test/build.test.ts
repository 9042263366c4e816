// catalogue build, valid sources: the database file holds exactly the rows the
// read model expects (meta, rendered payloads, flags, barcodes, postings, terms).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { buildCatalogue } from '../src/builder';
import { gunzipSync } from 'node:zlib';
import {
  EntryTails,
  decodePostings,
  FORMAT,
  SCHEMA_VERSION,
  TERMS_INGREDIENT_NAME,
  TERMS_INGREDIENT_OTHER,
  TERMS_PRODUCT,
  type ProductRow,
} from '../src/catalogue/format';
import { entry, ingredient, product, uuid, writeSource } from './support/source';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => path.join(root, String(n++));

const INGREDIENTS = [
  ingredient(0, { name: 'Aqua', functions: ['solvent'], other_names: 'Water, Eau' }),
  ingredient(1, {
    id: uuid(1).toUpperCase(),
    name: 'Parfum',
    category: 'fragrance',
    rating: 'sensitizers',
    irritancy: '1-3',
  }),
  ingredient(2, { name: 'Dimethicone', category: 'silicones', comedogenicity: '1' }),
  ingredient(3, { name: 'Unused Oil' }),
];
const PRODUCTS = [
  product(0, {
    brand: 'Caudalíe',
    name: 'Vinoperfect Radiance Serum',
    origin: 'France',
    image_url: 'https://img.example.org/0.jpg',
    barcodes: ['03522930003045', '12345678'],
    ingredients: [entry(0, { label_name: 'Aqua/Water', concentration: 70 }), entry(1, { id: uuid(1) }), entry(2)],
  }),
  product(1, {
    id: uuid(1, 'b').toUpperCase(),
    brand: null,
    name: 'Plain Water',
    category: null,
    ingredients: [entry(0)],
  }),
  product(2, {
    brand: 'Caudalie',
    name: 'Serum Two',
    ingredients: [entry(0), entry(0, { label_name: 'Water again' })],
  }),
];

function open(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** Builds INGREDIENTS and PRODUCTS into a fresh file and opens it. */
async function builtSample(): Promise<Database.Database> {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const out = path.join(dir, 'c.db');
  await buildCatalogue({ sourceDir: dir, outFile: out });
  return open(out);
}

function records(db: Database.Database): string[] {
  return (db.prepare('SELECT record FROM ingredients ORDER BY ord').all() as { record: string }[]).map((r) => r.record);
}

test('a valid source builds a catalogue whose meta, counts and built_at are recorded', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const out = path.join(dir, 'out', 'nested', 'catalogue.db');
  const summary = await buildCatalogue({ sourceDir: dir, outFile: out, builtAt: '2024-02-29' });
  assert.deepEqual({ ...summary, ms: 0 }, { products: 3, ingredients: 4, barcodes: 2, builtAt: '2024-02-29', ms: 0 });
  const db = open(out);
  const meta = Object.fromEntries(
    (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
  );
  assert.deepEqual(
    { ...meta, summary_bytes: undefined, search_item_bytes: undefined },
    {
      format: FORMAT,
      schema_version: SCHEMA_VERSION,
      built_at: '2024-02-29',
      products: '3',
      ingredients: '4',
      summary_bytes: undefined,
      search_item_bytes: undefined,
    },
  );
  const summaries = db.prepare('SELECT summary FROM products').pluck().all() as string[];
  assert.equal(
    Number(meta.summary_bytes),
    summaries.reduce((n, s) => n + Buffer.byteLength(s), 0),
    'summary bytes, for sizing at open',
  );
  assert.equal(
    Number(meta.search_item_bytes),
    (db.prepare('SELECT search_item FROM ingredients').pluck().all() as string[]).reduce(
      (n, s) => n + Buffer.byteLength(s),
      0,
    ),
  );
  assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
  db.close();
  assert.deepEqual(fs.readdirSync(path.dirname(out)), ['catalogue.db']);
});

test('products are stored in line order with lower-case ids, brand keys, flags and the full rendered answer', async () => {
  const db = await builtSample();
  const recs = records(db);
  const recordBytes = new EntryTails(recs.map((r) => Buffer.from(r)));
  const rows = (
    db
      .prepare('SELECT ord, id, brand_key, category, origin, flags, summary, packed FROM products ORDER BY ord')
      .all() as ProductRow[]
  ).map((r) => ({ ...r, payload: recordBytes.product(r.packed) }));
  assert.deepEqual(
    rows.map((r) => [r.ord, r.id, r.brand_key, r.category, r.origin, r.flags]),
    [
      [0, uuid(0, 'b'), 'caudalie', 'skincare', 'France', 1 | 16],
      [1, uuid(1, 'b'), null, null, null, 0],
      [2, uuid(2, 'b'), 'caudalie', 'skincare', null, 0],
    ],
  );
  assert.deepEqual(JSON.parse(rows[0].summary), {
    id: uuid(0, 'b'),
    brand: 'Caudalíe',
    name: 'Vinoperfect Radiance Serum',
    category: 'skincare',
    image_url: 'https://img.example.org/0.jpg',
  });
  const full = JSON.parse(rows[0].payload.toString());
  assert.equal(rows[0].payload.toString(), JSON.stringify(full), 'the answer is exactly JSON.stringify of itself');
  assert.deepEqual(full, {
    id: uuid(0, 'b'),
    brand: 'Caudalíe',
    name: 'Vinoperfect Radiance Serum',
    image_url: 'https://img.example.org/0.jpg',
    category: 'skincare',
    origin: 'France',
    contains_fragrance: true,
    contains_drying_alcohol: false,
    contains_parabens: false,
    contains_sulfates: false,
    contains_silicones: true,
    ingredients: [
      { position: 0, label_name: 'Aqua/Water', concentration: 70, ...JSON.parse(recs[0]) },
      { position: 1, label_name: 'Ingredient 1', concentration: null, ...JSON.parse(recs[1]) },
      { position: 2, label_name: 'Ingredient 2', concentration: null, ...JSON.parse(recs[2]) },
    ],
  });
  const others = rows.slice(1).map((r) => JSON.parse(r.payload.toString()));
  assert.deepEqual(
    others.map((p) => p.ingredients.length),
    PRODUCTS.slice(1).map((p) => p.ingredients.length),
  );
  assert.deepEqual(JSON.parse(batchOf([rows[1].packed, null, rows[0].packed], recordBytes).toString()), [
    others[0],
    null,
    full,
  ]);
  assert.equal(batchOf([], recordBytes).toString(), '[]');
  assert.equal(batchOf([null], recordBytes).toString(), '[null]');
  const encodings = db.prepare('SELECT ord, gzip FROM product_encodings ORDER BY ord').all() as Array<{
    ord: number;
    gzip: Buffer;
  }>;
  assert.deepEqual(
    encodings.map((e) => e.ord),
    rows.map((r) => r.ord),
    'every product has its gzip form',
  );
  encodings.forEach((e, i) => {
    assert.deepEqual(gunzipSync(e.gzip), rows[i].payload, `gzip form of product ${i}`);
  });
  assert.equal(JSON.parse(recs[1]).id, uuid(1), 'ingredient ids are stored lower-case');
  assert.deepEqual(JSON.parse(recs[1]), {
    id: uuid(1),
    name: 'Parfum',
    rating: 'sensitizers',
    irritancy: '1-3',
    comedogenicity: null,
    functions: [],
    cas_number: null,
    ec_number: null,
    ph_eur_name: null,
    iupac_name: null,
    other_names: null,
    category: 'fragrance',
  });
  db.close();
});

test('barcodes are keyed without leading zeros and ingredients list the ascending products that contain them', async () => {
  const db = await builtSample();
  assert.deepEqual(db.prepare('SELECT gtin, product_ord FROM barcodes ORDER BY gtin').all(), [
    { gtin: '12345678', product_ord: 0 },
    { gtin: '3522930003045', product_ord: 0 },
  ]);
  const postings = (
    db.prepare('SELECT ingredient_ord, postings FROM ingredient_products ORDER BY ingredient_ord').all() as {
      ingredient_ord: number;
      postings: Buffer;
    }[]
  ).map((r) => [r.ingredient_ord, [...decodePostings(r.postings)]]);
  assert.deepEqual(postings, [
    [0, [0, 1, 2]],
    [1, [0]],
    [2, [0]],
  ]);
  db.close();
});

test('search terms index product brand and name, ingredient names and other names, as folded words', async () => {
  const db = await builtSample();
  const term = (kind: number, t: string) => {
    const row = db.prepare('SELECT postings FROM search_terms WHERE kind = ? AND term = ?').get(kind, t) as
      { postings: Buffer } | undefined;
    return row && [...decodePostings(row.postings)];
  };
  assert.deepEqual(term(TERMS_PRODUCT, 'caudalie'), [0, 2]);
  assert.deepEqual(term(TERMS_PRODUCT, 'serum'), [0, 2]);
  assert.deepEqual(term(TERMS_PRODUCT, 'water'), [1]);
  assert.deepEqual(term(TERMS_INGREDIENT_NAME, 'aqua'), [0]);
  assert.deepEqual(term(TERMS_INGREDIENT_NAME, 'water'), undefined);
  assert.deepEqual(term(TERMS_INGREDIENT_OTHER, 'water'), [0]);
  assert.deepEqual(term(TERMS_INGREDIENT_OTHER, 'eau'), [0]);
  db.close();
});

test('gzipped sources build the same catalogue as plain ones', async () => {
  const plain = scratch();
  const gz = scratch();
  writeSource(plain, { ingredients: INGREDIENTS, products: PRODUCTS });
  writeSource(gz, { ingredients: INGREDIENTS, products: PRODUCTS }, { gzip: true });
  assert.deepEqual(fs.readdirSync(gz).sort(), ['ingredients.jsonl.gz', 'products.jsonl.gz']);
  await buildCatalogue({ sourceDir: plain, outFile: path.join(plain, 'c.db'), builtAt: '2024-01-01' });
  await buildCatalogue({ sourceDir: gz, outFile: path.join(gz, 'c.db'), builtAt: '2024-01-01' });
  const dump = (file: string) => {
    const db = open(file);
    const out = ['meta', 'ingredients', 'products', 'barcodes', 'ingredient_products', 'search_terms'].map((t) =>
      db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all(),
    );
    db.close();
    return out;
  };
  assert.deepEqual(dump(path.join(gz, 'c.db')), dump(path.join(plain, 'c.db')));
});

test('CRLF line ends and blank lines are accepted; ord counts only non-blank lines', async () => {
  const dir = scratch();
  writeSource(
    dir,
    {
      ingredients: ['', ...INGREDIENTS.slice(0, 2), '   ', INGREDIENTS[2]],
      products: [PRODUCTS[1], '', '', PRODUCTS[0]],
    },
    { crlf: true },
  );
  const out = path.join(dir, 'c.db');
  const summary = await buildCatalogue({ sourceDir: dir, outFile: out });
  assert.equal(summary.products, 2);
  assert.equal(summary.ingredients, 3);
  const db = open(out);
  assert.deepEqual(db.prepare('SELECT ord, id FROM products ORDER BY ord').all(), [
    { ord: 0, id: uuid(1, 'b') },
    { ord: 1, id: uuid(0, 'b') },
  ]);
  assert.deepEqual(db.prepare('SELECT ord, name FROM ingredients ORDER BY ord').all(), [
    { ord: 0, name: 'Aqua' },
    { ord: 1, name: 'Parfum' },
    { ord: 2, name: 'Dimethicone' },
  ]);
  db.close();
});

test('built_at defaults to the UTC date of the build', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: [], products: [] });
  const before = new Date().toISOString().slice(0, 10);
  const summary = await buildCatalogue({ sourceDir: dir, outFile: path.join(dir, 'c.db'), allowEmpty: true });
  const afterDate = new Date().toISOString().slice(0, 10);
  assert.ok(summary.builtAt === before || summary.builtAt === afterDate);
  assert.equal(summary.products, 0);
});

test('a successful build replaces an existing catalogue file and leaves no temporary file', async () => {
  const dir = scratch();
  writeSource(dir, { ingredients: INGREDIENTS, products: PRODUCTS });
  const out = path.join(dir, 'out', 'c.db');
  fs.mkdirSync(path.dirname(out));
  fs.writeFileSync(out, 'old catalogue');
  await buildCatalogue({ sourceDir: dir, outFile: out, builtAt: '2023-12-31' });
  const db = open(out);
  assert.deepEqual(db.prepare("SELECT value FROM meta WHERE key = 'built_at'").get(), { value: '2023-12-31' });
  db.close();
  assert.deepEqual(fs.readdirSync(path.dirname(out)), ['c.db']);
});

/** A JSON array of separately read packed answers (null where one is null), as a batch is made. */
function batchOf(packed: ReadonlyArray<Buffer | null>, tails: EntryTails): Buffer {
  let at = 0;
  const starts = packed.map((p) => (p === null ? -1 : (at += p.length) - p.length));
  return tails.batch(Buffer.concat(packed.filter((p) => p !== null)), starts);
}
