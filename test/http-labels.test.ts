// POST /v1/labels/analyze over real HTTP on the fixture catalogue: the answer (entries
// in label order joined to the catalogue's ingredients, flags, counts, sections, notes),
// consistency with how the fixture products were built, strict body checks (400 naming
// the field, 415), and the /v1 access rules (403, 402, trial metering as one call).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { startTestApp, type TestServer } from './support/server';
import { ING, P, ingredientId, productId, products } from './support/fixture';
import { openAdmin } from '../src/access';
import * as path from 'node:path';
import { Catalogue } from '../src/catalogue/read-model';
import { MAX_LABEL_TEXT } from '../src/http/operations/analyze-label';
import { ADVERSARIAL_SHAPES } from '../bench/label-shapes';

let s: TestServer;
before(async () => {
  s = await startTestApp();
});
after(async () => {
  await s.close();
});

const URL_PATH = '/v1/labels/analyze';
interface Entry {
  position: number;
  label_name: string;
  concentration: number | null;
  may_contain: boolean;
  section: number;
  joined_by: string;
  ingredient: { id: string; name: string } | null;
}
type Analysis = Record<string, unknown> & {
  counts: { entries: number; recognised: number; unrecognised: number };
  sections: { header: string | null }[];
  notes: string[];
  entries: Entry[];
};
type Built = Record<string, unknown> & { ingredients: { id: string }[] };
function post(body: unknown, headers: Record<string, string> = {}, key = s.keys.pro.key): Promise<Response> {
  return s.fetch(URL_PATH, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
async function analyse(text: string): Promise<Analysis> {
  const res = await post({ text });
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return (await res.json()) as Analysis;
}
async function error(res: Response, status: number): Promise<string> {
  assert.equal(res.status, status);
  const body = (await res.json()) as { statusCode: number; error: string; message: string };
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  assert.equal(body.error, STATUS_CODES[status]);
  return body.message;
}
const FLAGS = [
  'contains_fragrance',
  'contains_drying_alcohol',
  'contains_parabens',
  'contains_sulfates',
  'contains_silicones',
];

describe('POST /v1/labels/analyze: the answer', () => {
  it('joins each entry in label order to the catalogue ingredient record, with flags and counts', async () => {
    const r = await analyse(
      'Ingredients: Aqua/Water/Eau, Glycerin, Niacinamide (5%), Fragrance*, Unobtainium Extract. May contain: Methylparaben.\n*Organic',
    );
    assert.deepEqual(
      r.entries.map((e) => [
        e.position,
        e.label_name,
        e.concentration,
        e.may_contain,
        e.section,
        e.joined_by,
        e.ingredient?.id ?? null,
      ]),
      [
        [0, 'Aqua/Water/Eau', null, false, 0, 'alias', ingredientId(ING.aqua)],
        [1, 'Glycerin', null, false, 0, 'exact', ingredientId(ING.glycerin)],
        [2, 'Niacinamide (5%)', 5, false, 0, 'exact', ingredientId(ING.niacinamide)],
        [3, 'Fragrance', null, false, 0, 'alias', ingredientId(ING.parfum)],
        [4, 'Unobtainium Extract', null, false, 0, 'none', null],
        [5, 'Methylparaben', null, true, 0, 'exact', ingredientId(ING.methylparaben)],
      ],
    );
    // The same record as GET /v1/ingredients/{id}.
    const record = await (await s.get(`/v1/ingredients/${ingredientId(ING.glycerin)}`)).json();
    assert.deepEqual(r.entries[1].ingredient, record);
    assert.deepEqual(
      FLAGS.map((f) => r[f]),
      [true, false, true, false, false],
    );
    assert.deepEqual(r.counts, { entries: 6, recognised: 5, unrecognised: 1 });
    assert.deepEqual(r.sections, [{ header: null }]);
    assert.deepEqual(r.notes, ['*Organic']);
  });

  it('reads synonyms (other_names) and returns the lists of a kit as sections', async () => {
    const r = await analyse(
      'Shampoo:\nWater, Sodium Laureth Sulfate, Hyaluronic acid sodium salt\nConditioner:\nWater, Dimethicone, Glycerine.',
    );
    assert.deepEqual(r.sections, [{ header: 'Shampoo' }, { header: 'Conditioner' }]);
    assert.deepEqual(
      r.entries.map((e) => [e.section, e.joined_by, e.ingredient?.name]),
      [
        [0, 'alias', 'Aqua'],
        [0, 'exact', 'Sodium Laureth Sulfate'],
        [0, 'synonym', 'Sodium Hyaluronate'],
        [1, 'alias', 'Aqua'],
        [1, 'exact', 'Dimethicone'],
        [1, 'alias', 'Glycerin'],
      ],
    );
    assert.deepEqual(
      FLAGS.map((f) => r[f]),
      [false, false, false, true, true],
    );
  });

  it('a label with nothing to join answers 200 with every entry unrecognised and no flags', async () => {
    const r = await analyse('Unobtainium, Kryptonite Dust');
    assert.deepEqual(r.counts, { entries: 2, recognised: 0, unrecognised: 2 });
    assert.ok(r.entries.every((e) => e.ingredient === null && e.joined_by === 'none'));
    assert.ok(FLAGS.every((f) => r[f] === false));
  });

  it("consistency: each fixture product's own label text gives its flags and ingredient ids", async () => {
    for (const ord of Object.values(P)) {
      const p = products[ord] as unknown as { name: string; ingredients: { label_name: string }[] };
      if (p.ingredients.length === 0) continue;
      const r = await analyse(p.ingredients.map((e) => e.label_name).join(', '));
      const built = (await (await s.get(`/v1/products/${productId(ord)}`)).json()) as Built;
      assert.deepEqual(
        r.entries.map((e) => e.ingredient?.id),
        built.ingredients.map((e) => e.id),
        p.name,
      );
      assert.deepEqual(
        FLAGS.map((f) => r[f]),
        FLAGS.map((f) => built[f]),
        p.name,
      );
    }
  });
});

describe('POST /v1/labels/analyze: strict body', () => {
  const shape = 'the body must be a JSON object with "text"';
  const cases: Array<[string, unknown, string]> = [
    ['missing text', {}, `text is required; ${shape}`],
    ['an unknown field', { text: 'Water', lang: 'en' }, `unknown body field "lang"; ${shape}`],
    ['text not a string', { text: 42 }, 'text must be a string holding at least one letter or digit'],
    ['text null', { text: null }, 'text must be a string holding at least one letter or digit'],
    ['empty text', { text: '' }, 'text must not be empty'],
    [
      'text without a letter or digit',
      { text: ' ,;. \n' },
      'text must be a string holding at least one letter or digit',
    ],
    ['text over 100,000 characters', { text: 'a'.repeat(100_001) }, 'text must be at most 100000 characters long'],
    ['an array body', [{ text: 'Water' }], shape],
  ];
  for (const [what, body, message] of cases) {
    it(`answers 400 for ${what}`, async () => {
      assert.equal(await error(await post(body), 400), message);
    });
  }
  it('answers 400 for a body that is not JSON and for an empty body', async () => {
    assert.equal(await error(await post('{"text": '), 400), 'the body is not valid JSON');
    assert.equal(await error(await post(''), 400), 'the body is empty; it must be a JSON object');
  });
  it('accepts exactly 100,000 characters, counted as characters (not bytes)', async () => {
    const r = await analyse('é'.repeat(99_990) + ', Aqua');
    assert.equal(r.counts.entries, 2);
  });
  it('counts a character outside the BMP (two UTF-16 code units) as one: 100,000 accepted, 100,001 refused', async () => {
    const r = await analyse('\u{1D400}'.repeat(99_994) + ', Aqua');
    assert.equal(r.counts.entries, 2);
    assert.equal(
      await error(await post({ text: '\u{1D400}'.repeat(99_995) + ', Aqua' }), 400),
      'text must be at most 100000 characters long',
    );
  });
  it('accepts 100,000 characters that JSON escapes to 6 bytes each (600,000 bytes)', async () => {
    const r = await analyse('\u0001'.repeat(99_990) + ', Aqua');
    assert.equal(r.counts.entries, 1);
  });
  it('answers 413 for a body over 640 KiB', async () => {
    assert.equal(await error(await post({ text: 'Aqua, '.repeat(110_000) }), 413), 'the body is too large');
  });
  it('answers 415 without a content type or with one that is not JSON', async () => {
    const noType = await s.fetch(URL_PATH, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.pro.key },
      body: Buffer.from('{"text":"Water"}'),
    });
    assert.equal(await error(noType, 415), 'Content-Type must be application/json');
    assert.equal(
      await error(await post('text=Water', { 'content-type': 'application/x-www-form-urlencoded' }), 415),
      'Content-Type must be application/json',
    );
    assert.equal(
      await error(await post('Water', { 'content-type': 'text/plain' }), 415),
      'Content-Type must be application/json',
    );
  });
  it('answers 400 for a query parameter', async () => {
    const res = await s.fetch(`${URL_PATH}?lang=en`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.pro.key, 'content-type': 'application/json' },
      body: '{"text":"Water"}',
    });
    assert.match(await error(res, 400), /unknown query parameter "lang"/);
  });
});

