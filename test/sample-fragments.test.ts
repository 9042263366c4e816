// The sample pipeline's junk-record rules for what is printed with a name (src/sample/fragments.ts,
// issue 33): a header glued before a name, a batch or shade code, a drug-facts column word; and
// the markup left in the sources' text (src/sample/python-list.ts, src/sample/products.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  columnWords,
  emptyCounts,
  headerGlued,
  mendFragments,
  withoutCodes,
  withoutShadeNames,
} from '../src/sample/fragments';
import type { Dictionary } from '../src/sample/fragments';
import { Joiner } from '../src/sample/joiner';
import { joinEntries } from '../src/labels/join-entries';
import { mergeSections, parseLabel } from '../src/labels/parser';
import { pythonListText } from '../src/sample/python-list';
import { withoutTagRemnants } from '../src/sample/products';

const ROOT = path.join(__dirname, '..', '..');
const NAMES = ['WATER', 'TALC', 'ALCOHOL', 'SODIUM BENZOATE', 'AVOBENZONE', 'OCTISALATE', 'HOMOSALATE', 'MICA'];
const NAMES_MORE = ['CI 77891', 'LINALOOL', 'PHENOXYETHANOL', 'ACRYLATES COPOLYMER'];
const joiner = new Joiner([...NAMES, ...NAMES_MORE]);
const words = new Set([...NAMES, ...NAMES_MORE].flatMap((n) => n.split(/[^A-Z0-9]+/)));
const dict: Dictionary = {
  isName: (t) => joiner.inciNamed(t) !== null,
  namesBeginningWith: (w) => joiner.index.namesBeginningWith(w),
  isGenus: () => false,
  holdsWord: (w) => words.has(w.toUpperCase()),
};

/** One list mended: each entry as "printed → joined INCI name" or "printed" when it joined nothing. */
function mended(labels: string[]): { out: string[]; counts: ReturnType<typeof emptyCounts> } {
  const counts = emptyCounts();
  const entries = joinEntries(
    labels.map((label_name) => ({ label_name, concentration: null, may_contain: false })),
    joiner,
  );
  const out = mendFragments(entries, joiner, dict, counts).map((e) =>
    e.join === null ? e.label_name : `${e.label_name} → ${e.join.target}`,
  );
  return { out, counts };
}

test('codes: a batch, formula or shade code is found at either end of a name, never INCI syntax', () => {
  assert.deepEqual(withoutCodes('Sodium Benzoate F714-1'), { rest: 'Sodium Benzoate', long: false });
  assert.deepEqual(withoutCodes('#12103/A Alcohol'), { rest: 'Alcohol', long: true });
  assert.deepEqual(withoutCodes('875650 18 Alcohol'), { rest: 'Alcohol', long: true });
  assert.deepEqual(withoutCodes('Citric Acid FORMULA #305-1'), { rest: 'Citric Acid', long: true });
  assert.deepEqual(withoutCodes('Parfum/Fragrance. C258427/1'), { rest: 'Parfum/Fragrance', long: true });
  assert.deepEqual(withoutCodes('Code F.I.L B276757/1'), { rest: '', long: true });
  assert.deepEqual(withoutCodes('Il51-1'), { rest: '', long: false });
  assert.deepEqual(withoutCodes('[V2889A]'), { rest: '', long: true });
  assert.deepEqual(withoutCodes('MOSC01'), { rest: '', long: false });
  for (const inci of [
    'PEG-8',
    'CI 77491',
    'C12-15 Alkyl Benzoate',
    'C13-C14 Isoparaffin',
    'D&C Green #6',
    'Polysorbate 20',
  ])
    assert.equal(withoutCodes(inci), null, inci);
  // A colour index's number is not a code, whatever follows it.
  assert.equal(withoutCodes('Ci 77499/Iron Oxides Ci 77007/Ultramarines'), null);
});

test('codes: an entry joins as the name printed with a code, a code alone is dropped', () => {
  const { out, counts } = mended(['E2 Talc', 'Sodium Benzoate F714-1', 'D2', 'Il51-1', 'Water']);
  assert.deepEqual(out, ['Talc → TALC', 'Sodium Benzoate → SODIUM BENZOATE', 'Water → WATER']);
  assert.equal(counts.mended.code, 2);
  assert.equal(counts.dropped.code, 2);
  // A long code printed with a name that joins nothing: the name is kept without it.
  assert.deepEqual(mended(['Iron Oxides V281684/2']).out, ['Iron Oxides']);
  // A short code with a name that joins nothing is left as printed ("Vitamin B1" is not a code).
  assert.deepEqual(mended(['Vitamin B1']).out, ['Vitamin B1']);
});

test('headers: a header glued before a name is a note; the names before its full stop and after its colon join', () => {
  assert.deepEqual(headerGlued('El (Estee Lauder)Ingredients: Water'), { before: null, after: 'Water' });
  assert.deepEqual(headerGlued('Titanium Dioxide (Ci 77891). Olive Gold Shimmer (6): Mica'), {
    before: 'Titanium Dioxide (Ci 77891)',
    after: 'Mica',
  });
  // A "may contain" marker is not a header, a ratio is not a colon.
  assert.equal(headerGlued('Triethoxycaprylylsilane (+/-): Iron Oxides (CI 77492)'), null);
  assert.equal(headerGlued('Burdock (Arctium lapp) 4:1 Root Extract'), null);
  const { out, counts } = mended([
    'El (Estee Lauder)Ingredients: Water',
    'Titanium Dioxide (Ci 77891). Olive Gold Shimmer (6): Mica',
    'Shea Butter (Primer): Moisturizes skin',
  ]);
  assert.deepEqual(out, [
    'Water → WATER',
    'Titanium Dioxide (Ci 77891) → CI 77891',
    'Mica → MICA',
    'Shea Butter (Primer): Moisturizes skin',
  ]);
  assert.equal(counts.mended.header, 2);
});

