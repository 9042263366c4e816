// A catalogue swap opens the new file in steps (Catalogue.openInSteps), so that requests are
// served while it loads: every index's loader pauses in proportion to the work it does (a few
// thousand rows, a few hundred thousand postings), not once per index, and the index it makes
// is the one made without pauses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FilterIndex, type ProductRowMeta } from '../src/catalogue/filter-index';
import { TextIndex } from '../src/catalogue/text-index';
import { UuidOrds } from '../src/catalogue/uuid-ords';
import { Searcher } from '../src/catalogue/search';
import { encodePostings } from '../src/catalogue/format';
import type { Steps } from '../src/shared/steps';

/** The steps' pauses, and their result. */
function run<T>(steps: Steps<T>): { pauses: number; value: T } {
  let pauses = 0;
  let r = steps.next();
  for (; r.done !== true; r = steps.next()) pauses++;
  return { pauses, value: r.value };
}

describe('a catalogue opened in steps', () => {
  it('reads ids a few thousand at a time', () => {
    const ids = Array.from({ length: 10_000 }, (_, ord): [string, number] => [randomUUID(), ord]).sort((a, b) =>
      a[0] < b[0] ? -1 : 1,
    );
    const { pauses, value } = run(UuidOrds.load(ids.length, ids, 2048));
    assert.equal(pauses, 4);
    for (const [id, ord] of ids.slice(0, 500)) assert.equal(value.ord(id.toUpperCase()), ord);
  });

  it('reads the filter rows a few thousand at a time and the postings a few hundred thousand at a time', () => {
    const size = 40_000;
    const rows: ProductRowMeta[] = Array.from({ length: size }, (_, ord) => ({
      ord,
      brand_key: `b${ord % 7}`,
      category: ord % 2 === 0 ? 'skincare' : null,
      origin: null,
      flags: ord % 3,
    }));
    // Ten ingredients in every product: 400,000 postings.
    const every = encodePostings(Array.from({ length: size }, (_, ord) => ord));
    const counts = new Int32Array(10).fill(size);
    const { pauses, value } = run(
      FilterIndex.load(size, rows, {
        counts,
        rows: () => Array.from({ length: 10 }, (_, i): [number, Buffer] => [i, every]),
      }),
    );
    assert.ok(pauses >= Math.floor(size / 2048) + 1, `${pauses} pauses`);
    assert.equal(
      value.run({ freeOf: [], excludes: [], brandKey: 'b3', category: 'skincare', has: 4 }, 0, 0).total,
      2857,
    );
  });

  it('reads, inverts and merges search postings a few hundred thousand at a time, with the same answers', () => {
    const docs = 300_000;
    const terms = ['aa', 'ab', 'ac', 'ba'];
    // Every term in every document but the ones a term skips: 815,000 postings.
    const lists = terms.map((_, t) => Array.from({ length: docs }, (_, d) => d).filter((d) => d % (t + 2) !== 0));
    const stored = {
      counts: terms.map((term, t): [string, number] => [term, lists[t].length]),
      rows: () => terms.map((term, t): [string, Buffer] => [term, encodePostings(lists[t])]),
    };
    const { pauses, value } = run(TextIndex.load(stored, docs));
    // Reading the lists and inverting them pause twice each (815,000 postings, a pause once 262,144 are
    // done), the merge of a* (575,000) once, and once before each of the three passes.
    assert.ok(pauses >= 8, `${pauses} pauses`);
    const search = new Searcher([{ index: value, weight: 1 }], docs);
    // "a" is the union of aa, ab and ac: every document that one of them does not skip (all but multiples of 12).
    const expected = Array.from({ length: docs }, (_, d) => d).filter(
      (d) => d % 2 !== 0 || d % 3 !== 0 || d % 4 !== 0,
    ).length;
    assert.equal(search.search(['a'], 0, 1).total, expected);
    assert.equal(value.count('a', false), expected);
  });
});
