// `catalogue generate --out DIR [--products N] [--ingredients N] [--seed S] [--gzip]`:
// writes a realistic synthetic catalogue source for benchmarks (src/synth/).
// Guarantees: same arguments give byte-identical files; prints what was written and how long it took.
import * as fs from 'node:fs';
import type { Command } from 'commander';
import { DEFAULTS, generateCatalogue } from '../synth/generate';

export function register(program: Command): void {
  program
    .command('generate')
    .description('write a synthetic catalogue source (for benchmarks), deterministic from a seed')
    .requiredOption('--out <dir>', 'output catalogue source directory')
    .option('--products <n>', 'number of products', String(DEFAULTS.products))
    .option('--ingredients <n>', 'number of ingredients (at least 200)', String(DEFAULTS.ingredients))
    .option('--seed <s>', 'seed of the generator', DEFAULTS.seed)
    .option('--gzip', 'write ingredients.jsonl.gz and products.jsonl.gz')
    .action(async (opts: { out: string; products: string; ingredients: string; seed: string; gzip?: boolean }) => {
      const r = await generateCatalogue({
        outDir: opts.out,
        products: count('--products', opts.products),
        ingredients: count('--ingredients', opts.ingredients),
        seed: opts.seed,
        gzip: !!opts.gzip,
      });
      const size = (f: string) => `${(fs.statSync(f).size / 1e6).toFixed(1)} MB`;
      process.stdout.write(
        `wrote ${r.ingredients} ingredients to ${r.ingredientsFile} (${size(r.ingredientsFile)}) and ` +
          `${r.products} products to ${r.productsFile} (${size(r.productsFile)}) in ${(r.millis / 1000).toFixed(1)} s\n`,
      );
    });
}

function count(flag: string, text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new Error(`${flag} must be a non-negative integer, got '${text}'`);
  return Number(text);
}
