// HTTP behaviour of the product operations on the fixture catalogue.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestServer } from './support/server';
import { BULK, BULK_FIRST_ORD, BUILT_AT, ING, P, ingredientId, productId, products } from './support/fixture';

let s: TestServer;
before(async () => {
  s = await startTestApp();
});
after(async () => {
  await s.close();
});

async function json(path: string, headers?: Record<string, string>) {
  const res = await s.get(path, headers);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}
const ids = (body: any) => body.results.map((r: any) => r.id);

describe('GET /health', () => {
  it('reports counts and built_at from the served file, without a key', async () => {
    const r = await json('/health', {});
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'ok', products: products.length, ingredients: 16, built_at: BUILT_AT });
  });
});

describe('GET /v1/products/search', () => {
  it('matches brand words ignoring case and accents', async () => {
    for (const q of ['caudalie', 'CAUDALÍE', 'Caudalíe serum']) {
      const r = await json(`/v1/products/search?q=${encodeURIComponent(q)}`);
      assert.deepEqual(ids(r.body), [productId(P.caudalie)], q);
    }
  });
  it('requires every word (AND) and treats the last word as a prefix', async () => {
    assert.deepEqual(ids((await json('/v1/products/search?q=night%20revitalift')).body), [productId(P.loreal)]);
    assert.deepEqual(ids((await json('/v1/products/search?q=revitalift%20nig')).body), [productId(P.loreal)]);
    assert.equal(
      (await json('/v1/products/search?q=nig%20revitalift')).body.pagination.total,
      0,
      'only the last word is a prefix',
    );
  });
  it('splits words on anything not a letter or digit and treats operators as plain words', async () => {
    assert.deepEqual(ids((await json(`/v1/products/search?q=${encodeURIComponent("l'oreal")}`)).body), [
      productId(P.loreal),
    ]);
    assert.deepEqual(
      ids((await json(`/v1/products/search?q=${encodeURIComponent('roche-posay AND effaclar')}`)).body),
      [],
    );
    assert.deepEqual(ids((await json(`/v1/products/search?q=${encodeURIComponent('"roche" posay* effaclar')}`)).body), [
      productId(P.roche),
    ]);
    assert.deepEqual(ids((await json(`/v1/products/search?q=${encodeURIComponent('niacinamide 10%')}`)).body), [
      productId(P.ordinary),
    ]);
  });
  it('uses only the first 10 words', async () => {
    const q = 'hydra hydra hydra hydra hydra hydra hydra hydra hydra hydra nonexistentword';
    assert.equal((await json(`/v1/products/search?q=${encodeURIComponent(q)}`)).body.pagination.total, 2);
  });
  it('ranks whole-word and shorter matches first', async () => {
    const r = await json('/v1/products/search?q=hydra');
    assert.deepEqual(ids(r.body), [productId(P.hydraSerum), productId(P.hydrating)]);
  });
  it('pages 20 at a time with total and has_more, up to page 51', async () => {
    const p1 = (await json('/v1/products/search?q=daily')).body;
    assert.equal(p1.results.length, 20);
    assert.deepEqual(p1.pagination, { page: 1, has_more: true, total: BULK });
    const p51 = (await json('/v1/products/search?q=daily&page=51')).body;
    assert.equal(p51.results.length, 20);
    assert.deepEqual(p51.pagination, { page: 51, has_more: true, total: BULK });
    const all = new Set<string>();
    for (const page of [1, 2, 3])
      for (const id of ids((await json(`/v1/products/search?q=daily&page=${page}`)).body)) all.add(id);
    assert.equal(all.size, 60, 'pages do not overlap');
  });
  it("answers no_match with a hint and each word's own count when nothing matches", async () => {
    const r = await json('/v1/products/search?q=Daily%20Zzzz');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.results, []);
    assert.deepEqual(r.body.pagination, { page: 1, has_more: false, total: 0 });
    assert.equal(typeof r.body.no_match.hint, 'string');
    assert.deepEqual(r.body.no_match.terms, [
      { term: 'daily', matches: BULK },
      { term: 'zzzz', matches: 0 },
    ]);
  });
  it('omits no_match when something matches', async () => {
    assert.equal('no_match' in (await json('/v1/products/search?q=daily')).body, false);
  });
  for (const [q, why] of [
    ['', 'empty'],
    ['x'.repeat(201), 'over 200 characters'],
    ['%20-!%3F', 'no letter or digit'],
  ] as const) {
    it(`refuses q that is ${why} with 400 naming q`, async () => {
      const r = await json(`/v1/products/search?q=${q}`);
      assert.equal(r.status, 400);
      assert.match(r.body.message, /\bq\b/);
    });
  }
  it('says "q contains no searchable characters" for punctuation-only q', async () => {
    assert.equal((await json('/v1/products/search?q=%2B%2B%2B')).body.message, 'q contains no searchable characters');
  });
  it('accepts q of exactly 200 characters', async () => {
    assert.equal((await json(`/v1/products/search?q=${'a'.repeat(200)}`)).status, 200);
  });
  it('refuses a missing q', async () => {
    const r = await json('/v1/products/search');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /\bq\b/);
  });
  for (const page of ['0', '52', '1.5', 'abc', '-1', '', ' 1', '1e1']) {
    it(`refuses page=${JSON.stringify(page)} with 400 naming page`, async () => {
      const r = await json(`/v1/products/search?q=daily&page=${encodeURIComponent(page)}`);
      assert.equal(r.status, 400);
      assert.match(r.body.message, /page/);
    });
  }
});

