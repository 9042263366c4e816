// The label parser and joiner (src/labels/) on real, messy label strings from the raw
// sources (Sephora product_info and skincare pages, curlsbot), one test per rule, and
// property tests: parsing never throws, entries and joins keep label order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergeSections, parseLabel, type LabelEntry, type ParsedLabel } from '../src/labels/parser';
import { JoinIndex, LabelJoiner } from '../src/labels/joiner';
import { Joiner } from '../src/sample/joiner';
import { labelEntries } from '../src/sample/products';
import { MEMO_LIMIT, eachJoinedEntry, joinEntries, type JoinMemo } from '../src/labels/join-entries';
import { pythonListText } from '../src/sample/python-list';

/** The entries of a label in label order: every section's, duplicates kept. */
const allEntries = (parsed: ParsedLabel): LabelEntry[] => parsed.sections.flatMap((s) => s.entries);

const names = (text: string) => allEntries(parseLabel(text)).map((e) => e.label_name);
const entry = (label_name: string, concentration: number | null = null, may_contain = false): LabelEntry => ({
  label_name,
  concentration,
  may_contain,
});

test('separators inside parentheses do not split; slash translations stay one entry; 1,2-Hexanediol is one name', () => {
  assert.deepEqual(
    names('Water (Aqua, Eau), Iron Oxides (CI 77491, CI 77492), Water/Aqua/Eau, 1,2-Hexanediol, 1, 2-Hexanediol'),
    ['Water (Aqua, Eau)', 'Iron Oxides (CI 77491, CI 77492)', 'Water/Aqua/Eau', '1,2-Hexanediol', '1, 2-Hexanediol'],
  );
});

test('"Ingredients:" prefixes, trailing periods, doubled separators, line breaks and typographic quotes', () => {
  assert.deepEqual(names('Ingredients: “Aqua”, glycerin,, DIMETHICONE;\nTocopherol.'), [
    'Aqua',
    'glycerin',
    'DIMETHICONE',
    'Tocopherol',
  ]);
  // The full stop of "Alcohol Denat." is part of the name and is kept.
  assert.deepEqual(names('Alcohol Denat., Parfum (Fragrance), Aqua (Water), Alcohol Denat.'), [
    'Alcohol Denat.',
    'Parfum (Fragrance)',
    'Aqua (Water)',
    'Alcohol Denat.',
  ]);
  // Typographic dashes and no-break spaces are read as their plain forms.
  assert.deepEqual(names('Water,\u00a0PEG\u2011100 Stearate, C12\u201315 Alkyl Benzoate'), [
    'Water',
    'PEG-100 Stearate',
    'C12-15 Alkyl Benzoate',
  ]);
});

test('footnote marks are removed from entries and footnote sentences never become entries', () => {
  const p = parseLabel(
    'Aloe Barbadensis Leaf Juice*, Glycerin**, Tocopherol†. *Certified Organic Ingredient **Natural origin',
  );
  assert.deepEqual(
    allEntries(p).map((e) => e.label_name),
    ['Aloe Barbadensis Leaf Juice', 'Glycerin', 'Tocopherol'],
  );
  assert.ok(p.notes.some((n) => /Certified Organic/.test(n)));
  assert.deepEqual(names('Water, Cocos Nucifera (Coconut) Oil*\n*Organic'), ['Water', 'Cocos Nucifera (Coconut) Oil']);
});

