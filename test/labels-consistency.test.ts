// Consistency of label analysis with the build: the label text each sample product was
// built from, analysed against the catalogue built from that sample, gives the product's
// contains_* flags and its ingredient ids in label order. Run on the raw excerpts
// (pipeline → source → build → read model), and on the bundled data/sample when the raw
// public data is at hand (../shared/data/raw next to the checkout, or RAW_DIR).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPipeline } from '../src/sample/pipeline';
import { writeSource } from '../src/source/writer';
import { readKgProducts } from '../src/sample/cosdna';
import { readKaggle } from '../src/sample/kaggle';
import { readCurlsProducts } from '../src/sample/curlsbot';
import { readSephoraInfo } from '../src/sample/sephora-info';
import { uuidV5 } from '../src/source/ids';
import { buildCatalogue } from '../src/builder';
import { Catalogue } from '../src/catalogue/read-model';
import { compactKey } from '../src/labels/aliases';
import { listParagraph } from '../src/labels/parser';
import { labelEntries } from '../src/sample/products';
import { brandKey, phraseKey } from '../src/shared/text';

const ROOT = path.join(__dirname, '..', '..');
const FLAGS = [
  'contains_fragrance',
  'contains_drying_alcohol',
  'contains_parabens',
  'contains_sulfates',
  'contains_silicones',
] as const;

/** Each product's id and the label text the pipeline read its list from (first record with a list wins). */
function labelTexts(rawDir: string): Map<string, string> {
  const records = [
    ...readKgProducts(rawDir).map((p) => ({ brand: p.brand, name: p.name, text: listParagraph(p.ingredientsText) })),
    ...readKaggle(rawDir).map((p) => ({ brand: p.brand, name: p.name, text: p.ingredientsText })),
    ...readCurlsProducts(rawDir).map((p) => ({ brand: p.brand, name: p.name, text: p.ingredientsText })),
    ...readSephoraInfo(rawDir).map((p) => ({ brand: p.brand, name: p.name, text: p.ingredientsText })),
  ];
  const out = new Map<string, string>();
  for (const r of records) {
    const id = uuidV5(`product:${brandKey(r.brand.replace(/\s+/g, ' ').trim())}|${phraseKey(r.name)}`);
    if (!out.has(id) && labelEntries(r.text).length > 0) out.set(id, r.text);
  }
  return out;
}

/**
 * Checks every product built from its text; returns [checked, products with a list]. A product
 * whose list the sample's junk-record rules changed (`mended`: the printed names they read, src/sample/fragments.ts)
 * is left out: those rules are the pipeline's, not the served analysis's.
 */
function check(
  catalogue: Catalogue,
  texts: Map<string, string>,
  mended: ReadonlySet<string> = new Set(),
): [number, number] {
  let checked = 0;
  let withList = 0;
  for (const [id, text] of texts) {
    const blob = catalogue.product(id);
    if (blob === null) continue;
    if (mended.size > 0 && labelEntries(text).some((n) => mended.has(n))) continue;
    const product = JSON.parse(blob.toString()) as Record<string, unknown> & {
      ingredients: { id: string; label_name: string }[];
    };
    if (product.ingredients.length === 0) continue;
    withList++;
    // Only products built from this text by the current parser (a later record may have supplied the list).
    if (labelEntries(text).join('\n') !== product.ingredients.map((e) => e.label_name).join('\n')) continue;
    const analysis = JSON.parse(catalogue.analyseLabel(text)) as Record<string, unknown> & {
      sections: unknown[];
      entries: { label_name: string; ingredient: { id: string } | null }[];
    };
    // A kit's product keeps the first of names repeated across its lists (docs/labels.md); the analysis lists them all.
    const seen = new Set<string>();
    const firstSeen = analysis.entries.filter((e) => {
      const k = compactKey(e.label_name) || e.label_name;
      const repeat = seen.has(k);
      seen.add(k);
      return analysis.sections.length === 1 || !repeat;
    });
    assert.deepEqual(
      firstSeen.map((e) => e.ingredient?.id ?? null),
      product.ingredients.map((e) => e.id),
      `${id}: ${text.slice(0, 200)}`,
    );
    assert.deepEqual(
      FLAGS.map((f) => analysis[f]),
      FLAGS.map((f) => product[f]),
      id,
    );
    checked++;
  }
  return [checked, withList];
}

async function built(sourceDir: string): Promise<{ catalogue: Catalogue; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-consistency-'));
  const file = path.join(dir, 'catalogue.db');
  await buildCatalogue({ sourceDir, outFile: file, builtAt: '2026-01-01' });
  return { catalogue: Catalogue.open(file), dir };
}

test("the raw excerpts: every product's label text analyses to its flags and ingredient ids", async () => {
  const raw = path.join(ROOT, 'test', 'fixtures', 'raw-excerpts');
  const result = runPipeline(raw);
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-excerpts-'));
  writeSource(src, result.ingredients, result.products);
  const { catalogue, dir } = await built(src);
  try {
    const mended = new Set(
      Object.values(result.stats.dictionary.fragments.examples)
        .flat()
        .map((x) => x.slice(0, x.indexOf(' → '))),
    );
    const [checked, withList] = check(catalogue, labelTexts(raw), mended);
    assert.ok(checked > 0 && checked === withList, `${checked} of ${withList} checked`);
  } finally {
    catalogue.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(src, { recursive: true, force: true });
  }
});

const realRaw = [
  process.env.RAW_DIR,
  path.join(ROOT, '..', 'shared', 'data', 'raw'),
  path.join(ROOT, '..', '..', 'shared', 'data', 'raw'),
].find((d): d is string => d !== undefined && fs.existsSync(path.join(d, 'cosdna-kg', 'sephora_skincare_product.jl')));

test(
  "the bundled sample: its products' label texts analyse to their flags and ingredient ids",
  { skip: realRaw === undefined && 'raw public data not found' },
  async (t) => {
    const { catalogue, dir } = await built(path.join(ROOT, 'data', 'sample'));
    try {
      // Products built from their own text (a product whose list came from another record, or whose list was
      // mended or left out by the pipeline, is not counted).
      const [checked, withList] = check(catalogue, labelTexts(realRaw!));
      t.diagnostic(`${checked} of ${withList} products with a list checked`);
      assert.ok(checked >= 0.6 * withList && checked > 1500, `${checked} of ${withList} checked`);
    } finally {
      catalogue.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
