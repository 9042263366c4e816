// The read model's fast paths (posting lists, bitsets, top-k selection, the sorted id
// array) give the same answers as a plain scan of the source data, for random catalogues
// and queries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { buildCatalogue } from '../src/builder';
import { Catalogue } from '../src/catalogue/read-model';
import { brandKey, words } from '../src/shared/text';
import {
  INGREDIENT_CATEGORIES,
  type IngredientCategory,
  type SourceIngredient as IngredientSource,
  type SourceProduct as ProductSource,
} from '../src/source/records';
import { entry, ingredient, product, writeSource } from './support/source';

const BRANDS = ['Acme', 'Ácme Labs', 'Blue Sky', 'Cera', 'Ceralab', 'Dr. Derm', 'Eau Belle'];
const NAME_WORDS = [
  'cream',
  'creamy',
  'serum',
  'hydra',
  'hydrating',
  'night',
  'day',
  'gel',
  'gentle',
  'clean',
  'cleanser',
  'spf',
  '30',
  '50',
  'crème',
];
const CATS = ['skincare', 'makeup', 'haircare', null];
const ORIGINS = ['France', 'Korea', null];

let rand = 12345;
// A 31-bit LCG in exact integer arithmetic; its high bits are the well-mixed ones.
const rnd = (n: number) => {
  rand = (Math.imul(rand, 1103515245) + 12345) & 0x7fffffff;
  return (rand >>> 8) % n;
};

/** A random uuid in mixed letter case (source ids may be any case). */
const randomUuid = () =>
  [8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, () => '0123456789abcdefABCDEF'[rnd(22)]).join('')).join('-');