test('"May contain" and "+/-" colour sections are kept and marked', () => {
  // Sephora product_info, "Gemini Eyeshadow Palette 2".
  const p = parseLabel(
    'Bela: Zinc Stearate, Mica, Silica, Phenoxyethanol. May Contain: Titanium Dioxide(Ci 77891), Iron Oxides (Ci 77491), Red 40 Lake (Ci 16035)',
  );
  assert.deepEqual(
    p.sections.map((s) => s.header),
    ['Bela'],
  );
  assert.deepEqual(
    p.sections[0].entries.map((e) => [e.label_name, e.may_contain]),
    [
      ['Zinc Stearate', false],
      ['Mica', false],
      ['Silica', false],
      ['Phenoxyethanol', false],
      ['Titanium Dioxide(Ci 77891)', true],
      ['Iron Oxides (Ci 77491)', true],
      ['Red 40 Lake (Ci 16035)', true],
    ],
  );
  const bracket = allEntries(parseLabel('Water, Glycerin [+/- CI 77891, CI 77491], Dimethicone'));
  assert.deepEqual(
    bracket.map((e) => [e.label_name, e.may_contain]),
    [
      ['Water', false],
      ['Glycerin', false],
      ['CI 77891', true],
      ['CI 77491', true],
      ['Dimethicone', false],
    ],
  );
  const plusMinus = allEntries(
    parseLabel('Silica. May Contain (+/-): Yellow 5 Lake (Ci 19140), Titanium Dioxide (Ci 77891)'),
  );
  assert.deepEqual(
    plusMinus.map((e) => [e.label_name, e.may_contain]),
    [
      ['Silica', false],
      ['Yellow 5 Lake (Ci 19140)', true],
      ['Titanium Dioxide (Ci 77891)', true],
    ],
  );
  assert.deepEqual(
    allEntries(parseLabel('Mica, +/- CI 77891, CI 77491')).map((e) => e.may_contain),
    [false, true, true],
  );
});

test('CI colour codes are entries of their own', () => {
  assert.deepEqual(names('Talc, Ci 77891 (Titanium Dioxide), CI 77491, C.I. 77499'), [
    'Talc',
    'Ci 77891 (Titanium Dioxide)',
    'CI 77491',
    'C.I. 77499',
  ]);
});

test('kits and shade ranges: several lists under headers become sections; merged by first-seen union', () => {
  // Sephora product_info, "GRO Revitalizing Shampoo and Conditioner Set" (as the python list's lines).
  const text = pythonListText(
    "['Shampoo:', 'Water, Cocamidopropyl Betaine, Fragrance, Phenoxyethanol', 'Conditioner:', 'Water, Cetearyl Alcohol, Phenoxyethanol, Fragrance.']",
  );
  assert.ok(text !== null);
  const p = parseLabel(text);
  assert.deepEqual(
    p.sections.map((s) => [s.header, s.entries.length]),
    [
      ['Shampoo', 4],
      ['Conditioner', 4],
    ],
  );
  assert.deepEqual(
    mergeSections(p.sections).map((e) => e.label_name),
    ['Water', 'Cocamidopropyl Betaine', 'Fragrance', 'Phenoxyethanol', 'Cetearyl Alcohol'],
  );
  assert.deepEqual(labelEntries(text), [
    'Water',
    'Cocamidopropyl Betaine',
    'Fragrance',
    'Phenoxyethanol',
    'Cetearyl Alcohol',
  ]);
  // Headers without a colon right before a list ("Glam Eyeshadow Palette" shades), and "Step 1:" under a product header.
  const shades = parseLabel('Shade 238\nTalc, Mica, Silica\nFascination\nMica, Talc, Dimethicone.');
  assert.deepEqual(
    shades.sections.map((s) => s.header),
    ['Shade 238', 'Fascination'],
  );
  const steps = parseLabel(
    'Alpha Beta Universal Daily Peel:\nStep 1:\nWater, Glycolic Acid, Salicylic Acid*,\nStep 2:\nWater, Retinol, Glycerin',
  );
  assert.deepEqual(
    steps.sections.map((s) => s.header),
    ['Alpha Beta Universal Daily Peel: Step 1', 'Step 2'],
  );
  // A header inline ("Capri Eau de Parfum: Alcohol Denat., …").
  const inline = parseLabel(
    'Capri Eau de Parfum: Alcohol Denat., Parfum (Fragrance), Aqua (Water)\nCapri Body Lotion: Water, Glycerin, Parfum',
  );
  assert.deepEqual(
    inline.sections.map((s) => [s.header, s.entries[0].label_name]),
    [
      ['Capri Eau de Parfum', 'Alcohol Denat.'],
      ['Capri Body Lotion', 'Water'],
    ],
  );
  for (const s of [...p.sections, ...shades.sections, ...steps.sections, ...inline.sections]) {
    for (const e of s.entries)
      assert.ok(!/shampoo|conditioner|shade|fascination|step|capri/i.test(e.label_name), e.label_name);
  }
});

