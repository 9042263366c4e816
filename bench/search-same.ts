// `node dist/bench/search-same.js OLD_DIR [catalogue.db]`: the list answers of this checkout
// against another's (OLD_DIR, built apart), byte for byte, both read models in one process.
// Guarantees: reads only; every request of the three list mixes (product search, filter,
// ingredient search) is asked at its own page and at pages 1, 2, 3, 10, 25 and 51 (filters
// at 1 and 51), in an order that ranks shallow, then deeper, then from what is kept; prints
// how many answers differ (and the first ten) and exits 1 when any does.
import { join } from 'node:path';
import { buildWorkload } from './workload';
import { searchWords } from '../src/shared/text';
import { INGREDIENT_CATEGORIES } from '../src/source/records';
import { FREE_PARAM, INGREDIENT_SEARCH_HINT, PRODUCT_SEARCH_HINT, filterHint } from '../src/http/no-match';
import { Catalogue, type FilterQuery } from '../src/catalogue/read-model';

type ReadModel = Pick<Catalogue, 'searchProducts' | 'searchIngredients' | 'filterProducts' | 'close'>;

function main(): void {
  const oldDir = process.argv[2];
  const file = process.argv[3] ?? 'var/bench/p200000-i30000-s1/catalogue.db';
  if (oldDir === undefined) throw new Error('usage: node dist/bench/search-same.js OLD_DIR [catalogue.db]');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const Old = (
    require(join(oldDir, 'dist/src/catalogue/read-model.js')) as typeof import('../src/catalogue/read-model')
  ).Catalogue;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const w = buildWorkload(file, 1);
  const sides: ReadModel[] = [Catalogue.open(file), Old.open(file)];
  const query = (path: string) => new URLSearchParams(path.slice(path.indexOf('?') + 1));
  let n = 0;
  let differ = 0;
  const check = (what: string, answer: (c: ReadModel) => Buffer) => {
    n++;
    const [a, b] = sides.map(answer);
    if (!a.equals(b) && differ++ < 10) console.log(`differs: ${what}`);
  };
  const pages = [1, 2, 3, 10, 51, 25];
  for (const r of w.productSearch) {
    const p = query(r.path);
    const ws = searchWords(p.get('q')!);
    for (const page of [Number(p.get('page') ?? 1), ...pages])
      check(`${r.path} page ${page}`, (c) => c.searchProducts(ws, page, PRODUCT_SEARCH_HINT));
  }
  for (const r of w.ingredientSearch) {
    const p = query(r.path);
    const ws = searchWords(p.get('q')!);
    for (const page of [Number(p.get('page') ?? 1), ...pages])
      check(`${r.path} page ${page}`, (c) => c.searchIngredients(ws, page, INGREDIENT_SEARCH_HINT));
  }
  for (const r of w.filter) {
    const p = query(r.path);
    const f: FilterQuery = {
      category: p.get('category') ?? undefined,
      brand: p.get('brand') ?? undefined,
      origin: p.get('origin') ?? undefined,
      freeOf: INGREDIENT_CATEGORIES.filter((c) => p.get(FREE_PARAM[c]) === 'true'),
      hasIngredient: p.get('has_ingredient')?.toLowerCase(),
      excludesIngredients: p.get('excludes_ingredient')?.toLowerCase().split(',') ?? [],
    };
    for (const page of [Number(p.get('page') ?? 1), 1, 51])
      check(`${r.path} page ${page}`, (c) => c.filterProducts(f, page, (alone) => filterHint(alone, f)));
  }
  for (const c of sides) c.close();
  console.log(`${n} answers compared, ${differ} differ`);
  if (differ > 0) process.exitCode = 1;
}

main();
