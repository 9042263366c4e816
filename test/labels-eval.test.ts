// The label evaluation set (data/labels-eval.tsv): at least 400 printed names from the
// bundled sample's real labels, weighted to the joins that are not the name verbatim, each
// with its CosIng record, two records (a split) or "unrecognised". Precision (right joins
// / joins) must stay at 98 % or more, coverage must not fall below the figure measured
// when the rules were made (docs/data-report.md); and one test per pattern of issue 24
// on real label strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HELD_OUT, readEvalSet, sampleJoiner, score } from '../bench/labels-eval';
import { joinEntries } from '../src/labels/join-entries';
import Database from 'better-sqlite3';
import { LabelAnalyser } from '../src/catalogue/label-analysis';

const { joiner, names } = sampleJoiner();
const join = (label: string) =>
  joinEntries([{ label_name: label, concentration: null, may_contain: false }], joiner).map((e) => [
    e.label_name,
    e.join === null ? null : names[e.join.target],
    e.join === null ? 'none' : (e.join.rule ?? e.join.how),
  ]);

test('the evaluation set: 550 entries or more, precision ≥ 99 %, right joins ≥ 430, the split rule ≥ 95 %; the held-out part ≥ 95 %', () => {
  const items = readEvalSet();
  assert.ok(items.length >= 550, `${items.length} entries`);
  const s = score(items, joiner, names);
  assert.ok(
    s.precision >= 0.99,
    `precision ${(100 * s.precision).toFixed(1)} %: ${JSON.stringify(s.wrong.slice(0, 10))}`,
  );
  // Coverage kept: as many right joins as before round three (429 of the same 559 entries), though
  // groups of colour indexes (11 entries) are now judged unrecognised.
  assert.ok(s.right >= 430, `${s.right} right joins, coverage ${(100 * s.coverage).toFixed(1)} %`);
  const split = s.steps.split;
  assert.ok(split.right / split.joined >= 0.95, `split ${split.right} / ${split.joined}`);
  const held = score(readEvalSet(HELD_OUT), joiner, names);
  assert.ok(held.items >= 60 && held.precision >= 0.95, `held-out ${JSON.stringify(held.wrong)}`);
});

test('run-together entries: two names back to back become two entries; otherwise unrecognised, never one part', () => {
  assert.deepEqual(join('Sodium Chloride Sodium Methyl Cocoyl Taurate'), [
    ['Sodium Chloride', 'SODIUM CHLORIDE', 'split'],
    ['Sodium Methyl Cocoyl Taurate', 'SODIUM METHYL COCOYL TAURATE', 'split'],
  ]);
  assert.deepEqual(
    join('Glycerin Butylene Glycol').map((e) => e[1]),
    ['GLYCERIN', 'BUTYLENE GLYCOL'],
  );
  assert.deepEqual(
    join('Ethylhexyl Salicylate. Water (Aqua)').map((e) => e[1]),
    ['ETHYLHEXYL SALICYLATE', 'AQUA'],
  );
  assert.deepEqual(
    join('Water** (and) Aloe Barbadensis (Aloe Vera) Leaf Juice').map((e) => e[1]),
    ['AQUA', 'ALOE BARBADENSIS LEAF JUICE'],
  );
  assert.deepEqual(join('Petrolatum (Petrolatum). Avocadin Hu 25 (Persea Gratissima (Avacado) Oil)'), [
    ['Petrolatum (Petrolatum). Avocadin Hu 25 (Persea Gratissima (Avacado) Oil)', null, 'none'],
  ]);
  // One thing named twice is not a split; a gloss is not a second name.
  assert.deepEqual(join('Candelilla Cera / Candelilla Wax').length, 1);
  assert.deepEqual(join('Tocopheryl Acetate (vitamin E)'), [
    ['Tocopheryl Acetate (vitamin E)', 'TOCOPHERYL ACETATE', 'tolerant'],
  ]);
  assert.deepEqual(
    join('Mentha Piperita (Peppermint) Leaf Water').map((e) => e[1]),
    ['MENTHA PIPERITA LEAF WATER'],
  );
});