test("a shade's header glued to the previous shade's list is a header, not part of an entry", () => {
  // A foundation range as a retailer prints it: code/number, shade name, colon, list; no space anywhere.
  const p = parseLabel(
    'D247441/6Rich Cool 51:Aqua/Water/Eau, Talc. May Contain [+/-]: Mica, CI 15850/Red 7].D247442/7Rich Warm 51.5:Aqua/Water/Eau, Talc, CI 77491/Iron Oxides].',
  );
  assert.deepEqual(
    p.sections.map((s) => [s.header, s.entries.map((e) => `${e.label_name}${e.may_contain ? ' (may)' : ''}`)]),
    [
      ['D247441/6Rich Cool 51', ['Aqua/Water/Eau', 'Talc', 'Mica (may)', 'CI 15850/Red 7 (may)']],
      ['D247442/7Rich Warm 51.5', ['Aqua/Water/Eau', 'Talc', 'CI 77491/Iron Oxides']],
    ],
  );
  // a decimal point and an abbreviation in a header are not where a list ends
  assert.deepEqual(
    parseLabel('Shade 51.5: Talc, Mica\nNo.5 Rouge: Talc, Silica').sections.map((s) => s.header),
    ['Shade 51.5', 'No.5 Rouge'],
  );
});

test('marketing sentences before the list and disclaimers after it never become entries', () => {
  // Sephora skincare page text (cosdna-kg).
  const text =
    '-Sunflower Seed Cake, Barley Extract and Cucumber Fruit Extract: Help strengthen skin’s barrier, improve its resiliency, and balance and retain skin’s moisture levels.\n' +
    '-Hyaluronic Acid: hydrates.\n\nWater\\Aqua\\Eau, Glycerin, Petrolatum, Urea.\n\nPlease be aware that ingredient lists may change or vary from time to time.';
  const p = parseLabel(text);
  assert.deepEqual(
    allEntries(p).map((e) => e.label_name),
    ['Water\\Aqua\\Eau', 'Glycerin', 'Petrolatum', 'Urea'],
  );
  assert.equal(p.notes.length, 3);
  assert.deepEqual(names('Milk Oil: Helps melt makeup and cleanse away impurities.\nWater, Glycerin'), [
    'Water',
    'Glycerin',
  ]);
  assert.deepEqual(
    names('At Jack Black, we’re a small team with a big entrepreneurial spirit, and we listened to what they wanted.'),
    [],
  );
  assert.deepEqual(
    names('Water, Glycerin, Sodium Benzoate. Clean at Sephora is formulated without parabens, sulfates SLS and SLES.'),
    ['Water', 'Glycerin', 'Sodium Benzoate'],
  );
});

test('concentrations stated on the label are read; entries keep their printed form', () => {
  const e = allEntries(
    parseLabel(
      'Active Ingredients: Avobenzone 3%, Octocrylene 2.70%. Inactive Ingredients: Water, Niacinamide (10%), Retinol 0,5%, Zinc PCA',
    ),
  );
  assert.deepEqual(
    e.map((x) => [x.label_name, x.concentration]),
    [
      ['Avobenzone 3%', 3],
      ['Octocrylene 2.70%', 2.7],
      ['Water', null],
      ['Niacinamide (10%)', 10],
      ['Retinol 0,5%', 0.5],
      ['Zinc PCA', null],
    ],
  );
});

test('lines wrapped inside a name are joined; HTML left in the text is removed; junk cells give nothing', () => {
  assert.deepEqual(
    names('Tocopherol, Hexadecene, Pentaerythrityl Tetra-Di-\nT-Butyl Hydroxyhydrocinnamate, Flavor (Aroma)'),
    ['Tocopherol', 'Hexadecene', 'Pentaerythrityl Tetra-Di-T-Butyl Hydroxyhydrocinnamate', 'Flavor (Aroma)'],
  );
  assert.deepEqual(names('Polysorbate 20, Sodium\nHydroxide, Sodium Phosphate'), [
    'Polysorbate 20',
    'Sodium Hydroxide',
    'Sodium Phosphate',
  ]);
  assert.deepEqual(names('Methylisothiazolinone, Titanium Dioxide (Ci 77891) &lt;ILN46335&gt;'), [
    'Methylisothiazolinone',
    'Titanium Dioxide (Ci 77891)',
  ]);
  for (const junk of ['No Info', 'Visit the Dior boutique', '#NAME?', '', '   '])
    assert.deepEqual(parseLabel(junk), { sections: [], notes: [] });
});

