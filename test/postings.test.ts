// PostingsBuilder (src/builder/postings.ts): the postings it encodes are those of one array per
// ingredient, filled product after product, for any order of entries, repeats and growth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsBuilder } from '../src/builder/postings';
import { decodePostings } from '../src/catalogue/format';

const lists = (b: PostingsBuilder) => [...b.encoded()].map(([iord, p]) => [iord, [...decodePostings(p)]]);

test('postings list, per ingredient listed, the ascending products that list it, each once', () => {
  const b = new PostingsBuilder(5);
  b.add(0, [3, 1, 3]); // an ingredient twice in one product counts once
  b.add(2, [1]);
  b.add(5, [4, 1]);
  assert.deepEqual(lists(b), [
    [1, [0, 2, 5]],
    [3, [0]],
    [4, [5]],
  ]); // ingredients 0 and 2, listed by none, have no postings
});

test('postings are the same as one array per ingredient when the entries outgrow the first buffer', () => {
  const ingredients = 300;
  const b = new PostingsBuilder(ingredients);
  const expected = Array.from({ length: ingredients }, () => [] as number[]);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % ingredients;
  for (let ord = 0; ord < 5000; ord++) {
    const ords = Array.from({ length: 30 }, next);
    b.add(ord, ords);
    for (const i of new Set(ords)) expected[i].push(ord);
  }
  assert.deepEqual(
    lists(b),
    expected.flatMap((l, i) => (l.length > 0 ? [[i, l]] : [])),
  );
});