test('a botanical joins only to the same species and the same part and preparation', () => {
  for (const l of [
    'Brassica Napus Oleifera Extract', // not Brassica Napus Extract
    'Abies Pectinata Leaf Oil', // not Abies Pectinata Oil
    'Spilanthes Acmella Flower Bud Extract', // not … Flower Extract
    'Santalum Spicatum (Sandalwood) Wood Oil', // not Santalum Album
    'Rosa Canina Extract', // not Rosa Extract
    'Citrus', // not Citrus Nobilis
    'Aloe Barbadensis', // a plant, not its leaf juice
    'Amber Leaf Extract', // not Amber Extract
  ])
    assert.deepEqual(join(l), [[l, null, 'none']], l);
  // A common name, the Latin name in brackets, then the part: the Latin name and the part.
  assert.equal(join('Orange (Citrus Aurantium Dulcis) Peel Oil')[0][1], 'CITRUS AURANTIUM DULCIS PEEL OIL'); // was Citrus Nobilis, then none
  assert.equal(join('Cedar (Thuja Occidentalis) Leaf Oil')[0][1], 'THUJA OCCIDENTALIS LEAF OIL');
  assert.equal(join('Camellia Oleifara (Camellia Seed) Oil')[0][1], null); // the brackets hold no Latin name
  assert.equal(join('Citrus Limon (Lemon) Peel Oil/Citrus Limon Peel Oil')[0][1], 'CITRUS LIMON PEEL OIL'); // was … Peel
  assert.equal(join('Oryza Sativa (Rice) Bran Extract/Oryza Sativa Bran Extract')[0][1], 'ORYZA SATIVA BRAN EXTRACT');
  assert.equal(join('Zingiber Officinale (Ginger) Root Extract')[0][1], 'ZINGIBER OFFICINALE ROOT EXTRACT');
  assert.equal(join('Vitis Vinif-era (Grape) Seed Oil')[0][1], 'VITIS VINIFERA SEED OIL');
});

test('a name and its gloss, then another name, are two entries; a gloss first, a part word after, or an enzyme after its source are one', () => {
  // Real label strings of the sample: each was joined to its first name before.
  assert.deepEqual(join('Parfum (Fragrance) D-Limonene'), [
    ['Parfum (Fragrance)', 'PARFUM', 'split'],
    ['D-Limonene', 'LIMONENE', 'split'],
  ]);
  assert.deepEqual(
    join('Microcrystalline Wax (Cera Microcristallina) Hydrogenated Microcrystalline Wax').map((e) => e[1]),
    ['MICROCRYSTALLINE WAX', 'HYDROGENATED MICROCRYSTALLINE WAX'],
  );
  // A colour printed with its index is a part, and its index decides.
  assert.deepEqual(
    join('Titanium Dioxide (Ci 77891) Manganese Violet (Ci 77742)').map((e) => e[1]),
    ['CI 77891', 'CI 77742'],
  );
  assert.deepEqual(
    join('Silica (+/-) Iron Oxides CI 77499').map((e) => e[1]),
    ['SILICA', 'CI 77499'],
  );
  // Not at a space inside a name: "Tin Oxide" is one name, not Tin and a colour.
  assert.deepEqual(
    join('Tin Oxide (+/-) Iron Oxides CI 77499').map((e) => e[0]),
    ['Tin Oxide (+/-)', 'Iron Oxides CI 77499'],
  );
  assert.equal(join('(Mel) Honey').length, 1);
  assert.equal(join('Butyrospermum Parkii (Shea Butter) Butter')[0][1], 'BUTYROSPERMUM PARKII BUTTER');
  assert.deepEqual(join('Yeast Lipase'), [['Yeast Lipase', null, 'none']]); // was Yeast + Lipase
});

test('a group synonym decides nothing: half an ester\'s name ("Ethyl Ester") is not Ethyl Acetate', () => {
  assert.equal(join('Ethyl Ester (Fruity White Musk Note)')[0][1], null);
  assert.equal(join('Ethyl Ester')[0][1], null);
});

