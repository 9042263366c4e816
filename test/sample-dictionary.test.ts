// The dictionary clean-up rules (src/sample/dictionary-rules.ts) on their own, and
// their effect on the committed sample (data/sample): the issue-24 examples are gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  colourNames,
  plantNames,
  sameSubstance,
  sharedSynonyms,
  unspecificReason,
} from '../src/sample/dictionary-rules';
import { CURATED_ALIASES } from '../src/labels/aliases';
import { ingredientId } from '../src/sample/dictionary';
import { withoutAmounts } from '../src/sample/fragments';

const ROOT = path.join(__dirname, '..', '..');

test('rule 1: a synonym held by two records is dropped from both, by compact form', () => {
  const shared = sharedSynonyms(
    new Map([
      ['ALCOHOL', ['sugarcane-derived alcohol', 'Ethanol']],
      ['ALCOHOL DENAT.', ['Sugarcane Derived Alcohol']],
      ['CERESIN', ['Ozokerite', 'Ozokerite']],
    ]),
  );
  assert.deepEqual([...shared], ['SUGARCANEDERIVEDALCOHOL']);
});

test('rule 2: groups, plants alone and grades are not synonyms of a specific record', () => {
  const plants = plantNames(
    ['CITRUS MEDICA LIMONUM PEEL OIL', 'SANTALUM ALBUM OIL', 'SANTALUM ALBUM', 'CITROL'],
    ['Bergamot Fruit Oil', 'Sandalwood Oil', 'Rice Bran Oil', 'Tea Leaf Extract'],
  );
  const why = (n: string, inci: string) => unspecificReason(n, inci, plants);
  assert.equal(why('Iron Oxides', 'CI 77491'), 'group');
  assert.equal(why('White Petrolatum', 'PARAFFINUM LIQUIDUM'), 'grade');
  assert.equal(why('Bergamot', 'CITROL'), 'plant');
  assert.equal(why('Citrus Medica', 'CITROL'), 'plant');
  // A common name on the plant's own record stays; a part or preparation is not a plant alone.
  assert.equal(why('Sandalwood', 'SANTALUM ALBUM'), null);
  assert.equal(why('Rice Bran', 'ORYZA SATIVA BRAN'), null);
  assert.equal(why('T.E.A', 'TRIETHANOLAMINE'), null);
  assert.equal(why('Red Iron Oxide', 'CI 77491'), null);
});

test('rule 3: US colour names on a CI record give the label spellings; lakes and other records give none', () => {
  assert.deepEqual(colourNames('CI 15985', ['Sunset Yellow FCF', 'FD&C Yellow #6', 'FD&C Yellow No.6']), [
    'FD&C Yellow 6',
    'Yellow 6',
  ]);
  assert.deepEqual(colourNames('CI 15850', ['D&C Red No. 6']), ['D&C Red 6', 'Red 6']);
  assert.deepEqual(colourNames('CI 15985', ['FD&C Yellow No. 6 Aluminum Lake']), []);
  assert.deepEqual(colourNames('TARTRAZINE', ['FD&C Yellow No. 5']), []);
});

test('rule 3: a record merges into the one naming it when they share a CAS number; never in chains or two ways', () => {
  const cas: Record<string, string[]> = {
    'CERA ALBA': ['8012-89-3'],
    BEESWAX: ['8006-40-4', '8012-89-3'],
    AQUA: ['7732-18-5'],
    WATER: ['7732-18-5'],
    ALCOHOL: ['64-17-5'],
    'ALCOHOL DENAT.': ['64-17-5'],
    X: ['1'],
    Y: ['1'],
    Z: ['1'],
  };
  const into = sameSubstance(
    [
      ['CERA ALBA', 'BEESWAX'],
      ['AQUA', 'WATER'],
      ['ALCOHOL', 'MISSING'],
      ['ALCOHOL DENAT.', 'ALCOHOL'],
      ['ALCOHOL', 'ALCOHOL DENAT.'],
      ['X', 'Y'],
      ['Y', 'Z'],
    ],
    (n) => cas[n] ?? [],
  );
  assert.deepEqual(
    [...into],
    [
      ['BEESWAX', 'CERA ALBA'],
      ['WATER', 'AQUA'],
      ['Y', 'X'], // Z stays: Y, which names it, is itself merged
    ],
  );
});

test('the committed sample carries the clean-up: the issue-24 synonyms and duplicates are gone', () => {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'data', 'sample', 'ingredients.jsonl.gz'))).toString();
  const byName = new Map<string, { id: string; other_names: string | null }>();
  for (const line of text.split('\n')) if (line !== '') byName.set(JSON.parse(line).name, JSON.parse(line));
  const others = (n: string) => (byName.get(n)?.other_names ?? '').split(', ');
  assert.ok(!others('CI 77491').includes('Iron Oxides'));
  assert.ok(!others('Citrol').includes('Bergamot'));
  assert.ok(!others('Paraffinum Liquidum').includes('White Petrolatum'));
  assert.ok(others('Cera Alba').includes('Beeswax'));
  assert.ok(!byName.has('Beeswax'), 'Beeswax merged into Cera Alba');
  assert.ok(others('CI 15985').includes('Yellow 6'));
  assert.ok(!byName.has('Yellow 6'), 'the label-only Yellow 6 is CI 15985');
  // Records that stay keep their ids.
  assert.equal(byName.get('Cera Alba')?.id, ingredientId('CERA ALBA'));
  assert.equal(byName.get('CI 15985')?.id, ingredientId('CI 15985'));
  assert.equal(CURATED_ALIASES['IRON OXIDES'], undefined);
});

test('junk records (issue 33): an amount printed in a name is never a record name; the name or names around it are', () => {
  assert.deepEqual(withoutAmounts('100% Unrefined Sclerocraya Birrea (Marula) Kernel Oil'), [
    'Unrefined Sclerocraya Birrea (Marula) Kernel Oil',
  ]);
  assert.deepEqual(withoutAmounts('Zinc Oxide 9.60%Water'), ['Zinc Oxide', 'Water']);
  assert.deepEqual(withoutAmounts('Alcohol Denat. 75% vol'), ['Alcohol Denat.']);
  assert.deepEqual(withoutAmounts('Biotin 5,000mcg (16667% DV*)'), ['Biotin']);
  // An amount inside brackets is removed, the brackets kept balanced.
  assert.deepEqual(withoutAmounts('Stevia Extract (leaf) (Rebaudioside A 95%)'), [
    'Stevia Extract (leaf) (Rebaudioside A)',
  ]);
  assert.deepEqual(withoutAmounts('0.00108%'), []);
  const text = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'data', 'sample', 'ingredients.jsonl.gz'))).toString();
  const amounts = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: string; name: string })
    .filter((r) => r.id !== ingredientId(r.name) && /\d\s*(?:%|mg\b|mcg\b|ml\b|iu\b)/i.test(r.name));
  assert.deepEqual(
    amounts.map((r) => r.name),
    [],
  );
});