describe('POST /v1/labels/analyze: access', () => {
  it('answers 403 without a key or with an unknown one', async () => {
    for (const key of ['', 'ck_not-a-real-key']) {
      assert.equal(await error(await post({ text: 'Water' }, {}, key), 403), 'Invalid or missing API key');
    }
  });
  it('is charged as one call: a trial key counts down by one per analysis', async () => {
    const first = await post({ text: 'Water, Glycerin, Parfum' }, {}, s.keys.trial.key);
    const second = await post({ text: 'Water, Glycerin, Parfum' }, {}, s.keys.trial.key);
    assert.equal(first.status, 200);
    const left = Number(first.headers.get('x-trial-requests-remaining'));
    assert.equal(Number(second.headers.get('x-trial-requests-remaining')), left - 1);
    const admin = await openAdmin(s.store);
    const month = new Date().toISOString().slice(0, 7);
    const usage = (await admin.usage(month)).keys.find((k) => k.id === s.keys.trial.id)!;
    await admin.close();
    assert.equal(usage.calls, 100 - Number(second.headers.get('x-trial-requests-remaining')));
  });
  it("answers 402 when the key's account has a payment due", async () => {
    const admin = await openAdmin(s.store);
    await admin.setPaymentRequired(s.keys.starter.id, true);
    await admin.close();
    const deadline = Date.now() + 1500;
    let res = await post({ text: 'Water' }, {}, s.keys.starter.key);
    while (res.status !== 402 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      res = await post({ text: 'Water' }, {}, s.keys.starter.key);
    }
    assert.equal(res.status, 402);
  });
});

