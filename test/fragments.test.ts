import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Fragments } from '../src/catalogue/fragments';

/** Summaries as the build renders them: the id first, then fields with non-ASCII text. */
const summaries = Array.from({ length: 300 }, (_, i) =>
  JSON.stringify({
    id: randomUUID(),
    brand: i % 3 === 0 ? null : `Brand ${i} é`,
    name: `Crème ${i}`,
    category: 'skincare',
  }),
);

function filled(idFirst: boolean, texts = summaries): Fragments {
  const f = new Fragments(
    texts.length,
    texts.reduce((n, s) => n + Buffer.byteLength(s), 0),
    idFirst,
  );
  for (const s of texts) f.push(s);
  return f;
}

test('fragments kept with their ids packed answer the same bytes as kept whole', () => {
  const plain = filled(false);
  const packed = filled(true);
  const pages = [[], [0], [299, 0, 150], Array.from({ length: 300 }, (_, i) => 299 - i), [7, 7, 7]];
  for (const ords of pages) {
    const want = plain.results(ords, '],"pagination":{}}');
    assert.equal(packed.results(ords, '],"pagination":{}}').toString(), want.toString());
    assert.equal(want.toString(), `{"results":[${ords.map((o) => summaries[o]).join(',')}],"pagination":{}}`);
  }
});

test('a fragment that does not begin with a lower-case uuid id is refused when ids are packed', () => {
  const id = randomUUID();
  for (const bad of [
    JSON.stringify({ id: id.toUpperCase(), name: 'x' }),
    JSON.stringify({ name: 'x', id }),
    JSON.stringify({ id: id.replace(/-/g, '_'), name: 'x' }),
    JSON.stringify({ id: `${id}0`, name: 'x' }),
  ]) {
    assert.throws(() => filled(true, [bad]), /does not begin with its id|fragment sizes/);
  }
  assert.equal(
    filled(true, [JSON.stringify({ id, name: 'x' })])
      .results([0], ']}')
      .toString(),
    `{"results":[{"id":"${id}","name":"x"}]}`,
  );
});