test('mixed case, accents and the python-list form of the Sephora export', () => {
  assert.deepEqual(names('AQUA, glycérine, Huile Minérale'), ['AQUA', 'glycérine', 'Huile Minérale']);
  assert.equal(
    pythonListText('[\'Water, Glycerin\', "Shea (Butyrospermum Parkii) Butter, Parfum"]'),
    'Water, Glycerin\nShea (Butyrospermum Parkii) Butter, Parfum',
  );
  assert.equal(pythonListText('Water, Glycerin'), null);
  assert.equal(pythonListText("['unterminated"), null);
});

const joiner = new Joiner([
  'AQUA',
  'PARFUM',
  'GLYCERIN',
  'ETHYLHEXYL METHOXYCINNAMATE',
  'ETHYLHEXYLGLYCERIN',
  'CANDELILLA CERA',
  'CI 77891',
  'NIACINAMIDE',
  'ALCOHOL DENAT.',
  'LINALOOL',
]);
joiner.addSynonyms('GLYCERIN', ['Glycerol']);

test('joins say how they were made: exact name, alias table, synonym, tolerant match, none', () => {
  const how = (l: string) => {
    const j = joiner.join(l);
    return j === null ? null : [j.target, j.how];
  };
  assert.deepEqual(how('Niacinamide'), ['NIACINAMIDE', 'exact']);
  assert.deepEqual(how('Water/Aqua/Eau'), ['AQUA', 'alias']);
  assert.deepEqual(how('Fragrance'), ['PARFUM', 'alias']);
  assert.deepEqual(how('Glycerol'), ['GLYCERIN', 'alias']);
  joiner.addSynonyms('LINALOOL', ['Linalyl-ol Natural']);
  assert.deepEqual(how('Linalyl-ol Natural'), ['LINALOOL', 'synonym']);
  // a declared amount is the entry's concentration, never what makes a join tolerant
  assert.deepEqual(how('Niacinamide (10%)'), ['NIACINAMIDE', 'exact']);
  assert.deepEqual(how('Niacinamide 10 %'), ['NIACINAMIDE', 'exact']);
  assert.deepEqual(how('Water 50mg/g'), ['AQUA', 'alias']);
  assert.deepEqual(how('Niacinamid (10%)'), ['NIACINAMIDE', 'tolerant'], 'the name left is judged as printed');
  assert.deepEqual(how('Titanium Dioxide (CI 77891)'), ['CI 77891', 'tolerant']);
  assert.equal(how('Acrylates Copolymer Blue 1 Lake (CI 77891)'), null, 'a polymer is not the colour it is dyed with');
  assert.deepEqual(how('Linalool 78-70-6'), ['LINALOOL', 'tolerant']); // a CAS number printed after the name
  assert.deepEqual(how('Ethylhexyglycerin'), ['ETHYLHEXYLGLYCERIN', 'tolerant']); // one letter missing
  assert.deepEqual(how('Candelilla Cera (Euphorbia Cerifera (Candelilla) Wax)'), ['CANDELILLA CERA', 'tolerant']); // nested parentheses
  assert.equal(how('Unobtainium Extract'), null);
  assert.equal(joiner.join('10%'), null, 'an amount alone is no name');
});

test('a name printed with a comma inside joins as one entry; nothing else is merged', () => {
  const joined = joinEntries(
    [entry('Water'), entry('Ethylhexyl'), entry('Methoxycinnamate'), entry('Unobtainium'), entry('Glycerin')],
    joiner,
  );
  assert.deepEqual(
    joined.map((e) => [e.label_name, e.join?.target ?? null]),
    [
      ['Water', 'AQUA'],
      ['Ethylhexyl, Methoxycinnamate', 'ETHYLHEXYL METHOXYCINNAMATE'],
      ['Unobtainium', null],
      ['Glycerin', 'GLYCERIN'],
    ],
  );
});

test('two neighbours printed as one join by the steps after the printed form too (a qualifier, a stereo descriptor)', () => {
  // Each neighbour alone goes through every step and joins nothing; the pair is not only looked up as printed.
  const pair = (a: string, b: string) =>
    joinEntries([entry(a), entry(b)], joiner).map((e) => [e.label_name, e.join?.target ?? null]);
  assert.deepEqual(pair('Organic Ethylhexyl', 'Methoxycinnamate'), [
    ['Organic Ethylhexyl, Methoxycinnamate', 'ETHYLHEXYL METHOXYCINNAMATE'],
  ]);
  assert.deepEqual(pair('D Ethylhexyl', 'Methoxycinnamate'), [
    ['D Ethylhexyl, Methoxycinnamate', 'ETHYLHEXYL METHOXYCINNAMATE'],
  ]);
  assert.deepEqual(pair('Ethylhexyl', 'Unobtainium'), [
    ['Ethylhexyl', null],
    ['Unobtainium', null],
  ]);
});

