// Unit rules of the sample-data pipeline: CSV parsing, label casing, list
// splitting, joins, free-from tags, score ranges, barcodes and uuids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../src/sample/csv';
import { labelCase } from '../src/sample/casing';
import { listParagraph, splitList } from '../src/labels/parser';
import { labelEntries } from '../src/sample/products';
import { Joiner } from '../src/sample/joiner';
import { freeFromTag } from '../src/sample/tags';
import { range } from '../src/sample/scores';
import { sampleBarcodes } from '../src/sample/barcodes';
import { BarcodeAllocator, checkDigit, isValidGtin } from '../src/source/barcodes';
import { uuidV5 } from '../src/source/ids';
import { iupacName, registryNumbers } from '../src/sample/dictionary';
import { mapFunctions, VOCABULARY } from '../src/sample/functions';
import { gtinKey } from '../src/shared/text';

test('csv parser handles a BOM, quoted commas, doubled quotes, multi-line cells and CRLF', () => {
  const rows = parseCsv('\ufeffa,b,c\r\n1,"x, y","say ""hi"""\r\n2,"line1\nline2",\n');
  assert.deepEqual(rows, [
    ['a', 'b', 'c'],
    ['1', 'x, y', 'say "hi"'],
    ['2', 'line1\nline2', ''],
  ]);
});

test('label casing title-cases INCI names and keeps codes and abbreviations', () => {
  const cases: [string, string][] = [
    ['GLYCERIN', 'Glycerin'],
    ['SODIUM LAURETH SULFATE', 'Sodium Laureth Sulfate'],
    ['PEG-40 HYDROGENATED CASTOR OIL', 'PEG-40 Hydrogenated Castor Oil'],
    ['CI 77491', 'CI 77491'],
    ['C12-15 ALKYL BENZOATE', 'C12-15 Alkyl Benzoate'],
    ['TEA-LAURYL SULFATE', 'TEA-Lauryl Sulfate'],
    ['1,2-HEXANEDIOL', '1,2-Hexanediol'],
    ['SH-OLIGOPEPTIDE-1', 'sh-Oligopeptide-1'],
    ['P-PHENYLENEDIAMINE', 'p-Phenylenediamine'],
    ['ACRYLATES/C10-30 ALKYL ACRYLATE CROSSPOLYMER', 'Acrylates/C10-30 Alkyl Acrylate Crosspolymer'],
    ['VP/VA COPOLYMER', 'VP/VA Copolymer'],
    ['PYRIDOXINE HCL', 'Pyridoxine HCl'],
    ['ALCOHOL DENAT.', 'Alcohol Denat.'],
    ['ZINC PCA', 'Zinc PCA'],
    ['O-CYMEN-5-OL', 'o-Cymen-5-ol'],
  ];
  for (const [inci, label] of cases) assert.equal(labelCase(inci), label, inci);
});

test('lists split on commas outside parentheses and not inside locants like 1,2- or 1, 2-', () => {
  assert.deepEqual(splitList('Water, Iron Oxides (CI 77491, CI 77492), 1,2-Hexanediol, 1, 2-Hexanediol'), [
    'Water',
    ' Iron Oxides (CI 77491, CI 77492)',
    ' 1,2-Hexanediol',
    ' 1, 2-Hexanediol',
  ]);
});

test('the list paragraph is taken after marketing lines, and junk cells give no entries', () => {
  const text =
    '-Key Ingredient: does things, well, truly.\n\nWater/Aqua/Eau, Glycerin, Dimethicone, Fragrance.\n\nPlease be aware that ingredient lists may change or vary from time to time.';
  assert.deepEqual(labelEntries(listParagraph(text)), ['Water/Aqua/Eau', 'Glycerin', 'Dimethicone', 'Fragrance']);
  assert.deepEqual(labelEntries('No Info'), []);
  assert.deepEqual(labelEntries('Visit the Dior boutique'), []);
  assert.deepEqual(labelEntries('Aqua, Glycerin*, Tocopherol. *Certified Organic Ingredient'), [
    'Aqua',
    'Glycerin',
    'Tocopherol',
  ]);
});

