// POST /v1/labels/analyze over real HTTP on the bundled sample catalogue (data/sample, its
// label-only records and spellings included): the join patterns of issue 33 on the real strings
// the issue gives, each answered wrongly before — a split into fragments, a monomer for a
// copolymer, a shorter record for a misspelt name, one member for a group — and the junk
// records of the dictionary gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { buildCatalogue } from '../src/builder';
import { openAdmin } from '../src/access';
import { startServer, type RunningServer } from '../src/server';

const ROOT = path.join(__dirname, '..', '..');
let dir: string;
let server: RunningServer;
let key: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-joins-'));
  const file = path.join(dir, 'catalogue.db');
  await buildCatalogue({ sourceDir: path.join(ROOT, 'data', 'sample'), outFile: file, builtAt: '2026-01-01' });
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const admin = await openAdmin(store);
  key = (await admin.createKey('pro')).key;
  await admin.close();
  server = await startServer({
    catalogue: file,
    host: '127.0.0.1',
    port: 0,
    access: store,
    logger: pino({ level: 'silent' }),
  });
});
after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Entry {
  label_name: string;
  join_rule: string;
  ingredient: { name: string } | null;
}

/** Each entry of the label as [label_name, ingredient name or null, join_rule]. */
async function analyse(text: string): Promise<[string, string | null, string][]> {
  const res = await fetch(`${server.url}/v1/labels/analyze`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { entries: Entry[] };
  return body.entries.map((e) => [e.label_name, e.ingredient?.name ?? null, e.join_rule]);
}

test('no split into fragments or a shorter record: each entry is one name, or unrecognised', async () => {
  const got = await analyse(
    'hydrogenated olus oil, PRUNUS ARMENIACA(APRICOT) KERNEL OIL, Green Tea Extract (82.3%), peg-6 capric triglyceride, Panax Ginseng Root Extact, Rosa Damascena Flower Distillate',
  );
  assert.deepEqual(got, [
    ['hydrogenated olus oil', null, 'none'], // was Hydrogenated + Olus Oil
    ['PRUNUS ARMENIACA(APRICOT) KERNEL OIL', 'Prunus Armeniaca Kernel Oil', 'tolerant'], // was Prunus Armeniaca + Kernel Oil
    // was "Green Tea:" + "Extract"; its declared amount aside, the name is the alias of the leaf extract
    ['Green Tea Extract (82.3%)', 'Camellia Sinensis Leaf Extract', 'alias'],
    ['peg-6 capric triglyceride', null, 'none'], // was PEG-6 + Caprylic/Capric Triglyceride
    ['Panax Ginseng Root Extact', 'Panax Ginseng Root Extract', 'tolerant'], // was Panax Ginseng Root
    ['Rosa Damascena Flower Distillate', null, 'none'], // was Rosa Damascena Flower
  ]);
});

test('a copolymer is not its monomer, a group is not one member, one-word misspellings are respelt', async () => {
  const got = await analyse(
    'Dimethicone/Vinal Dimethicone Crosspolymer, Styrene/Acrylate Copolymer, Iron Oxides (CI 77491, CI 77492, CI 77499), Cyclopentasiloxane/Cyclohexasiloxane, 6% AHA/BHA, dimethicon, Penylene Glycol',
  );
  // Unrecognised, or the sample's label-only record of that very printed name; never a part of it.
  const own = (label: string, name: string | null) =>
    name === null || name.toUpperCase().replace(/[^A-Z0-9]/g, '') === label.toUpperCase().replace(/[^A-Z0-9]/g, '');
  for (const [label, name] of got.slice(0, 5)) assert.ok(own(label, name), `${label} → ${name}`); // were Dimethicone, Styrene, CI 77491, Cyclopentasiloxane, BHA
  assert.deepEqual(
    got.slice(5).map((e) => e[1]),
    ['Dimethicone', 'Pentylene Glycol'],
  );
});

test('the junk records of the sample dictionary are gone: fragments are not ingredients', async () => {
  for (const name of ['Extract', 'Seed Oil', 'Kernel Oil', 'Hydrogenated', 'Caprylic', 'VP', 'Green Tea:']) {
    const res = await fetch(`${server.url}/v1/ingredients/search?q=${encodeURIComponent(name)}`, {
      headers: { 'x-api-key': key },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { results: { name: string }[] };
    assert.ok(!body.results.some((r) => r.name === name), `${name}: ${JSON.stringify(body.results.slice(0, 3))}`);
  }
});