test('two neighbours printed as one read a slash within its own name: "Jojoba Esters, 6% AHA/BHA" is not BHA', () => {
  const j = new Joiner(['SIMMONDSIA CHINENSIS SEED OIL', 'BHA', 'AQUA']);
  const joined = joinEntries([entry('Simmondsia Chinensis (Jojoba) Esters'), entry('6% AHA/BHA'), entry('Water')], j);
  assert.deepEqual(
    joined.map((e) => [e.label_name, e.join?.target ?? null]),
    [
      ['Simmondsia Chinensis (Jojoba) Esters', null],
      ['6% AHA/BHA', null],
      ['Water', 'AQUA'],
    ],
  );
});

test('a name whose bracket lists a more specific record of another substance is not that parent record', () => {
  const ix = new JoinIndex<number>();
  ix.addName('Collagen', 0);
  ix.addName('Hydrolyzed Collagen', 1);
  ix.addName('Mel', 2);
  ix.addName('Honey Extract', 3);
  ix.addCasNumbers('9007-34-5', 0);
  ix.addCasNumbers('92113-31-0', 1);
  ix.addCasNumbers('8028-66-8', 2);
  ix.addCasNumbers('91052-92-5', 3);
  const j = new LabelJoiner(ix);
  assert.equal(j.join('COLLAGEN(MARINE COLLAGEN, HYDROLYZED COLLAGEN)'), null);
  assert.equal(j.join('Collagen (Hydrolyzed Collagen)')?.target, 0, 'one name in the bracket is a gloss');
  assert.equal(j.join('Mel (Honey Extract, Extrait de Miel)')?.target, 2, 'a bracket naming other records is a gloss');
});

test('a joiner over any target (the served catalogue joins to ingredient ords)', () => {
  const ix = new JoinIndex<number>();
  ix.addName('Aqua', 0);
  ix.addName('Sodium Laureth Sulfate', 1);
  ix.addAlias('Water', 0);
  ix.addSynonym('SLES', 1);
  ix.addSynonym('Shared', 0);
  ix.addSynonym('Shared', 1);
  const j = new LabelJoiner(ix);
  // Each join says which named step of the ordered list made it (JOIN_STEPS).
  assert.deepEqual(j.join('Water (Aqua)'), { target: 0, how: 'alias', step: 'other_form' });
  assert.deepEqual(j.join('sodium laureth sulphate'), { target: 1, how: 'tolerant', step: 'other_form' });
  assert.deepEqual(j.join('SLES'), { target: 1, how: 'synonym', step: 'synonym' });
  assert.equal(j.join('Shared'), null); // claimed by two ingredients: never used
  // A step switched off is skipped: the rule can be measured without it (bench/labels-eval.ts --without).
  const without = new LabelJoiner(ix, { without: ['other_form'] });
  assert.equal(without.join('Water (Aqua)'), null);
  assert.deepEqual(without.join('SLES'), { target: 1, how: 'synonym', step: 'synonym' });
});

test("one analysis's memo holds at most MEMO_LIMIT names, and the joins are those of a fresh joiner", () => {
  const ix = new JoinIndex<number>();
  ix.addName('Aqua', 0);
  ix.addName('Sodium Laureth Sulfate', 1);
  ix.addName('Glycerin', 2);
  const j = new LabelJoiner(ix);
  // More distinct names than the memo holds, the known ones printed again after them (as a long shade range does).
  const unknown = Array.from({ length: MEMO_LIMIT * 2 + 7 }, (_, i) => `Zq${i}x`);
  const printed = ['Aqua', 'Glycerine', ...unknown, 'Sodium Laureth Sulfate', 'Aqua', 'Glycerine', 'Zq3x', 'Zq3x'];
  const entries = printed.map((n) => entry(n));
  const memo: JoinMemo<number> = new Map();
  let most = 0;
  const joined = [];
  for (const e of eachJoinedEntry(entries, j, memo)) {
    joined.push(e);
    most = Math.max(most, memo.size);
  }
  assert.ok(most <= MEMO_LIMIT, `the memo held ${most} names`);
  assert.ok(most > MEMO_LIMIT / 2); // it did fill up, so the names after it were joined again
  assert.deepEqual(joined, joinEntries(entries, new LabelJoiner(ix)));
  assert.deepEqual(
    joined.slice(-4).map((e) => e.join?.target ?? null),
    [0, 2, null, null],
  );
});