test('joins use the curated aliases, parenthetical names, CI numbers, slash parts and inline common names', () => {
  const j = new Joiner([
    'AQUA',
    'WATER',
    'PARFUM',
    'SESAMUM INDICUM SEED OIL',
    'CI 77491',
    'COCOS NUCIFERA OIL',
    'ALCOHOL DENAT.',
    'SODIUM LAURYL SULFATE',
    'BUTYROSPERMUM PARKII BUTTER',
    'CITRUS LIMON PEEL OIL',
  ]);
  const expect: [string, string | null][] = [
    ['Water/Aqua/Eau', 'AQUA'],
    ['Water', 'AQUA'],
    ['Fragrance (Parfum)', 'PARFUM'],
    ['Fragrance', 'PARFUM'],
    ['Sesamum Indicum (Sesame) Seed Oil', 'SESAMUM INDICUM SEED OIL'],
    ['Iron Oxides (CI 77491, CI 77492)', null], // a group: one entry, never one member (issue 33)
    ['cocos nucifera coconut oil', 'COCOS NUCIFERA OIL'],
    ['Alcohol Denat', 'ALCOHOL DENAT.'],
    ['Sodium Lauryl Sulphate', 'SODIUM LAURYL SULFATE'],
    ['Butyrospermum Parkii (Shea Butter)', 'BUTYROSPERMUM PARKII BUTTER'],
    ['Citrus Medica Limonum (Lemon) Peel Oil', 'CITRUS LIMON PEEL OIL'],
    ['Unobtainium Extract', null],
  ];
  for (const [label, inci] of expect) assert.equal(j.match(label), inci, label);
  j.addSynonyms('AQUA', ['H2O']);
  assert.equal(j.match('H2O'), 'AQUA');
});

test('the sample joiner: a colour index or a CAS number printed in a name decides, as in the served analysis', () => {
  const j = new Joiner([
    'TITANIUM DIOXIDE',
    'CI 77891',
    'VERDYL ACETATE',
    'TOCOPHEROL',
    'C12-14 SEC-PARETH-8',
    'C12-14 SEC-PARETH-9',
  ]);
  // As the pipeline does: each kept record's cas_number.
  j.addCasNumbers('TITANIUM DIOXIDE', '13463-67-7, 1317-70-0, 1317-80-2');
  j.addCasNumbers('CI 77891', '13463-67-7');
  j.addCasNumbers('VERDYL ACETATE', '2500-83-6, 5413-60-5');
  j.addCasNumbers('TOCOPHEROL', '59-02-9');
  j.addCasNumbers('C12-14 SEC-PARETH-8', '84133-50-6');
  j.addCasNumbers('C12-14 SEC-PARETH-9', '84133-50-6');
  // Real label strings.
  assert.equal(j.match('Titanium Dioxide (CI 77891)'), 'CI 77891');
  assert.equal(j.match('Titanium Dioxide (Cl 77891)'), 'CI 77891');
  assert.equal(j.match('4,5,6,7,7a-Hexahydro-4,7- Methano-1(3)- Inden-6-Yl- Acetate 5413-60-5'), 'VERDYL ACETATE');
  assert.equal(j.match('Alpha-Tocopherol Natural (CAS 59-02-9)'), 'TOCOPHEROL');
  // A number two records carry decides nothing; a wrong check digit is no CAS number.
  assert.equal(j.match('Pareth (CAS 84133-50-6)'), null);
  assert.equal(j.match('4,5,6,7,7a-Hexahydro-4,7- Methano-1(3)- Inden-6-Yl- Acetate 5413-60-4'), null);
});