test('columns: a drug-facts word no name holds, printed beside two names of one list, is not part of them', () => {
  const list = ['Purpose Avobenzone', 'Sunscreen Octisalate', 'Sunscreen Homosalate', 'Sunscreen', 'Water'];
  const entries = joinEntries(
    list.map((label_name) => ({ label_name, concentration: null, may_contain: false })),
    joiner,
  );
  assert.deepEqual([...columnWords(entries, joiner, dict)], ['SUNSCREEN']);
  const { out, counts } = mended(list);
  assert.deepEqual(out, [
    'Avobenzone → AVOBENZONE',
    'Octisalate → OCTISALATE',
    'Homosalate → HOMOSALATE',
    'Water → WATER',
  ]);
  assert.deepEqual([counts.mended.column, counts.dropped.column], [3, 1]);
  // The column word is left out, not a name beside it that no dictionary name holds as a word (an alias: Avobenzone).
  const aliasOnly: Dictionary = { ...dict, holdsWord: (w) => w.toUpperCase() !== 'AVOBENZONE' && dict.holdsWord(w) };
  const counts2 = emptyCounts();
  const printed = ['Avobenzone Sunscreen', 'Octisalate Sunscreen', 'Water'].map((label_name) => ({
    label_name,
    concentration: null,
    may_contain: false,
  }));
  const without = mendFragments(joinEntries(printed, joiner), joiner, aliasOnly, counts2);
  assert.deepEqual(
    without.map((e) => e.label_name),
    ['Avobenzone', 'Octisalate', 'Water'],
  );
  // Printed once, or a word a name holds ("Copolymer" of "Acrylates Copolymer"), it is no column.
  assert.deepEqual(mended(['Avobenzone Sunscreen', 'Water']).out, ['Avobenzone Sunscreen', 'Water → WATER']);
  assert.deepEqual(mended(['Talc Copolymer', 'Mica Copolymer']).out, ['Talc Copolymer', 'Mica Copolymer']);
});

test('markup left in the sources: a Python escape is decoded, a tag that lost its "<" is a line break', () => {
  const text = pythonListText(
    "['Vitis Vinifera (Grape) Seed Oil,\\u2028Aloe Barbadensis Leaf Juice,\\u2028Panthenol']",
  );
  assert.equal(text, 'Vitis Vinifera (Grape) Seed Oil,\u2028Aloe Barbadensis Leaf Juice,\u2028Panthenol');
  const names = (t: string) => mergeSections(parseLabel(t).sections).map((e) => e.label_name);
  assert.deepEqual(names(text ?? ''), ['Vitis Vinifera (Grape) Seed Oil', 'Aloe Barbadensis Leaf Juice', 'Panthenol']);
  assert.deepEqual(names(withoutTagRemnants('Water, Isoeugenol, Citronellol.br>')), [
    'Water',
    'Isoeugenol',
    'Citronellol',
  ]);
  // A word that ends in "br" is not a tag.
  assert.equal(withoutTagRemnants('Fibr> x'), 'Fibr> x');
});

test('the committed sample: no record is named by a code, a header, a drug-facts column word or markup', () => {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, 'data', 'sample', 'ingredients.jsonl.gz'))).toString();
  const names = new Set(
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { name: string }).name),
  );
  for (const junk of [
    '#12103/A Alcohol',
    'Sodium Benzoate F714-1',
    'Il51-1',
    'MOSC01',
    'C162587/2',
    'El (Estee Lauder)Ingredients: Water',
    'Titanium Dioxide (Ci 77891). Olive Gold Shimmer (6): Mica',
    'Octisalate Sunscreen',
    'Purpose Avobenzone',
    'Citronellol.br>',
    'U2028panthenol',
    'u2028Panthenol',
  ])
    assert.ok(!names.has(junk), junk);
  // Real label-only ingredients stay.
  for (const real of ['Horsetail', 'Shilajit Extract', 'Ambroxan', 'Vinolevure']) assert.ok(names.has(real), real);
});

test("shade names: a makeup list's entries printed nowhere else, of words no name holds, side by side, are notes", () => {
  const printed = [
    'Talc',
    'Demure',
    'Keep Going (6)',
    'Mica',
    'Sienna',
    'Water',
    'Glow Talc',
    'Velvet',
    'Trance',
    'Nirvana',
  ];
  const entries = joinEntries(
    printed.map((label_name) => ({ label_name, concentration: null, may_contain: false })),
    joiner,
  );
  const counts = emptyCounts();
  const elsewhere = new Set(['Trance']);
  const out = withoutShadeNames(entries, (n) => !elsewhere.has(n), dict, counts);
  // "Sienna" has no unjoined neighbour; "Glow Talc" holds a name's word (but is "Velvet"'s neighbour); "Trance" is
  // printed in another product, so "Nirvana" has no neighbour printed only here.
  assert.deepEqual(
    out.map((e) => e.label_name),
    ['Talc', 'Mica', 'Sienna', 'Water', 'Glow Talc', 'Trance', 'Nirvana'],
  );
  assert.equal(counts.dropped.shade, 3);
});
