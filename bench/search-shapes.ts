// `node dist/bench/search-shapes.js [catalogue.db] [replays]`: in-process CPU of the three
// list mixes (product search, filter, ingredient search) by query shape. Guarantees: reads
// only; the benchmark's own requests (bench/workload.ts), parsed as the routes parse them,
// replayed in order against one opened catalogue with no HTTP; prints per shape the mean
// of the first pass (cold: nothing kept yet) and of `replays` passes after it (what a
// server cycling through the mix sees), each with its ratio to the mix's mean, and the
// slowest requests. Shapes are read back from the requests (a deep page has a page
// parameter; 'short' is one word of at most 3 letters, a prefix or a short word).
import { Catalogue } from '../src/catalogue/read-model';
import { searchWords } from '../src/shared/text';
import { INGREDIENT_SEARCH_HINT, PRODUCT_SEARCH_HINT, filterHint } from '../src/http/no-match';
import { filterQuery, page, query } from './list-requests';
import { buildWorkload, type BenchRequest } from './workload';

function searchShape(p: URLSearchParams): string {
  const q = p.get('q')!;
  if (p.get('page')) return 'deep page';
  if (q.includes('qzx')) return 'nothing';
  const ws = searchWords(q);
  if (ws.length > 1) return 'words';
  if (ws[0].length <= 3) return 'short (prefix?)';
  return 'one word';
}
function filterShape(p: URLSearchParams): string {
  const keys = [...p.keys()].filter((k) => k !== 'page');
  const s = keys.map((k) => (k.endsWith('_free') ? 'flag' : k)).sort();
  const flags = s.filter((k) => k === 'flag').length;
  const rest = [...new Set(s.filter((k) => k !== 'flag'))].join('+');
  return (p.get('page') ? 'deep:' : '') + (rest || '') + (flags ? `${rest ? '+' : ''}${flags}flag` : '');
}
function main(): void {
  const file = process.argv[2] ?? 'var/bench/p200000-i30000-s1/catalogue.db';
  const replays = Number(process.argv[3] ?? 4);
  const w = buildWorkload(file, 1);
  const c = Catalogue.open(file);
  const mixes: Array<[string, BenchRequest[], (p: URLSearchParams) => string, (p: URLSearchParams) => unknown]> = [
    [
      'product search',
      w.productSearch,
      searchShape,
      (p) => c.searchProducts(searchWords(p.get('q')!), page(p), PRODUCT_SEARCH_HINT),
    ],
    [
      'filter',
      w.filter,
      filterShape,
      (p) => {
        const f = filterQuery(p);
        return c.filterProducts(f, page(p), (a) => filterHint(a, f));
      },
    ],
    [
      'ingredient search',
      w.ingredientSearch,
      searchShape,
      (p) => c.searchIngredients(searchWords(p.get('q')!), page(p), INGREDIENT_SEARCH_HINT),
    ],
  ];
  for (const [name, reqs, shape, call] of mixes) {
    const ps = reqs.map(query);
    const shapes = ps.map(shape);
    const distinct = new Set(reqs.map((r) => r.path.replace(/&page=\d+/, ''))).size;
    const cold = new Float64Array(ps.length);
    for (let i = 0; i < ps.length; i++) {
      const t = process.cpuUsage();
      call(ps[i]);
      const u = process.cpuUsage(t);
      cold[i] = u.user + u.system;
    }
    const coldTotal = cold.reduce((a, b) => a + b, 0);
    console.log(`${name}: cold pass mean ${(coldTotal / ps.length).toFixed(1)} µs`);
    const cby = new Map<string, number[]>();
    shapes.forEach((s, i) => (cby.get(s) ?? cby.set(s, []).get(s)!).push(cold[i]));
    for (const [s, xs] of [...cby].sort())
      console.log(`  cold ${s.padEnd(28)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)}`);
    const cw = [...cold.keys()].sort((a, b) => cold[b] - cold[a]).slice(0, 5);
    for (const i of cw) console.log(`    cold ${cold[i].toFixed(0)} µs ${decodeURIComponent(reqs[i].path)}`);
    const cost = new Float64Array(ps.length);
    for (let r = 0; r < replays; r++)
      for (let i = 0; i < ps.length; i++) {
        const t = process.cpuUsage();
        call(ps[i]);
        const u = process.cpuUsage(t);
        cost[i] += u.user + u.system;
      }
    let total = 0;
    for (const x of cost) total += x;
    const mean = total / (replays * ps.length);
    console.log(`${name}: mean ${mean.toFixed(1)} µs, ${distinct} distinct queries`);
    const by = new Map<string, number[]>();
    shapes.forEach((s, i) => (by.get(s) ?? by.set(s, []).get(s)!).push(cost[i] / replays));
    for (const [s, xs] of [...by].sort()) {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sorted = [...xs].sort((a, b) => a - b);
      console.log(
        `  ${s.padEnd(28)} n=${String(xs.length).padStart(4)} mean ${m.toFixed(1).padStart(7)} (${(m / mean).toFixed(2)}x) p50 ${sorted[xs.length >> 1].toFixed(0)} p99 ${sorted[Math.floor(xs.length * 0.99)].toFixed(0)} max ${sorted[xs.length - 1].toFixed(0)}  share ${((xs.reduce((a, b) => a + b, 0) / (total / replays)) * 100).toFixed(0)}%`,
      );
    }
    const worst = [...cost.keys()].sort((a, b) => cost[b] - cost[a]).slice(0, 8);
    for (const i of worst) console.log(`    ${(cost[i] / replays).toFixed(0)} µs ${decodeURIComponent(reqs[i].path)}`);
  }
  c.close();
}
main();