test('tolerant forms: a qualifier, a stereo descriptor, a leading "and", "Floral" for "Flower", a zero for the letter O', () => {
  assert.equal(join('Organic Argan Oil')[0][1], 'ARGANIA SPINOSA KERNEL OIL');
  assert.equal(join('Beeswax (Organic)')[0][1], 'CERA ALBA');
  assert.equal(join('L-Theanine')[0][1], 'THEANINE');
  assert.equal(join('Calcium D Pantothenate')[0][1], 'CALCIUM PANTOTHENATE');
  assert.equal(join('D-Alpha-Tocopherol')[0][1], 'TOCOPHEROL');
  assert.equal(join('l Octyldodecyl Myristate')[0][1], null); // a lone lower-case l is no descriptor
  assert.equal(join('and Porphyra Yezoensis (Seaweed) Extract')[0][1], 'PORPHYRA YEZOENSIS EXTRACT');
  assert.equal(join('Jasminum Sambac Floral Extract')[0][1], 'JASMINUM SAMBAC FLOWER EXTRACT');
  // Was Ascorbic Acid, from the gloss: a fragment of the molecule.
  assert.equal(join('3-0-Ethyl Ascorbic Acid (Vitamin C)')[0][1], '3-O-ETHYL ASCORBIC ACID');
});

test("a species misspelt by one letter is the genus's one species that near; plants sharing a preparation are a list", () => {
  // Real label strings of the sample; each joined nothing before.
  assert.equal(join('Helianthus Annus (Sunflower) Seed Extract')[0][1], 'HELIANTHUS ANNUUS SEED EXTRACT');
  assert.equal(join('Carthamus Tinctorium (Safflower) Seed Oil')[0][1], 'CARTHAMUS TINCTORIUS SEED OIL');
  assert.equal(join('Gardenia Tahitensis (Tiare) Flower Extract')[0][1], 'GARDENIA TAITENSIS FLOWER EXTRACT');
  assert.equal(join('linum usitatissmum flax seed oil')[0][1], 'LINUM USITATISSIMUM SEED OIL');
  // The same part and preparation still: a respelt species is no licence to change the preparation.
  assert.equal(join('Helianthus Annus Leaf Oil')[0][1], null);
  // Three plants' wax is not sunflower seed wax, though the last part names it.
  assert.equal(join('Acacia Decurrens/Jojoba/Sunflower Seed Wax')[0][1], null);
  assert.equal(join('Maris Sal/Sea Salt/Sel Marin')[0][1], 'MARIS SAL'); // one thing named three times
});

test('tolerant matches forgive spelling and spacing, never a whole word of the molecule', () => {
  assert.equal(join('PEG-75 100 Stearate')[0][1], null);
  assert.equal(join('Sodium CocoylGlutamate')[0][1], 'SODIUM COCOYL GLUTAMATE');
  assert.equal(join('Tetrasodium Glutamate Diacetae')[0][1], 'TETRASODIUM GLUTAMATE DIACETATE');
});

test('ferments join to a ferment record or stay unrecognised', () => {
  assert.equal(join('Saccharomyces/Lysate Ferment')[0][1], null); // was Saccharomyces
  assert.equal(join('Saccharomyces/Iron Ferment. (10-17-7369)')[0][1], 'SACCHAROMYCES/IRON FERMENT');
  assert.deepEqual(
    join('Saccharomyces/Copper Ferment Saccharomyces/Iron Ferment').map((e) => e[1]),
    ['SACCHAROMYCES/COPPER FERMENT', 'SACCHAROMYCES/IRON FERMENT'],
  );
});

test('a colour index printed in the name decides', () => {
  assert.deepEqual(join('Iron Oxides (CI 77499)')[0].slice(1), ['CI 77499', 'colour_index']); // was CI 77491
  assert.equal(join('Iron Oxide (CI77492)')[0][1], 'CI 77492');
  // Several colour indexes name a group: one entry, never one member (issue 33).
  assert.deepEqual(join('Iron Oxides (Ci 77492, Ci 77499)')[0].slice(1), [null, 'none']);
  assert.equal(join('Yellow 6 (CI 15985)')[0][1], 'CI 15985');
});