// Label-like text: names, separators, brackets, marks, markers, headers, line breaks and any unicode.
const token = fc.oneof(
  fc.constantFrom(
    'Water',
    'Aqua (Water, Eau)',
    'Water/Aqua/Eau',
    '1,2-Hexanediol',
    'CI 77891',
    'Niacinamide (10%)',
    'Alcohol Denat.',
    'glycérine',
    'Ethylhexyl',
    'Methoxycinnamate',
  ),
  fc.constantFrom(
    ', ',
    ',',
    ';',
    ',,',
    '. ',
    '.',
    '\n',
    '\r\n',
    ' ',
    '(',
    ')',
    '[',
    ']',
    '/',
    '*',
    '**',
    '†',
    ':',
    'May contain: ',
    '[+/- ',
    '+/-',
    'Ingredients: ',
    'Shade 1:\n',
    '-Key: hydrates.\n',
    '“',
    '”',
    '–',
    '&lt;br&gt;',
    '%',
  ),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
);
const labelText = fc.array(token, { maxLength: 60 }).map((xs) => xs.join(''));

test('property: parsing never throws and what it returns is well formed', () => {
  fc.assert(
    fc.property(labelText, (text) => {
      const p = parseLabel(text);
      for (const e of allEntries(p)) {
        assert.ok(e.label_name.trim() === e.label_name && /[\p{L}\p{N}]/u.test(e.label_name), JSON.stringify(e));
        assert.ok(e.concentration === null || (e.concentration > 0 && e.concentration <= 100));
      }
      for (const s of p.sections) assert.ok(s.entries.length > 0);
      assert.ok(mergeSections(p.sections).length <= allEntries(p).length);
    }),
    { numRuns: 2000 },
  );
});

// A last word such as "Vit" or "Ext" keeps its full stop by design ("Alcohol Denat."), so none ends a name here.
const plainName = fc
  .stringMatching(/^[A-Z][a-z]{2,9}( [A-Z][a-z]{2,9}){0,3}(-[1-9])?$/)
  .filter((n) => !/\b(denat|ext|no|vit|var|ssp|subsp|spp|sp|st|co|inc|ltd)$/i.test(n))
  // A name that is a note word alone ("And", "Organic", "Nano") is a note on the entry by design.
  .filter((n) => !/^(preservatives?|and|organic|nano|vegan|natural)$/i.test(n));
const separator = fc.constantFrom(', ', ',', ',\n', '; ', ' , ');

test('property: plain names come back in label order, and joined entries keep that order', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(plainName, separator), { minLength: 1, maxLength: 40 }), (items) => {
      const text = items.map(([n, sep], i) => (i === 0 ? n : sep + n)).join('') + '.';
      const printed = items.map(([n]) => n);
      const entries = allEntries(parseLabel(text));
      assert.deepEqual(
        entries.map((e) => e.label_name),
        printed,
      );
      // Each joined entry is the next entry, or the next two printed as one name.
      let k = 0;
      for (const j of joinEntries(entries, joiner)) {
        if (j.label_name === printed[k]) k += 1;
        else {
          assert.equal(j.label_name, `${printed[k]}, ${printed[k + 1]}`);
          k += 2;
        }
      }
      assert.equal(k, printed.length);
    }),
    { numRuns: 1000 },
  );
});

test('drug-facts labels: the active ingredients are entries, not a header, and the inactive list follows', () => {
  assert.deepEqual(
    names('Active Ingredient: Salicylic Acid (2%). Inactive Ingredients: Water, Cocamidopropyl Betaine.'),
    ['Salicylic Acid (2%)', 'Water', 'Cocamidopropyl Betaine'],
  );
  assert.deepEqual(names('Active Ingredient: Salicylic Acid 2%\nInactive Ingredients: Water, Glycerin'), [
    'Salicylic Acid 2%',
    'Water',
    'Glycerin',
  ]);
});