describe('GET /v1/products (filter)', () => {
  it('pages through the whole catalogue in catalogue order without filters', async () => {
    const r = await json('/v1/products');
    assert.deepEqual(
      ids(r.body),
      products.slice(0, 20).map((p) => p.id),
    );
    assert.deepEqual(r.body.pagination, { page: 1, has_more: true, total: products.length });
    const last = await json('/v1/products?page=51');
    assert.deepEqual(
      ids(last.body),
      products.slice(1000, 1020).map((p) => p.id),
    );
  });
  it('matches brand ignoring case, accents, punctuation and spaces', async () => {
    for (const b of ['loreal paris', 'LOREALPARIS', "L'Oréal Paris", 'l o r e a l-p a r i s']) {
      assert.deepEqual(ids((await json(`/v1/products?brand=${encodeURIComponent(b)}`)).body), [productId(P.loreal)], b);
    }
  });
  it('refuses a brand without letters or digits', async () => {
    const r = await json('/v1/products?brand=---');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /brand/);
  });
  it('matches category and origin exactly and case-sensitively', async () => {
    assert.deepEqual(ids((await json('/v1/products?category=haircare')).body), [
      productId(P.shampoo),
      productId(P.silky),
    ]);
    assert.equal((await json('/v1/products?category=Haircare')).body.pagination.total, 0);
    assert.equal((await json('/v1/products?category=body%2Fbath')).body.pagination.total, BULK / 2);
    assert.equal((await json('/v1/products?origin=France')).body.pagination.total, 3);
    assert.equal((await json('/v1/products?origin=france')).body.pagination.total, 0);
  });
  it('gives an unknown category an empty page whose hint names the category filter', async () => {
    const r = await json('/v1/products?category=lipstick');
    assert.equal(r.status, 200);
    assert.equal(r.body.pagination.total, 0);
    assert.match(r.body.no_match.hint, /category/);
    assert.equal('terms' in r.body.no_match, false);
  });
  it('applies each *_free flag only when true', async () => {
    const haircare = (q: string) => json(`/v1/products?category=haircare&${q}`).then((r) => ids(r.body));
    assert.deepEqual(await haircare('sulfate_free=true'), [productId(P.silky)]);
    assert.deepEqual(await haircare('silicone_free=true'), [productId(P.shampoo)]);
    assert.deepEqual(await haircare('fragrance_free=true'), [productId(P.silky)]);
    assert.deepEqual(await haircare('sulfate_free=false'), [productId(P.shampoo), productId(P.silky)]);
    assert.deepEqual(ids((await json('/v1/products?origin=France&alcohol_free=true&paraben_free=true')).body), [
      productId(P.caudalie),
      productId(P.roche),
    ]);
  });
  for (const v of ['TRUE', '1', 'yes', '']) {
    it(`refuses fragrance_free=${JSON.stringify(v)}`, async () => {
      const r = await json(`/v1/products?fragrance_free=${v}`);
      assert.equal(r.status, 400);
      assert.match(r.body.message, /fragrance_free/);
    });
  }
  it('keeps products containing has_ingredient, case ignored', async () => {
    const r = await json(`/v1/products?has_ingredient=${ingredientId(ING.niacinamide).toUpperCase()}`);
    assert.deepEqual(ids(r.body), [productId(P.caudalie), productId(P.cerave), productId(P.ordinary)]);
  });
  it('gives an unknown has_ingredient an empty page, not an error', async () => {
    const r = await json('/v1/products?has_ingredient=00000000-0000-4000-8000-000000000000');
    assert.equal(r.status, 200);
    assert.equal(r.body.pagination.total, 0);
    assert.match(r.body.no_match.hint, /has_ingredient/);
  });
  it('refuses a has_ingredient that is not a uuid', async () => {
    const r = await json('/v1/products?has_ingredient=glycerin');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /has_ingredient/);
  });
  it('excludes products containing any of up to 10 ingredients, ignoring unknown uuids', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const r = await json(`/v1/products?brand=curl%20co&excludes_ingredient=${ingredientId(ING.sls)},${unknown}`);
    assert.deepEqual(ids(r.body), [productId(P.silky)]);
    const glycerinFree = await json(`/v1/products?excludes_ingredient=${ingredientId(ING.glycerin)}`);
    assert.equal(
      glycerinFree.body.pagination.total,
      products.filter((p) => !p.ingredients.some((e) => e.id === ingredientId(ING.glycerin))).length,
    );
  });
  it('refuses excludes_ingredient with more than 10 uuids, spaces or a bad item', async () => {
    const u = ingredientId(ING.aqua);
    for (const v of [Array(11).fill(u).join(','), `${u}, ${u}`, `${u},nope`, '', `${u},`]) {
      const r = await json(`/v1/products?excludes_ingredient=${encodeURIComponent(v)}`);
      assert.equal(r.status, 400, v);
      assert.match(r.body.message, /excludes_ingredient/);
    }
    assert.equal((await json(`/v1/products?excludes_ingredient=${Array(10).fill(u).join(',')}`)).status, 200);
  });
  it('combines filters with AND and names a filter to change when the combination is empty', async () => {
    const r = await json('/v1/products?brand=cerave&sulfate_free=true');
    assert.equal(r.body.pagination.total, 0);
    assert.match(r.body.no_match.hint, /brand|sulfate_free/);
  });
  it('keeps catalogue order across pages of a filter', async () => {
    const r = await json('/v1/products?brand=bulk%20brand&page=2');
    assert.deepEqual(
      ids(r.body),
      products.slice(BULK_FIRST_ORD + 20, BULK_FIRST_ORD + 40).map((p) => p.id),
    );
  });
  for (const [param, value] of [
    ['category', ''],
    ['category', 'x'.repeat(101)],
    ['origin', ''],
    ['origin', 'x'.repeat(101)],
    ['brand', 'x'.repeat(201)],
  ]) {
    it(`refuses ${param} of length ${value.length}`, async () => {
      const r = await json(`/v1/products?${param}=${value}`);
      assert.equal(r.status, 400);
      assert.match(r.body.message, new RegExp(param));
    });
  }
});