test('a colour index printed with a letter l, spaces or dots, or bare before a colour name, decides', () => {
  // Real label strings of the bundled sample; each joined nothing or another record before.
  assert.deepEqual(join('Cl 77491 (Iron Oxides)')[0].slice(1), ['CI 77491', 'colour_index']);
  assert.deepEqual(join('C L 77499 (Iron Oxides)')[0].slice(1), ['CI 77499', 'colour_index']);
  assert.deepEqual(join('77499 (Iron Oxides)')[0].slice(1), ['CI 77499', 'colour_index']);
  assert.deepEqual(join('Iron Oxides (Cl 77491, Cl 77492, Cl 77499)')[0].slice(1), [null, 'none']); // a group
  assert.deepEqual(join('Titanium Dioxide (Cl 77891)')[0].slice(1), ['CI 77891', 'colour_index']);
  assert.deepEqual(join('C1 77891')[0].slice(1), ['CI 77891', 'colour_index']);
  assert.equal(join('C.I. 77891')[0][1], 'CI 77891');
  assert.equal(join('Ci77491')[0][1], 'CI 77491');
  // Not a colour index: a code, a number outside 10000–77999, a bare number not before a colour name.
  assert.equal(join('C162585/2')[0][1], null);
  assert.notEqual(join('Iron Oxides (Cl 87491)')[0][2], 'colour_index');
  assert.notEqual(join('77491 (Glycerin)')[0][2], 'colour_index');
  assert.notEqual(join('Tocopher 15850 (Red 6, Red 7, Red 7 Lake)')[0][2], 'colour_index');
});

test('a CAS number printed in the name decides when exactly one record carries it', () => {
  // Real label strings (the evaluation set, the sample's labels); the first joined nothing before.
  assert.equal(join('4,5,6,7,7a-Hexahydro-4,7- Methano-1(3)- Inden-6-Yl- Acetate 5413-60-5')[0][1], 'VERDYL ACETATE');
  assert.deepEqual(join('Tocopherol (CAS 59-02-9)')[0].slice(1), ['TOCOPHEROL', 'cas_number']);
  assert.equal(join('Sodium Chloride [7647-14-5]')[0][1], 'SODIUM CHLORIDE');
  // A wrong check digit is no CAS number.
  assert.equal(join('4,5,6,7,7a-Hexahydro-4,7- Methano-1(3)- Inden-6-Yl- Acetate 5413-60-4')[0][1], null);
  // A number two records carry decides nothing: the name does.
  assert.equal(join('C12-14 Sec-Pareth-9 (CAS 84133-50-6)')[0][1], 'C12-14 SEC-PARETH-9');
  assert.equal(join('C12-14 Sec-Pareth-8 (CAS 84133-50-6)')[0][1], 'C12-14 SEC-PARETH-8');
  // Two CAS numbers name a blend: never joined to one part.
  const blend =
    'Vegetable Wax Blend Containing Hydrogenated Soybean Oil (CAS 8016-70-4 Soybean) And Hydrogenated Coconut Oil (CAS 84836-98-6 Coconut Oil)';
  assert.equal(join(blend)[0][1], null);
});

