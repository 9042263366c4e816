// The precision rules of the joiner (issue 24: a wrong join is worse than none). A join
// found by any rule but the printed name itself is accepted only when the record names the
// same thing: a botanical the same genus and species (and variety) and the same part and
// preparation; a ferment a ferment record. Guarantees: pure functions of the printed name,
// the record's name and the dictionary's names (answers about a slash part are remembered per
// dictionary, at most 20,000 of each kind); a rejected candidate leaves the joiner to
// try its other forms, else the entry is unrecognised.

/** Words that name a plant part, a preparation or a fermentation, folded to one form each. */
const PART: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'OIL EXTRACT WATER CERA BUTTER SEED SEEDCAKE LEAF ROOT FLOWER FRUIT PEEL BARK KERNEL JUICE POWDER STEM HULL SHELL BRAN ' +
    'GERM NUT RHIZOME PULP SAP TWIG BUD CALLUS CELL FERMENT FILTRATE LYSATE RESIN GUM WOOD NEEDLE HERB STARCH STEROLS ' +
    'FLOUR HYDROSOL ABSOLUTE CONCRETE TINCTURE VINE'
  )
    .split(' ')
    .map((w) => [w, w] as [string, string])
    .concat([
      ['OILS', 'OIL'],
      ['EXTRACTS', 'EXTRACT'],
      ['WAX', 'CERA'],
      ['SEEDS', 'SEED'],
      ['LEAVES', 'LEAF'],
      ['ROOTS', 'ROOT'],
      ['FLOWERS', 'FLOWER'],
      ['FRUITS', 'FRUIT'],
      ['STEROL', 'STEROLS'],
      ['FLORAL', 'FLOWER'],
    ]),
);
/** Words printed before a preparation that do not name the plant ("Cold-Pressed", "Essential"). */
const IGNORED = new Set([
  'ESSENTIAL',
  'VIRGIN',
  'EXTRA',
  'COLD',
  'PRESSED',
  'REFINED',
  'UNREFINED',
  'ORGANIC',
  'PURE',
  'NATURAL',
  'CRUDE',
  'WILD',
]);
/** First words of chemical names that end in a part word ("Hydrolyzed … Protein"): never a genus. */
const NOT_GENUS = new Set([
  'HYDROLYZED',
  'HYDROGENATED',
  'SODIUM',
  'POTASSIUM',
  'CALCIUM',
  'MAGNESIUM',
  'ZINC',
  'DISODIUM',
  'ACETYLATED',
  'ETHOXYLATED',
  'SULFATED',
  'OZONIZED',
  'POLYGLYCERYL',
  'GLYCERYL',
  'PEG',
  'PPG',
  'AMMONIUM',
  'TEA',
]);
/** A ferment, lysate or filtrate (not "Fermented": "Glutamic Acid (Derived from Fermented Grains)"). */
const FERMENT = /FERMENT(?!ED)|LYSATE|FILTRATE/;
const POLYMER = /POLYMER/i;

/** The botanical words of a dictionary: genus words, and the epithets after them (species, variety). */
export interface Botany {
  genera: Set<string>;
  epithets: Set<string>;
  /** "GENUS SPECIES|OIL": how many names of that plant end in that preparation. */
  preparations: Map<string, number>;
  /** Each genus's species words. */
  species: Map<string, Set<string>>;
}

/** From the botanical names (genus, species, …, a part word: "Rosa Canina Fruit Oil"). */
export function botanyOf(names: Iterable<string>): Botany {
  const out: Botany = { genera: new Set(), epithets: new Set(), preparations: new Map(), species: new Map() };
  const all = [...names];
  for (const n of all) {
    const w = n.split(' ');
    if (w.length < 3 || !/^[A-Z]{3,}$/.test(w[0]) || !/^[A-Z]{3,}$/.test(w[1]) || NOT_GENUS.has(w[0])) continue;
    if (PART[w[0]] !== undefined || PART[w[1]] !== undefined || PART[w[w.length - 1]] === undefined) continue;
    out.genera.add(w[0]);
    out.epithets.add(w[1]);
    const sp = out.species.get(w[0]) ?? new Set<string>();
    out.species.set(w[0], sp.add(w[1]));
    if (w.length > 3 && /^[A-Z]{3,}$/.test(w[2]) && PART[w[2]] === undefined) out.epithets.add(w[2]);
  }
  for (const n of all) {
    const w = n.split(' ');
    const prep = PART[w[w.length - 1]];
    const bi = prep === undefined ? '' : binomial(w, out);
    if (bi !== '') out.preparations.set(`${bi}|${prep}`, (out.preparations.get(`${bi}|${prep}`) ?? 0) + 1);
  }
  return out;
}

/** Letters and digits, words one space apart: its words (wordsOf) are its space-separated words in upper case. */
const PLAIN = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;

