// In-process cost of the three list mixes (product search, filter, ingredient search):
// the benchmark's own requests, parsed as the routes parse them, replayed in order
// against one opened catalogue, with no HTTP. Guarantees: reads only; prints CPU µs per
// call (process.cpuUsage, user + system) per mix, after one warm-up replay, and the
// same for a product read by id as the baseline of the same run.
// Usage: node dist/bench/search-cost.js [catalogue.db] [replays]
import { Catalogue } from '../src/catalogue/read-model';
import { searchWords } from '../src/shared/text';
import { INGREDIENT_SEARCH_HINT, PRODUCT_SEARCH_HINT, filterHint } from '../src/http/no-match';
import { filterQuery, page, query } from './list-requests';
import { buildWorkload } from './workload';

type Call = () => unknown;

function cpuPerCall(calls: Call[], replays: number): number {
  for (const c of calls) c();
  const t = process.cpuUsage();
  for (let r = 0; r < replays; r++) for (const c of calls) c();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / (replays * calls.length);
}

function main(): void {
  const file = process.argv[2] ?? 'var/bench/p200000-i30000-s1/catalogue.db';
  const replays = Number(process.argv[3] ?? 3);
  const w = buildWorkload(file, 1);
  const c = Catalogue.open(file);
  try {
    const mixes: Array<[string, Call[]]> = [
      ['product by id', w.productById.map((r) => () => c.product(r.path.slice(r.path.lastIndexOf('/') + 1)))],
      [
        'product search mix',
        w.productSearch
          .map(query)
          .map((p) => () => c.searchProducts(searchWords(p.get('q')!), page(p), PRODUCT_SEARCH_HINT)),
      ],
      [
        'filter mix',
        w.filter.map(query).map((p) => () => {
          const f = filterQuery(p);
          return c.filterProducts(f, page(p), (alone) => filterHint(alone, f));
        }),
      ],
      [
        'ingredient search',
        w.ingredientSearch
          .map(query)
          .map((p) => () => c.searchIngredients(searchWords(p.get('q')!), page(p), INGREDIENT_SEARCH_HINT)),
      ],
    ];
    for (const [name, calls] of mixes) console.log(`${name.padEnd(20)} ${cpuPerCall(calls, replays).toFixed(1)} µs`);
  } finally {
    c.close();
  }
}

main();