describe('POST /v1/labels/analyze: long labels', () => {
  const long = ADVERSARIAL_SHAPES['a real list repeated'](MAX_LABEL_TEXT).slice(0, MAX_LABEL_TEXT);

  it('a 100,000-character label: the answer over HTTP is byte for byte the in-process analysis', async () => {
    const c = Catalogue.open(path.join(s.dir, 'catalogue.db'));
    try {
      const res = await post({ text: long });
      assert.equal(res.status, 200);
      const body = Buffer.from(await res.arrayBuffer());
      assert.ok(body.equals(Buffer.from(c.analyseLabel(long))));
      assert.ok(JSON.parse(body.toString()).counts.entries > 5_000);
    } finally {
      c.close();
    }
  });

  it('a long analysis lets the event loop run between its slices, and gives the same bytes', async () => {
    const c = Catalogue.open(path.join(s.dir, 'catalogue.db'));
    try {
      for (const text of [long, ADVERSARIAL_SHAPES['short lines without commas'](MAX_LABEL_TEXT)]) {
        let turns = 0;
        let running = true;
        const turn = (): void => {
          turns++;
          if (running) setImmediate(turn);
        };
        setImmediate(turn);
        const sliced = await c.analyseLabelInSlices(text.slice(0, MAX_LABEL_TEXT));
        running = false;
        assert.ok(turns > 1, `the event loop turned ${turns} times`);
        assert.ok(sliced.equals(Buffer.from(c.analyseLabel(text.slice(0, MAX_LABEL_TEXT)))));
      }
    } finally {
      c.close();
    }
  });
});