/** Upper-case words of a text, hyphens inside words removed ("Vinif-era"), brackets and slashes as spaces. */
function wordsOf(text: string): string[] {
  return text
    .toUpperCase()
    .replace(/(?<=[A-Z])-(?=[A-Z])/g, '')
    .split(/[^A-Z0-9-]+/)
    .filter((w) => w !== '');
}

/** The part words, "Water" first in the text aside (it names water: "Water (Aqua)"). */
function parts(words: readonly string[]): string {
  const s = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (i === 0 && w === 'WATER') continue;
    const p = PART[w];
    if (p !== undefined) s.add(p);
  }
  return [...s].sort().join(' ');
}

/** Genus, species and a variety known to the dictionary, from the first genus word: '' when none. */
function binomial(words: readonly string[], b: Botany): string {
  const i = words.findIndex((w) => b.genera.has(w));
  if (i < 0) return '';
  const out = [words[i]];
  for (let j = i + 1; j < words.length && out.length < 3; j++) {
    const w = words[j];
    if (IGNORED.has(w)) continue;
    if (PART[w] !== undefined || !/^[A-Z]{3,}$/.test(w) || (out.length === 2 && !b.epithets.has(w))) break;
    out.push(w);
  }
  return out.join(' ');
}

/** Equal, or one letter apart in a word of six letters or more (Timorense / Timoriense). */
function sameWords(a: string, b: string): boolean {
  if (a === b) return true;
  const x = a.split(' ');
  const y = b.split(' ');
  return x.length === y.length && x.every((w, i) => w === y[i] || (w.length >= 6 && oneEdit(w, y[i])));
}

function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/**
 * True when the label's plain text (brackets aside) names a polymer: it joins only a polymer,
 * never a monomer nor the colour it is dyed with ("… Copolymer Blue 1 Lake (Ci 42090)").
 */
export function namesPolymer(label: string): boolean {
  return POLYMER.test(outside(label));
}

/** The text without bracketed groups (one level is enough here). */
function outside(text: string): string {
  return text.replace(/[[(][^[\]()]*[\])]/g, ' ');
}

/**
 * True when `name` (a dictionary name, upper case) may stand for the printed label:
 * a ferment for a ferment; the same botanical (when the label's plain text names a
 * genus); the same part and preparation words as the label's plain text or the whole
 * label — for the whole label or one of its slash-separated parts ("A/B": one thing named twice).
 */
export function sameThing(label: string, name: string, b: Botany): boolean {
  if (FERMENT.test(label.toUpperCase()) && !FERMENT.test(name)) return false;
  // A copolymer or crosspolymer is not one of its monomers ("Styrene/Acrylate Copolymer" is not Styrene).
  if (namesPolymer(label) && !POLYMER.test(name)) return false;
  const slashParts = /[/\\]/.test(label) ? label.split(/[/\\]/).filter((p) => p.trim() !== '') : [];
  // "A/B/C" is one thing named in turn; four names or more are a list (a blend), not one thing,
  // and so are plants sharing the preparation printed last ("Acacia Decurrens/Jojoba/Sunflower Seed Wax").
  // The parts first: a name joined by a slash part is most often that part (and a part is shorter than the whole).
  const list = slashParts.length > 3 || (slashParts.length === 3 && plantsSharingPreparation(slashParts, b));
  return (!list && slashParts.some((p) => sameAsPart(p, name, b))) || sameAs(label, name, b);
}

/** At most this many answers of sameAsPart and plantFirst are remembered per dictionary. */
const MAX_PARTS_REMEMBERED = 20_000;
/** plantFirst's answers, per dictionary: a label's slash names share their parts ("Water/…/Eau"); sameAsPart's are below. */
const partAnswers = new WeakMap<Botany, Map<string, boolean>>();

/** An answer about a slash part, remembered under `key` (ask: the answer, made when not remembered). */
function rememberedPart(b: Botany, key: string, ask: () => boolean): boolean {
  let m = partAnswers.get(b);
  if (m === undefined) partAnswers.set(b, (m = new Map<string, boolean>()));
  let r = m.get(key);
  if (r === undefined) {
    if (m.size >= MAX_PARTS_REMEMBERED) m.clear();
    m.set(key, (r = ask()));
  }
  return r;
}

/** sameAs of a slash part, remembered (the part and the name give the answer; a name holds no line break). */
function sameAsPart(part: string, name: string, b: Botany): boolean {
  let answers = sameAnswers.get(b);
  if (answers === undefined) sameAnswers.set(b, (answers = { byName: new Map(), size: 0 }));
  let byPart = answers.byName.get(name);
  if (byPart === undefined) answers.byName.set(name, (byPart = new Map<string, boolean>()));
  let r = byPart.get(part);
  if (r === undefined) {
    if (answers.size >= MAX_PARTS_REMEMBERED) {
      answers.byName.clear();
      answers.byName.set(name, byPart);
      byPart.clear();
      answers.size = 0;
    }
    byPart.set(part, (r = sameAs(part, name, b)));
    answers.size++;
  }
  return r;
}