test('a bullet between names separates them; a bracket left open does not fuse the rest of the list', () => {
  assert.deepEqual(names('AQUA / WATER • GLYCERIN • SILICA'), ['AQUA / WATER', 'GLYCERIN', 'SILICA']);
  assert.deepEqual(names('Stellaria Media (Chickweed( Extract, Malt Extract, Glycerin'), [
    'Stellaria Media (Chickweed( Extract',
    'Malt Extract',
    'Glycerin',
  ]);
  // A "+/-" bracket closed before a product code the page printed after it.
  const parsed = parseLabel('Talc, Silica, [+/- Mica, Iron Oxides (CI 77491, CI 77492)] <ILN29463>.');
  assert.deepEqual(
    allEntries(parsed).map((e) => [e.label_name, e.may_contain]),
    [
      ['Talc', false],
      ['Silica', false],
      ['Mica', true],
      ['Iron Oxides (CI 77491, CI 77492)', true],
    ],
  );
});

test('a printed name longer than 150 characters joins only as printed, never through a CI number or part inside it', () => {
  const joiner = new Joiner(['MICA', 'CI 77891', 'TALC']);
  const runTogether =
    'Talc Mica Octyldodecyl Stearoyl Stearate Diisostearyl Malate Calcium Aluminum Borosilicate Titanium Dioxide Ci 77891 Silica Dimethicone Tocopherol Caprylyl Glycol Ethylhexylglycerin';
  assert.ok(runTogether.length > 150);
  assert.equal(joiner.join(runTogether), null);
  assert.equal(joiner.join('Titanium Dioxide (CI 77891)')?.target, 'CI 77891');
});

test('a "May contain" section after a footnote sentence is a list, not the footnote (issue 24 §3)', () => {
  const p = parseLabel('Aqua, Glycerin*, Tocopherol. *Organic. May contain: CI 77891, CI 77491');
  assert.deepEqual(
    allEntries(p).map((e) => [e.label_name, e.may_contain]),
    [
      ['Aqua', false],
      ['Glycerin', false],
      ['Tocopherol', false],
      ['CI 77891', true],
      ['CI 77491', true],
    ],
  );
  assert.deepEqual(p.notes, ['*Organic.']);
});

test('bilingual and multilingual headers are one header: no translation becomes an entry (issue 24 §3)', () => {
  // Sephora product_info: "May Contain/Peut Contenir: (+/-)" before the shades' colours.
  const p = parseLabel(
    'Phenoxyethanol, Polysilicone-11, Tocopherol, May Contain/Peut Contenir: (+/-) Yellow 5 Lake (Ci 19140), Carmine (Ci 75470)',
  );
  assert.deepEqual(
    allEntries(p).map((e) => [e.label_name, e.may_contain]),
    [
      ['Phenoxyethanol', false],
      ['Polysilicone-11', false],
      ['Tocopherol', false],
      ['Yellow 5 Lake (Ci 19140)', true],
      ['Carmine (Ci 75470)', true],
    ],
  );
  assert.deepEqual(names('Benzyl Alcohol. May Contain/Peut Contenir: Titanium Dioxide (CI 77891)'), [
    'Benzyl Alcohol',
    'Titanium Dioxide (CI 77891)',
  ]);
  assert.deepEqual(
    allEntries(parseLabel('Talc, Mica. May contain / Peut contenir / Kann enthalten (+/-): CI 77491, CI 77891')).map(
      (e) => [e.label_name, e.may_contain],
    ),
    [
      ['Talc', false],
      ['Mica', false],
      ['CI 77491', true],
      ['CI 77891', true],
    ],
  );
  const h = parseLabel('Ingredients / Ingrédients: Aqua, Glycerin, Parfum');
  assert.deepEqual(names('Ingredients / Ingrédients: Aqua, Glycerin, Parfum'), ['Aqua', 'Glycerin', 'Parfum']);
  assert.deepEqual([h.sections.length, h.notes], [1, []]);
});

