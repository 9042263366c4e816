// The shared text rules (src/shared/text.ts) that the build indexes with and the
// read model looks up with: folding, words, brand keys, phrase keys, GTIN keys, uuids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brandKey, fold, gtinKey, hasAlnum, isBarcode, isUuid, phraseKey, words } from '../src/shared/text';

test('fold lower-cases and strips accents', () => {
  assert.equal(fold('Caudalíe CRÈME Ñandú'), 'caudalie creme nandu');
  assert.equal(fold('ÅNGSTRÖM'), 'angstrom');
});

test('words split on anything that is not a letter or digit, folded', () => {
  assert.deepEqual(words('Aqua/Water/Eau'), ['aqua', 'water', 'eau']);
  assert.deepEqual(words("  L'Oréal Paris — Revitalift 50ml, SPF-30! "), [
    'l',
    'oreal',
    'paris',
    'revitalift',
    '50ml',
    'spf',
    '30',
  ]);
  assert.deepEqual(words('C12-15 Alkyl Benzoate'), ['c12', '15', 'alkyl', 'benzoate']);
  assert.deepEqual(words('--- / ---'), []);
  assert.deepEqual(words(''), []);
});

test('hasAlnum tells whether a text has any letter or digit', () => {
  assert.equal(hasAlnum(' -/ '), false);
  assert.equal(hasAlnum('é'), true);
  assert.equal(hasAlnum('5'), true);
});

test('brandKey ignores case, accents, punctuation and spaces', () => {
  assert.equal(brandKey("L'Oréal Paris"), 'lorealparis');
  assert.equal(brandKey('LOREAL  paris'), 'lorealparis');
  assert.equal(brandKey('Dr. Jart+'), 'drjart');
});

test('phraseKey joins the folded words with single spaces', () => {
  assert.equal(phraseKey('  Sodium   Lauryl-Sulfate '), 'sodium lauryl sulfate');
});

test('gtinKey drops leading zeros, so all zero-padded forms of a code agree', () => {
  assert.equal(gtinKey('03522930003045'), '3522930003045');
  assert.equal(gtinKey('00003522930003045'), gtinKey('3522930003045'));
  assert.equal(gtinKey('12345678'), '12345678');
  assert.equal(gtinKey('00000000'), '0');
});

test('isUuid accepts 8-4-4-4-12 hex in any case and nothing else', () => {
  assert.equal(isUuid('0b6f9a8e-3c1d-4e52-9a47-1f2d3c4b5a60'), true);
  assert.equal(isUuid('0B6F9A8E-3C1D-4E52-9A47-1F2D3C4B5A60'), true);
  assert.equal(isUuid('0b6f9a8e3c1d4e529a471f2d3c4b5a60'), false);
  assert.equal(isUuid('0b6f9a8e-3c1d-4e52-9a47-1f2d3c4b5a6g'), false);
  assert.equal(isUuid(' 0b6f9a8e-3c1d-4e52-9a47-1f2d3c4b5a60'), false);
  assert.equal(isUuid('0b6f9a8e-3c1d-4e52-9a47-1f2d3c4b5a60\n'), false);
  assert.equal(isUuid(42), false);
});

test('isBarcode accepts strings of 8 to 14 digits only', () => {
  assert.equal(isBarcode('12345678'), true);
  assert.equal(isBarcode('12345678901234'), true);
  assert.equal(isBarcode('1234567'), false);
  assert.equal(isBarcode('123456789012345'), false);
  assert.equal(isBarcode('1234567a'), false);
  assert.equal(isBarcode(12345678), false);
});