/** sameAsPart's answers, per dictionary, by the name then the part (no key made of both); at most MAX_PARTS_REMEMBERED. */
const sameAnswers = new WeakMap<Botany, { byName: Map<string, Map<string, boolean>>; size: number }>();

/**
 * Slash parts of which the first is a plant's Latin name with no part or preparation word
 * and the last prints one ("Acacia Decurrens/Jojoba/Sunflower Seed Wax": three plants' wax).
 */
function plantsSharingPreparation(slashParts: readonly string[], b: Botany): boolean {
  if (!plantFirst(slashParts[0], b)) return false;
  return parts(wordsOf(outside(slashParts[slashParts.length - 1]))) !== '';
}

/** A slash part that is a plant's Latin name with no part or preparation word (remembered: parts repeat). */
function plantFirst(part: string, b: Botany): boolean {
  return rememberedPart(b, part, () => {
    const first = wordsOf(outside(part));
    return first.length > 0 && b.genera.has(first[0]) && parts(first) === '';
  });
}

/** Several entries printed as one: a full stop between names ("Linalool. Citral") or "(and)" (a blend's parts). */
export function severalEntries(label: string): boolean {
  return /\(and\)/i.test(label) || /(?<!\b(?:denat|ext|no|vit|var|ssp|subsp|sp|st))\.\s+[A-Za-z]/i.test(label);
}

function sameAs(label: string, name: string, b: Botany): boolean {
  const nameWords = wordsOf(name);
  const plain = wordsOf(outside(label));
  const lb = binomial(plain, b);
  if (lb !== '' && !sameWords(lb, binomial(nameWords, b))) return false;
  const want = parts(nameWords);
  if (parts(plain) === want || parts(wordsOf(label)) === want) return true;
  // "Olea Europaea (Olive) Oil": the plant's only oil, its part not printed.
  const prep = PART[nameWords[nameWords.length - 1]];
  const have = parts(plain);
  return (
    lb !== '' &&
    have === prep &&
    want.split(' ').includes(prep) &&
    b.preparations.get(`${binomial(nameWords, b)}|${prep}`) === 1
  );
}

/**
 * True when a word dropped from a printed name names no part and no species ("Coconut" in
 * "Cocos Nucifera Coconut Oil"), and is no part word misspelt ("Friut", "Extact"): a misspelt
 * word dropped would leave a shorter (parent) record.
 */
export function commonWord(word: string, b: Botany): boolean {
  const w = word.toUpperCase();
  if (!/^[A-Z]+$/.test(w) || PART[w] !== undefined || b.epithets.has(w) || b.genera.has(w)) return false;
  return w.length < 4 || !Object.keys(PART).some((p) => p.length >= 4 && (oneEdit(w, p) || swapped(w, p)));
}

/** Two neighbouring letters swapped ("Friut" for "Fruit"). */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** True when the label's plain text begins with a genus of the dictionary (a botanical printed name). */
export function startsWithGenus(label: string, b: Botany): boolean {
  // A plain text (letters, digits, single spaces) has no bracket, hyphen or other separator: its first word is its text to the first space.
  if (PLAIN.test(label)) {
    const space = label.indexOf(' ');
    return b.genera.has((space < 0 ? label : label.slice(0, space)).toUpperCase());
  }
  const w = wordsOf(outside(label));
  return w.length > 0 && b.genera.has(w[0]);
}

/** True when the text is one word naming a part or preparation ("Water", "Butter"). */
export function isPartWord(text: string): boolean {
  return PART[text.trim().toUpperCase()] !== undefined;
}

/**
 * The label with its species word respelt, when the label begins with a genus whose
 * species the dictionary does not hold and exactly one of that genus's species is one
 * letter away ("Helianthus Annus" → Annuus, "Carthamus Tinctorium" → Tinctorius); else null.
 */
export function respeltSpecies(label: string, b: Botany): string | null {
  const m = /^\s*([A-Za-z]+)\s+([A-Za-z]{5,})\b/.exec(label);
  const known = m === null ? undefined : b.species.get(m[1].toUpperCase());
  if (m === null || known === undefined) return null;
  const w = m[2].toUpperCase();
  if (known.has(w)) return null;
  const near = [...known].filter((e) => e.length >= 5 && oneEdit(w, e));
  if (near.length !== 1) return null;
  const e = near[0];
  const at = m.index + m[0].length - m[2].length;
  return label.slice(0, at) + e.charAt(0) + e.slice(1).toLowerCase() + label.slice(at + m[2].length);
}
