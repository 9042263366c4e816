// generateCatalogue(): writes a realistic synthetic catalogue source (catalogue-source.md)
// of any size into a directory. Guarantees: output is a function of (seed, products,
// ingredients, gzip) only — same arguments, byte-identical files; products are streamed,
// never all held in memory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildDictionary } from './ingredients';
import { ProductGenerator } from './products';
import { SourceFileWriter } from '../source/writer';

export interface GenerateOptions {
  outDir: string;
  products?: number;
  ingredients?: number;
  seed?: string | number;
  gzip?: boolean;
}

export interface GenerateResult {
  ingredientsFile: string;
  productsFile: string;
  products: number;
  ingredients: number;
  millis: number;
}

export const DEFAULTS = { products: 200_000, ingredients: 30_000, seed: '1' };

export async function generateCatalogue(opts: GenerateOptions): Promise<GenerateResult> {
  const started = Date.now();
  const products = opts.products ?? DEFAULTS.products;
  const ingredients = opts.ingredients ?? DEFAULTS.ingredients;
  const seed = String(opts.seed ?? DEFAULTS.seed);
  if (!Number.isInteger(products) || products < 0)
    throw new Error(`products must be a non-negative integer, got ${products}`);
  const dict = buildDictionary(seed, ingredients);
  fs.mkdirSync(opts.outDir, { recursive: true });
  const ext = opts.gzip ? '.jsonl.gz' : '.jsonl';
  const ingredientsFile = path.join(opts.outDir, 'ingredients' + ext);
  const productsFile = path.join(opts.outDir, 'products' + ext);
  // A source may hold NAME or NAME.gz, never both: drop the other form of the files we write.
  const other = opts.gzip ? '.jsonl' : '.jsonl.gz';
  for (const name of ['ingredients', 'products']) fs.rmSync(path.join(opts.outDir, name + other), { force: true });

  const ing = new SourceFileWriter(ingredientsFile, opts.gzip ? 1 : null);
  for (const d of dict.all) {
    const wait = ing.write(JSON.stringify(d.record));
    if (wait) await wait;
  }
  await ing.close();

  const gen = new ProductGenerator(seed, dict, products);
  const prod = new SourceFileWriter(productsFile, opts.gzip ? 1 : null);
  for (let i = 0; i < products; i++) {
    const wait = prod.write(JSON.stringify(gen.next()));
    if (wait) await wait;
  }
  await prod.close();
  return { ingredientsFile, productsFile, products, ingredients, millis: Date.now() - started };
}