describe('GET /v1/products/{id}', () => {
  it('returns the full payload with ingredients in label order joined to the dictionary', async () => {
    const r = await json(`/v1/products/${productId(P.caudalie)}`);
    assert.equal(r.status, 200);
    const p = r.body;
    assert.deepEqual(
      Object.keys(p).sort(),
      [
        'brand',
        'category',
        'contains_drying_alcohol',
        'contains_fragrance',
        'contains_parabens',
        'contains_silicones',
        'contains_sulfates',
        'id',
        'image_url',
        'ingredients',
        'name',
        'origin',
      ].sort(),
    );
    assert.equal(p.brand, 'Caudalíe');
    assert.equal(p.contains_fragrance, true);
    assert.equal(p.contains_sulfates, false);
    assert.deepEqual(
      p.ingredients.map((e: any) => [e.position, e.label_name, e.name]),
      [
        [0, 'Aqua/Water/Eau', 'Aqua'],
        [1, 'Ingredient 1', 'Glycerin'],
        [2, 'Ingredient 7', 'Niacinamide'],
        [3, 'Fragrance', 'Parfum'],
      ],
    );
    assert.equal(p.ingredients[2].concentration, 5);
    assert.deepEqual(p.ingredients[1], {
      position: 1,
      label_name: 'Ingredient 1',
      concentration: null,
      id: ingredientId(ING.glycerin),
      name: 'Glycerin',
      rating: 'supporting actives',
      irritancy: '0',
      comedogenicity: '0',
      functions: ['humectant', 'solvent'],
      cas_number: '56-81-5',
      ec_number: '200-289-5',
      ph_eur_name: 'Glycerolum',
      iupac_name: 'propane-1,2,3-triol',
      other_names: 'Glycerol, Glycerine',
      category: null,
    });
  });
  it("derives each contains_* flag from the ingredients' categories", async () => {
    const flags = async (ord: number) => {
      const b = (await json(`/v1/products/${productId(ord)}`)).body;
      return [
        b.contains_fragrance,
        b.contains_drying_alcohol,
        b.contains_parabens,
        b.contains_sulfates,
        b.contains_silicones,
      ];
    };
    assert.deepEqual(await flags(P.loreal), [false, true, true, false, false]);
    assert.deepEqual(await flags(P.roche), [false, false, false, false, true]);
    assert.deepEqual(await flags(P.shampoo), [true, false, false, true, false]);
  });
  it('returns nulls and an empty ingredient list as stored', async () => {
    const b = (await json(`/v1/products/${productId(P.nobrand)}`)).body;
    assert.deepEqual(
      [b.brand, b.name, b.category, b.origin, b.image_url, b.ingredients],
      [null, null, null, null, null, []],
    );
  });
  it('accepts the id in any letter case', async () => {
    const r = await json(`/v1/products/${productId(P.roche).toUpperCase()}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.id, productId(P.roche));
  });
  it('answers 404 echoing an unknown id', async () => {
    const id = 'BBBBBBBB-0000-4000-8000-00000000FFFF';
    const r = await json(`/v1/products/${id}`);
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(r.body.error, 'Not Found');
    assert.ok(r.body.message.includes(id));
  });
  it('answers 400 for an id that is not a uuid', async () => {
    const r = await json('/v1/products/not-a-uuid');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /\bid\b/);
  });
  it('points a barcode sent as id at the barcode endpoint', async () => {
    const r = await json('/v1/products/3522930003045');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /barcode/);
  });
});

describe('GET /v1/products/barcode/{barcode}', () => {
  it('resolves every zero-padded form of a stored code', async () => {
    for (const code of [
      '3522930003045',
      '03522930003045',
      '12345670',
      '012345670',
      '0000012345670',
      '00000012345670',
    ]) {
      const r = await json(`/v1/products/barcode/${code}`);
      assert.equal(r.status, 200, code);
      assert.equal(r.body.id, productId(P.caudalie), code);
    }
    assert.equal((await json('/v1/products/barcode/30123456789012')).body.id, productId(P.loreal));
    assert.equal((await json('/v1/products/barcode/00012345678')).body.id, productId(P.cerave));
  });
  it('answers 404 echoing an unknown barcode', async () => {
    const r = await json('/v1/products/barcode/99999999999999');
    assert.equal(r.status, 404);
    assert.ok(r.body.message.includes('99999999999999'));
  });
  for (const code of ['1234567', '123456789012345', '1234 5678', '1234-5678', 'abcdefgh']) {
    it(`answers 400 naming barcode for ${JSON.stringify(code)}`, async () => {
      const r = await json(`/v1/products/barcode/${encodeURIComponent(code)}`);
      assert.equal(r.status, 400);
      assert.match(r.body.message, /barcode/);
    });
  }
  it('answers 403 to plans without barcode lookup, 200 to those with it', async () => {
    for (const plan of ['sandbox', 'starter'] as const) {
      const r = await json('/v1/products/barcode/12345678', { 'x-api-key': s.keys[plan].key });
      assert.equal(r.status, 403, plan);
      assert.match(r.body.message, /barcode/);
    }
    for (const plan of ['trial', 'pro'] as const)
      assert.equal((await json('/v1/products/barcode/12345678', { 'x-api-key': s.keys[plan].key })).status, 200, plan);
  });
});

describe('POST /v1/products/batch', () => {
  const post = (body: string, contentType: string | null = 'application/json', key = s.keys.pro.key) =>
    s.fetch(`/v1/products/batch`, {
      method: 'POST',
      body,
      headers: { 'x-api-key': key, ...(contentType ? { 'content-type': contentType } : {}) },
    });

  it('returns payloads in order, repeats duplicates, null for unknown ids, and X-Item-Count', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const want = [productId(P.cerave), unknown, productId(P.roche).toUpperCase(), productId(P.cerave)];
    const res = await post(JSON.stringify({ ids: want }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-item-count'), '4');
    const body = (await res.json()) as any[];
    assert.deepEqual(
      body.map((p) => p && p.id),
      [productId(P.cerave), null, productId(P.roche), productId(P.cerave)],
    );
    const single = await json(`/v1/products/${productId(P.cerave)}`);
    assert.deepEqual(body[0], single.body);
  });
  it('accepts 50 ids and refuses 51', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => productId(i));
    assert.equal((await post(JSON.stringify({ ids: fifty }))).status, 200);
    const r = await post(JSON.stringify({ ids: [...fifty, productId(0)] }));
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as any).message, /ids/);
  });
  it('answers 415 without a content type or with one it cannot parse', async () => {
    for (const ct of [null, 'text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const r = await post(JSON.stringify({ ids: [productId(0)] }), ct);
      assert.equal(r.status, 415, String(ct));
      assert.equal(((await r.json()) as any).error, 'Unsupported Media Type');
    }
  });
  it('accepts a JSON content type with parameters', async () => {
    assert.equal((await post(JSON.stringify({ ids: [productId(0)] }), 'application/json; charset=utf-8')).status, 200);
  });
  const cases: Array<[string, string, RegExp]> = [
    ['invalid JSON', '{"ids": [', /JSON/],
    ['an empty body', '', /body/],
    ['a JSON array', '[]', /object/],
    ['a JSON string', '"ids"', /object/],
    ['null', 'null', /object/],
    ['no ids', '{}', /ids/],
    ['ids not an array', '{"ids":"x"}', /ids/],
    ['empty ids', '{"ids":[]}', /ids/],
    ['a bad id at index 2', `{"ids":["${productId(0)}","${productId(1)}","nope"]}`, /ids\[2\]/],
    ['a number id', `{"ids":[1]}`, /ids\[0\]/],
    ['an unknown field', `{"ids":["${productId(0)}"],"extra":1}`, /extra/],
  ];
  for (const [what, body, msg] of cases) {
    it(`answers 400 for ${what}`, async () => {
      const r = await post(body);
      assert.equal(r.status, 400);
      const b = (await r.json()) as any;
      assert.equal(b.error, 'Bad Request');
      assert.match(b.message, msg);
    });
  }
});