test('the same header printed again after a full stop: the list goes on, no name before it becomes a header', () => {
  const sections = (text: string) =>
    parseLabel(text).sections.map((s) => [s.header, s.entries.map((e) => e.label_name)]);
  // Before: "Glycerin" was lost in a section headed "Glycerin. Ingredients".
  assert.deepEqual(sections('Ingredients: Aqua, Glycerin. Ingredients: Mica, Talc.'), [
    [null, ['Aqua', 'Glycerin', 'Mica', 'Talc']],
  ]);
  // As when the header starts its own line.
  assert.deepEqual(
    sections('Ingredients: Aqua, Glycerin.\nIngredients: Mica, Talc.'),
    sections('Ingredients: Aqua, Glycerin. Ingredients: Mica, Talc.'),
  );
  // Any number of times, and a translation after them is still a note.
  const p = parseLabel('Ingredients: Aqua, Glycerin. Ingredients: Mica. Ingredients: Talc. Ingrédients: Eau, Mica.');
  assert.deepEqual(
    [p.sections.map((s) => s.entries.map((e) => e.label_name)), p.notes],
    [[['Aqua', 'Glycerin', 'Mica', 'Talc']], ['Ingrédients: Eau, Mica.']],
  );
});

test('a list printed again in another language is one list, the translation a note (issue 24 §3)', () => {
  const one = (text: string, notes: string[]) => {
    const p = parseLabel(text);
    assert.equal(p.sections.length, 1, text);
    assert.deepEqual(
      [p.sections[0].entries.map((e) => e.label_name), p.notes],
      [['Aqua', 'Glycerin', 'Parfum'], notes],
    );
  };
  one('Ingredients: Aqua, Glycerin, Parfum. Ingrédients: Aqua, Glycérine, Parfum.', [
    'Ingrédients: Aqua, Glycérine, Parfum.',
  ]);
  one('Ingredients: Aqua, Glycerin, Parfum.\nIngrédients : Aqua, Glycérine, Parfum.', [
    'Ingrédients : Aqua, Glycérine, Parfum.',
  ]);
  one('Aqua, Glycerin, Parfum. Zutaten: Aqua, Glycerin, Parfum.', ['Zutaten: Aqua, Glycerin, Parfum.']);
  one('Ingrédients: Aqua, Glycerin, Parfum. Ingredientes: Agua, Glicerina, Perfume.', [
    'Ingredientes: Agua, Glicerina, Perfume.',
  ]);
  // A May contain section after the list stays on it; only the translation goes.
  const p = parseLabel(
    'Ingredients: Talc, Mica. May contain: CI 77891. Ingrédients: Talc, Mica. Peut contenir: CI 77891.',
  );
  assert.deepEqual(
    allEntries(p).map((e) => [e.label_name, e.may_contain]),
    [
      ['Talc', false],
      ['Mica', false],
      ['CI 77891', true],
    ],
  );
});

test('notes printed as entries are notes: (preservative), (and), (organic), (nano), *certified organic (issue 24 §1)', () => {
  const p = parseLabel('Aqua, Phenoxyethanol, (Preservative), Glycerin, (and), Zinc Oxide, Nano, *Certified Organic');
  assert.deepEqual(
    allEntries(p).map((e) => e.label_name),
    ['Aqua', 'Phenoxyethanol', 'Glycerin', 'Zinc Oxide'],
  );
  assert.deepEqual([...p.notes].sort(), ['Certified Organic', 'Nano', 'Preservative', 'and']);
});

test('hasAnyKey: a compact key is found whatever table added it, before or after a look-up; others are ruled out', () => {
  const ix = new JoinIndex<number>();
  ix.restore('exact', 'GLYCERIN', 1);
  ix.restore('alias', 'AQUA', 2);
  ix.addName('Caprylic/Capric Triglyceride', 3);
  ix.addSynonym('Glycerol', 1);
  for (const k of ['GLYCERIN', 'AQUA', 'CAPRYLICCAPRICTRIGLYCERIDE', 'GLYCEROL']) assert.ok(ix.hasAnyKey(k), k);
  for (const k of ['ZQ1X', 'GLYCERINE', 'AQ', 'WATERZQXEAU']) assert.equal(ix.hasAnyKey(k), ix.anyKey.has(k), k);
  assert.equal(ix.hasAnyKey('ZQ1X'), false);
  // Added after the first look-ups: the first three characters are marked as keys are added.
  ix.addAlias('Zq1x', 4);
  assert.ok(ix.hasAnyKey('ZQ1X'));
  assert.ok(new LabelJoiner(ix).join('Zq1x') !== null);
});