let dir: string;
let cat: Catalogue;
let cached: Catalogue; // the same file, ranking and caching every query with 2 or more matches
let ings: IngredientSource[];
let prods: ProductSource[];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-ref-'));
  ings = Array.from({ length: 40 }, (_, i) =>
    ingredient(i, {
      name: `${['Sodium', 'Cetyl', 'Aqua', 'Hydra', 'Glyco'][i % 5]} ${['Chloride', 'Alcohol', 'Extract', 'Oil', 'Acid', 'Gel', 'Cream', 'Hydrating'][i % 8]} ${i}`,
      other_names: i % 3 === 0 ? `Syn ${['hydra', 'cream', 'oil'][i % 3]} ${i}` : null,
      category: i % 6 === 0 ? INGREDIENT_CATEGORIES[(i / 6) % 5] : null,
    }),
  );
  prods = Array.from({ length: 600 }, (_, i) => {
    const n = 1 + rnd(5);
    const name = Array.from({ length: n }, () => NAME_WORDS[rnd(NAME_WORDS.length)]).join(' ');
    const k = rnd(8);
    // Ingredients 30-39 are rare (about 10 products each), so the filter meets short lists as well as bitsets.
    const used = [...new Set(Array.from({ length: k }, () => (rnd(20) === 0 ? 30 + rnd(10) : rnd(30))))];
    return product(i, {
      id: randomUuid(),
      brand: rnd(10) === 0 ? null : BRANDS[rnd(BRANDS.length)],
      name: rnd(20) === 0 ? null : name,
      category: CATS[rnd(CATS.length)],
      origin: ORIGINS[rnd(ORIGINS.length)],
      ingredients: used.map((u) => entry(u)),
    });
  });
  writeSource(path.join(dir, 'src'), { ingredients: ings, products: prods });
  await buildCatalogue({ sourceDir: path.join(dir, 'src'), outFile: path.join(dir, 'c.db'), builtAt: '2026-01-01' });
  cat = Catalogue.open(path.join(dir, 'c.db'));
  cached = Catalogue.open(path.join(dir, 'c.db'));
});
after(() => {
  cat.close();
  cached.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every page's ids, concatenated (all rows when total <= 1,020). */
function allIds(page: (p: number) => Buffer): { ids: string[]; total: number } {
  const ids: string[] = [];
  let total = 0;
  for (let p = 1; p <= 51; p++) {
    const body = JSON.parse(page(p).toString());
    total = body.pagination.total;
    ids.push(...body.results.map((r: { id: string }) => r.id));
    if (!body.pagination.has_more) break;
  }
  return { ids, total };
}

/** Plain word search: every word whole, the last also as a prefix; scored as the spec of search.ts says. */
function plainSearch(
  docs: string[][],
  fields: Array<(d: number) => string[]>,
  weights: number[],
  q: string[],
  boost?: (d: number) => number,
) {
  const N = docs.length;
  const matchQ = (toks: string[], w: string, last: boolean) =>
    toks.includes(w) ? 1 : last && toks.some((t) => t.startsWith(w) && t !== w) ? 0.5 : 0;
  const wordQ = (d: number, w: string, last: boolean) =>
    Math.max(0, ...fields.map((f, i) => matchQ(f(d), w, last) * weights[i]));
  const counts = q.map((w, i) => docs.filter((_, d) => wordQ(d, w, i === q.length - 1) > 0).length);
  const lens = docs.map((_, d) => new Set(fields[0](d)).size);
  const avg = lens.reduce((a, b) => a + b, 0) / N || 1;
  const scored: Array<{ d: number; s: number }> = [];
  for (let d = 0; d < N; d++) {
    const qs = q.map((w, i) => wordQ(d, w, i === q.length - 1));
    if (qs.some((x) => x === 0)) continue;
    const base = qs.reduce((a, x, i) => a + Math.log(1 + (N - counts[i] + 0.5) / (counts[i] + 0.5)) * x, 0);
    const lf = 2.2 / (1 + 1.2 * (0.25 + (0.75 * lens[d]) / avg));
    scored.push({ d, s: (boost && boost(d)) || base * lf });
  }
  scored.sort((a, b) => b.s - a.s || a.d - b.d);
  return { scored, counts };
}

const wordArb = fc.constantFrom(...NAME_WORDS, ...BRANDS.flatMap((b) => words(b)), 'cr', 'h', 'hyd', 'zzz', 'ni', 'c');

describe('product search equals a plain scan', () => {
  it('same total, same per-word counts, same ranking by score', () => {
    const toks = prods.map((p) => [...words(p.brand ?? ''), ...words(p.name ?? '')]);
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 4 }), (q) => {
        const got = allIds((p) => cat.searchProducts(q, p, ''));
        assert.deepEqual(
          allIds((p) => cached.searchProducts(q, p, '')),
          got,
          'the cached ranking is the same',
        );
        assert.deepEqual(
          allIds((p) => cached.searchProducts(q, p, '')),
          got,
          'and stays the same when served from the cache',
        );
        const ref = plainSearch(toks, [(d) => toks[d]], [1], q);
        assert.equal(got.total, ref.scored.length);
        if (got.total === 0) {
          assert.deepEqual(
            JSON.parse(cat.searchProducts(q, 1, '').toString()).no_match.terms.map((t: any) => t.matches),
            ref.counts,
          );
          return;
        }
        const score = new Map(ref.scored.map((x) => [prods[x.d].id.toLowerCase(), x.s]));
        assert.equal(got.ids.length, Math.min(got.total, 1020));
        got.ids.forEach((id, i) =>
          assert.ok(Math.abs(score.get(id)! - ref.scored[i].s) < 1e-9, `rank ${i} of ${q.join(' ')}`),
        );
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe('ingredient search equals a plain scan', () => {
  it('names starting with the query first, then by score', () => {
    const nameToks = ings.map((i) => words(i.name));
    const otherToks = ings.map((i) => words(i.other_names ?? ''));
    const ingWord = fc.constantFrom(
      'sodium',
      'cetyl',
      'aqua',
      'hydra',
      'glyco',
      'chloride',
      'acid',
      'oil',
      'cream',
      'syn',
      'hydrating',
      'h',
      'c',
      'o',
      '1',
      '12',
      'zz',
    );
    fc.assert(
      fc.property(fc.array(ingWord, { minLength: 1, maxLength: 3 }), (q) => {
        const key = q.join(' ');
        const boost = (d: number) => (words(ings[d].name).join(' ').startsWith(key) ? 1e9 - ings[d].name.length : 0);
        const got = allIds((p) => cat.searchIngredients(q, p, ''));
        assert.deepEqual(
          allIds((p) => cached.searchIngredients(q, p, '')),
          got,
          'the cached ranking is the same',
        );
        const ref = plainSearch(nameToks, [(d) => nameToks[d], (d) => otherToks[d]], [2, 1], q, boost);
        assert.equal(got.total, ref.scored.length);
        const score = new Map(ref.scored.map((x) => [ings[x.d].id, x.s]));
        got.ids.forEach((id, i) => assert.ok(Math.abs(score.get(id)! - ref.scored[i].s) < 1e-9, `rank ${i} of ${key}`));
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});

describe('product lookup by id equals a plain map', () => {
  it('every id finds its product, in either letter case; unknown and malformed ids find nothing', () => {
    const byId = new Map(prods.map((p) => [p.id.toLowerCase(), p]));
    for (const [id, p] of byId) {
      const got = JSON.parse(cat.product(id)!.toString());
      assert.deepEqual([got.id, got.name, got.ingredients.length], [id, p.name, p.ingredients.length]);
      assert.equal(cat.product(id.toUpperCase())!.toString(), cat.product(id)!.toString());
    }
    const misses = [
      ...Array.from({ length: 200 }, randomUuid)
        .map((u) => u.toLowerCase())
        .filter((u) => !byId.has(u)),
      ...[...byId.keys()]
        .slice(0, 20)
        .flatMap((id) => [
          id.slice(1),
          id + '0',
          id.replace(/-/g, '_'),
          id.slice(0, 35) + 'g',
          id.slice(0, 35) + (id.endsWith('0') ? '1' : '0'),
        ])
        .filter((u) => !byId.has(u)),
      '',
      'not-a-uuid',
    ];
    for (const id of misses) assert.equal(cat.product(id), null, id);
    const ids = [...[...byId.keys()].slice(0, 30), ...misses.slice(0, 20)].sort(() => rnd(3) - 1);
    assert.deepEqual(
      JSON.parse(cat.batch(ids).toString()).map((p: { id: string } | null) => p?.id ?? null),
      ids.map((id) => (byId.has(id) ? id : null)),
    );
  });
});

describe('product filter equals a plain scan', () => {
  it('same rows in catalogue order and same total, for a filter and for its neighbours (a kept result never answers another filter)', () => {
    // Rare (short-list), common (bitset) and unknown ingredients, a third each.
    const ingArb = fc
      .oneof(fc.integer({ min: 30, max: 39 }), fc.integer({ min: 0, max: 29 }), fc.integer({ min: 40, max: 45 }))
      .map((i) => (i < 40 ? ings[i].id : `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`));
    const arb = fc.record({
      category: fc.option(fc.constantFrom('skincare', 'makeup', 'haircare', 'other'), { nil: undefined }),
      brand: fc.option(fc.constantFrom(...BRANDS, 'acme labs', 'CERA', 'nobody'), { nil: undefined }),
      origin: fc.option(fc.constantFrom('France', 'Korea', 'Japan'), { nil: undefined }),
      freeOf: fc.subarray([...INGREDIENT_CATEGORIES]),
      hasIngredient: fc.option(ingArb, { nil: undefined }),
      excludesIngredients: fc.array(ingArb, { maxLength: 3 }),
    });
    const catOf = new Map(ings.map((i) => [i.id, i.category]));
    type Filter = typeof arb extends fc.Arbitrary<infer T> ? T : never;
    const check = (f: Filter) => {
      const want = prods
        .filter((p) => {
          const has = new Set(p.ingredients.map((e) => e.id));
          const tags = new Set([...has].map((id) => catOf.get(id)));
          return (
            (f.category === undefined || p.category === f.category) &&
            (f.brand === undefined || (p.brand !== null && brandKey(p.brand) === brandKey(f.brand))) &&
            (f.origin === undefined || p.origin === f.origin) &&
            f.freeOf.every((c: IngredientCategory) => !tags.has(c)) &&
            (f.hasIngredient === undefined || has.has(f.hasIngredient)) &&
            f.excludesIngredients.every((id) => !has.has(id))
          );
        })
        .map((p) => p.id.toLowerCase());
      const got = allIds((p) => cat.filterProducts(f, p, () => ''));
      assert.equal(got.total, want.length);
      assert.deepEqual(got.ids, want.slice(0, 1020));
    };
    fc.assert(
      fc.property(arb, (f) => {
        // The filter, then its neighbours one part apart: answers kept for one must never answer another.
        check(f);
        check({ ...f, category: undefined });
        check({ ...f, brand: undefined });
        check({ ...f, origin: undefined });
        check({ ...f, freeOf: f.freeOf.slice(1) });
        check({ ...f, hasIngredient: undefined });
        check({ ...f, excludesIngredients: f.excludesIngredients.slice(1) });
        check({ ...f, freeOf: [...f.freeOf].reverse(), excludesIngredients: [...f.excludesIngredients].reverse() });
      }),
      { numRuns: 400, seed: 3 },
    );
  });
});

describe('ingredient lookup by id equals a plain map', () => {
  it('every id finds its record, in either letter case; unknown and malformed ids find nothing', () => {
    const ids = ings.map((i) => i.id.toLowerCase());
    for (const id of ids) {
      const got = JSON.parse(cat.ingredient(id)!.toString());
      assert.equal(got.id, id);
      assert.deepEqual(cat.ingredient(id.toUpperCase()), cat.ingredient(id));
    }
    const known = new Set(ids);
    const misses = [
      ...Array.from({ length: 200 }, randomUuid).filter((u) => !known.has(u.toLowerCase())),
      ...ids.slice(0, 20).flatMap((id) => [id.slice(1), id + '0', id.replace(/-/g, '_'), id.slice(0, 35) + 'g']),
      '',
      'not-a-uuid',
    ];
    for (const id of misses) assert.equal(cat.ingredient(id), null, id);
  });
});