test('the served analysis reads the CAS numbers from the records (cas_number)', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE label_keys (kind INTEGER, entries TEXT)');
  const names = ['Tocopherol', 'Tocopheryl Acetate', 'C12-14 Sec-Pareth-8', 'C12-14 Sec-Pareth-9'];
  db.prepare('INSERT INTO label_keys VALUES (0, ?)').run(JSON.stringify(names.map((n, i) => [n.toUpperCase(), i])));
  const cas = ['59-02-9', '7695-91-2', '84133-50-6', '84133-50-6'];
  const records = names.map((name, i) => JSON.stringify({ name, cas_number: cas[i], category: null }));
  const answer = JSON.parse(
    new LabelAnalyser(
      db.prepare('SELECT kind, entries FROM label_keys').raw().all() as [number, string][],
      records,
    ).analyse('Vitamin E (CAS 59-02-9), Vitamin E Acetate 7695-91-2, Pareth (CAS 84133-50-6)'),
  ) as { entries: { ingredient: { name: string } | null }[] };
  assert.deepEqual(
    answer.entries.map((e) => e.ingredient?.name ?? null),
    ['Tocopherol', 'Tocopheryl Acetate', null],
  );
  db.close();
});

test('notes in brackets are not joins: (preservative), (organic), (nano)', () => {
  assert.equal(join('Phenoxyethanol (Preservative)')[0][1], 'PHENOXYETHANOL');
  assert.equal(join('Glycerin (Organic)')[0][1], 'GLYCERIN');
  assert.equal(join('Lithium Magnesium Sodium Silicate (Nano)')[0][1], 'LITHIUM MAGNESIUM SODIUM SILICATE');
});

// Issue 33: each pattern on the real strings the issue gives; each joined wrongly before (the
// evaluation set holds them with their judged answers, data/labels-eval.tsv).
test('a split is right only when each part is a whole name and the whole is not one', () => {
  assert.deepEqual(join('peg-6 capric triglyceride'), [['peg-6 capric triglyceride', null, 'none']]); // was PEG-6 + …
  assert.equal(
    join('Sodium Hydroxide Tocopherol')
      .map((e) => e[1])
      .join(' + '),
    'SODIUM HYDROXIDE + TOCOPHEROL',
  );
  assert.deepEqual(join('Polyethylene Glycol'), [['Polyethylene Glycol', null, 'none']]); // was Polyethylene + Glycol
  assert.deepEqual(
    join('Glycerin Butylene Glycol').map((e) => e[1]),
    ['GLYCERIN', 'BUTYLENE GLYCOL'],
  );
});

test('a copolymer or crosspolymer never joins one of its monomers', () => {
  for (const l of [
    'Dimethicone/Vinal Dimethicone Crosspolymer',
    'Styrene/Acrylate Copolymer',
    'PVP/VA Copolymer',
    'Polyester/Dimethicone/IPDI Copolymer',
  ])
    assert.equal(join(l)[0][1], null, l);
  assert.equal(join('styrene/acrylates copolymer')[0][1], 'STYRENE/ACRYLATES COPOLYMER');
  // A misspelt copolymer is respelt to the copolymer (was Acrylamide).
  assert.equal(
    join('Acrylamide/Sodium Acryloyldimethylaurate Copolymer')[0][1],
    'ACRYLAMIDE/SODIUM ACRYLOYLDIMETHYLTAURATE COPOLYMER',
  );
});

test('a dropped or misspelt word never falls back to a shorter record', () => {
  // Never the shorter record; a misspelt word is respelt when exactly one name results (issue 33).
  assert.equal(join('Panax Ginseng Root Extact')[0][1], 'PANAX GINSENG ROOT EXTRACT'); // was Panax Ginseng Root
  // The short word respelt (respelt_short): the fruit extract, never Vaccinium Myrtillus Extract.
  assert.equal(join('Vaccinium Myrtillus Friut Extract')[0][1], 'VACCINIUM MYRTILLUS FRUIT EXTRACT');
  assert.equal(join('Rosa Damascena Flower Distillate')[0][1], null); // was Rosa Damascena Flower
  assert.equal(join('rubus idaeus extract ketone')[0][1], null); // was Rubus Idaeus Extract
  assert.equal(join('Hydroxypropyl Starch Phospate')[0][1], 'HYDROXYPROPYL STARCH PHOSPHATE'); // was Hydroxypropyl Starch
  assert.equal(join('Aspergilus/Rice Ferment Filtrate')[0][1], 'ASPERGILLUS/RICE FERMENT FILTRATE'); // was Rice Ferment Filtrate
});

