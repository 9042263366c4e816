// HTTP behaviour of the ingredient operations on the fixture catalogue.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestServer } from './support/server';
import { ING, ingredientId, ingredients } from './support/fixture';

let s: TestServer;
before(async () => {
  s = await startTestApp();
});
after(async () => {
  await s.close();
});

async function json(path: string) {
  const res = await s.get(path);
  return { status: res.status, body: (await res.json()) as any };
}
const names = (body: any) => body.results.map((r: any) => r.name);

describe('GET /v1/ingredients/search', () => {
  it('puts names starting with the query first, shortest first, then other matches', async () => {
    const r = await json('/v1/ingredients/search?q=sodium');
    assert.deepEqual(names(r.body), [
      'Sodium Chloride',
      'Sodium Hyaluronate',
      'Sodium Lauryl Sulfate',
      'Sodium Laureth Sulfate',
    ]);
    const h = await json('/v1/ingredients/search?q=hyaluronic');
    assert.deepEqual(
      names(h.body),
      ['Hyaluronic Acid', 'Sodium Hyaluronate'],
      'a name match ranks above a synonym match',
    );
  });
  it('searches other_names as well as the name', async () => {
    assert.deepEqual(names((await json('/v1/ingredients/search?q=vitamin%20e')).body), ['Tocopherol']);
    assert.deepEqual(names((await json('/v1/ingredients/search?q=WATER')).body), ['Aqua']);
  });
  it('matches the last word as a prefix and needs every word', async () => {
    assert.deepEqual(names((await json('/v1/ingredients/search?q=sodium%20laur')).body), [
      'Sodium Lauryl Sulfate',
      'Sodium Laureth Sulfate',
    ]);
    assert.deepEqual(names((await json('/v1/ingredients/search?q=glyc')).body), ['Glycerin']);
  });
  it('returns search items with exactly id, name, other_names and rating', async () => {
    const r = await json('/v1/ingredients/search?q=glycerin');
    assert.deepEqual(r.body.results, [
      {
        id: ingredientId(ING.glycerin),
        name: 'Glycerin',
        other_names: 'Glycerol, Glycerine',
        rating: 'supporting actives',
      },
    ]);
    assert.deepEqual(r.body.pagination, { page: 1, has_more: false, total: 1 });
  });
  it('answers no_match with per-word counts', async () => {
    const r = await json('/v1/ingredients/search?q=sodium%20unobtainium');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.no_match.terms, [
      { term: 'sodium', matches: 4 },
      { term: 'unobtainium', matches: 0 },
    ]);
    assert.equal(typeof r.body.no_match.hint, 'string');
  });
  it('applies the same q and page rules as product search', async () => {
    for (const p of [
      '?q=',
      '?q=%2A%2A',
      `?q=${'a'.repeat(201)}`,
      '?q=a&page=0',
      '?q=a&page=52',
      '?q=a&q=b',
      '?q=a&limit=5',
      '',
    ]) {
      const r = await json(`/v1/ingredients/search${p}`);
      assert.equal(r.status, 400, p);
      assert.equal(r.body.error, 'Bad Request');
    }
    assert.equal((await json('/v1/ingredients/search?q=%2A%2A')).body.message, 'q contains no searchable characters');
  });
});

describe('GET /v1/ingredients/{id}', () => {
  it('returns the ingredient record with exactly the spec fields', async () => {
    const r = await json(`/v1/ingredients/${ingredientId(ING.sles).toUpperCase()}`);
    assert.equal(r.status, 200);
    const src = ingredients[ING.sles];
    assert.deepEqual(r.body, { ...src, id: ingredientId(ING.sles) });
  });
  it('answers 404 echoing an unknown id and 400 for a non-uuid', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const r = await json(`/v1/ingredients/${id}`);
    assert.equal(r.status, 404);
    assert.ok(r.body.message.includes(id));
    const bad = await json('/v1/ingredients/glycerin');
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /\bid\b/);
  });
});