test('free-from tags follow the documented rules and precedence', () => {
  const lists = {
    curls: new Map([['sulfates', new Set(['SODIUM COCO-SULFATE'])]]),
    allergens: new Set(['LINALOOL', 'BENZYL ALCOHOL']),
  };
  const tag = (n: string, f: string[] = []) => freeFromTag(n, f, lists);
  assert.equal(tag('METHYLPARABEN', ['PRESERVATIVE']), 'parabens');
  assert.equal(tag('SODIUM LAURETH SULFATE', ['SURFACTANT - CLEANSING']), 'sulfates');
  assert.equal(tag('SODIUM COCO-SULFATE'), 'sulfates');
  assert.equal(tag('ZINC SULFATE', ['ASTRINGENT']), null);
  assert.equal(tag('BEHENTRIMONIUM METHOSULFATE', ['SURFACTANT - EMULSIFYING']), null);
  assert.equal(tag('DIMETHICONE'), 'silicones');
  assert.equal(tag('CYCLOPENTASILOXANE'), 'silicones');
  assert.equal(tag('SILICA'), null);
  assert.equal(tag('ALCOHOL DENAT.'), 'drying_alcohol');
  assert.equal(tag('SD ALCOHOL 40-B'), 'drying_alcohol');
  assert.equal(tag('CETEARYL ALCOHOL'), null);
  assert.equal(tag('PARFUM'), 'fragrance');
  assert.equal(tag('LINALOOL'), 'fragrance');
  assert.equal(tag('BENZYL ALCOHOL'), null);
});

test('scores are a point when sources agree and a low-high range otherwise', () => {
  assert.equal(range([2]), '2');
  assert.equal(range([2, 2]), '2');
  assert.equal(range([0, 1, 2]), '0-2');
  assert.equal(range([]), null);
});

test('registry numbers drop the dash placeholders and IUPAC names come only from systematic descriptions', () => {
  assert.equal(registryNumbers(['63148-62-9 / 9006-65-9 / 9016-00-6']), '63148-62-9, 9006-65-9, 9016-00-6');
  assert.equal(registryNumbers(['- / - / - /']), null);
  assert.equal(iupacName('3-Pyridinecarboxamide', 'NIACINAMIDE'), '3-Pyridinecarboxamide');
  assert.equal(
    iupacName('Cyperus Esculentus Root Oil is the fixed oil obtained from the tubers', 'CYPERUS ESCULENTUS ROOT OIL'),
    null,
  );
  assert.equal(iupacName('Dimethicone', 'DIMETHICONE'), null);
});

test('functions map to the lower-case vocabulary without duplicates', () => {
  assert.deepEqual(mapFunctions(['FRAGRANCE', 'PERFUMING', 'SKIN CONDITIONING - EMOLLIENT', 'NOT REPORTED']), [
    'fragrance',
    'emollient',
  ]);
  for (const v of VOCABULARY) assert.equal(v, v.toLowerCase());
});

test('barcodes are valid restricted-circulation GTINs, unique after removing leading zeros', () => {
  assert.equal(checkDigit('400638133393'), '1'); // GTIN-13 4006381333931
  const alloc = new BarcodeAllocator();
  const keys = new Set<string>();
  let short = 0;
  let multi = 0;
  for (let i = 0; i < 2000; i++) {
    const codes = sampleBarcodes(alloc, uuidV5(`p${i}`));
    if (codes.length > 1) multi++;
    for (const c of codes) {
      assert.ok(isValidGtin(c), c);
      const k = gtinKey(c);
      assert.ok(!keys.has(k), `duplicate ${c}`);
      keys.add(k);
      if (c.startsWith('0')) {
        short++;
        assert.equal(k.length, 8);
      }
    }
    assert.ok(gtinKey(codes[0]).startsWith('2'));
  }
  assert.ok(short > 0 && multi > 0);
});

test('uuid v5 matches the RFC 4122 example and is stable', () => {
  assert.equal(
    uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
    '2ed6657d-e927-568b-95e1-2665a8aea6a2',
  );
  assert.equal(uuidV5('x'), uuidV5('x'));
});