test('a group or blend is one entry, never one of its members; one substance named twice is one', () => {
  assert.equal(join('Iron Oxides (CI 77491, CI 77492, CI 77499)')[0][1], null); // was CI 77491
  assert.equal(join('Ci 77491/77492 (Iron Oxides)')[0][1], null);
  assert.equal(join('Cyclopentasiloxane/Cyclohexasiloxane')[0][1], null);
  assert.equal(join('6% AHA/BHA')[0][1], null); // was BHA (butylated hydroxyanisole)
  assert.equal(join('Extract Blend [Water/Eau/Aqua, Chondrus Crispus (Red Algae) Extract]')[0][1], null); // was Aqua
  assert.equal(join('Honey/Mel/Miel')[0][1], 'HONEY');
  assert.equal(join('Candelilla Cera / Candelilla Wax')[0][1], 'CANDELILLA CERA');
});

test('a "derived from" gloss is not the ingredient', () => {
  assert.equal(join('Sodium Cocoyl Isethionate (*Coconut Oil)')[0][1], 'SODIUM COCOYL ISETHIONATE');
  assert.equal(join('Glutamic Acid (Derived from Fermented Grains)')[0][1], 'GLUTAMIC ACID');
  assert.equal(join('Carrageenan from Red Algae')[0][1], 'CARRAGEENAN');
});

test('one-word misspellings are respelt when exactly one name results, among several near words', () => {
  // Real strings of issue 33; each joined nothing before.
  assert.equal(join('dimethicon')[0][1], 'DIMETHICONE');
  assert.equal(join('Penylene Glycol')[0][1], 'PENTYLENE GLYCOL'); // Pentylene or Phenylene: only one is a name
  assert.equal(join('Saccharine Isomerate')[0][1], 'SACCHARIDE ISOMERATE'); // Saccharin or Saccharide
  assert.equal(join('Caprylyc/Capryc Triglyceride')[0][1], 'CAPRYLIC/CAPRIC TRIGLYCERIDE');
});

test('beyond one letter: a long word two letters away, a short word one letter away, mono- left out; one nearest record, a margin to the next', () => {
  const step = (label: string) => {
    const [e] = joinEntries([{ label_name: label, concentration: null, may_contain: false }], joiner);
    return e.join === null ? null : [names[e.join.target], e.join.step, e.join.rule ?? e.join.how];
  };
  // Real strings of issue 33 and of the sample's raw labels; each joined nothing before.
  assert.deepEqual(step('Nyacinnamide'), ['NIACINAMIDE', 'respelt_two', 'tolerant']);
  assert.deepEqual(step('Butyl Methodibenzoylmethane'), ['BUTYL METHOXYDIBENZOYLMETHANE', 'respelt_two', 'tolerant']);
  assert.deepEqual(step('Alcohol Dena'), ['ALCOHOL DENAT.', 'respelt_short', 'tolerant']);
  assert.deepEqual(step('Methl Trimethicone'), ['METHYL TRIMETHICONE', 'respelt_short', 'tolerant']);
  assert.deepEqual(step('sorbitan monostearate'), ['SORBITAN STEARATE', 'mono_prefix', 'tolerant']);
  // A known word one letter away (Sarcosinate, a word of names) is the nearest: not the record two away (Sarcosine).
  assert.equal(step('Sarcosinat'), null);
  // Two unknown words: too little of the name is known.
  assert.equal(step('Nyacinnamide Dena'), null);
  // A syllable of a chemical name or a word glued to digits is not a word to correct.
  assert.equal(step('1-(2,2,6-trimethylcyclohexyl)hexan-3-ol'), null);
  assert.equal(step('Zq1a2bx'), null);
  // Switched off, each step joins nothing of its own.
  const off = sampleJoiner(undefined, ['respelt_two', 'respelt_short', 'mono_prefix']);
  for (const label of ['Nyacinnamide', 'Alcohol Dena', 'sorbitan monostearate'])
    assert.equal(off.joiner.join(label), null, label);
});
