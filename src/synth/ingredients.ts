// The synthetic ingredient dictionary: staples, free-from-tagged ingredients and
// invented INCI names up to the requested count. Guarantees: names are unique ignoring
// case; the null rates of rating, irritancy, comedogenicity, functions and category
// follow api-spec part 2; the same seed and count give the same dictionary.
import type { IngredientCategory, SourceIngredient } from '../source/records';
import { Rng } from './prng';
import { Choice } from './sampler';
import { STAPLES, TAGGED, type KnownIngredient, type Rating } from './known-ingredients';
import { inventTagged, inventUntagged, type Invented } from './ingredient-families';

/** Target shares of non-null values among all ingredients (api-spec 2.4). */
export const INGREDIENT_RATES = {
  rating: 0.025,
  irritancy: 0.01,
  comedogenicity: 0.01,
  functions: 0.49,
  category: 0.025,
};
export const MIN_INGREDIENTS = 200;

export interface DictIngredient {
  record: SourceIngredient;
  /** Typical label position 0..1 (-1: always first). */
  pos: number;
  /** Label texts: [canonical, upper-case canonical, ...variants]. */
  labels: string[];
}

export interface Dictionary {
  all: DictIngredient[];
  /** Indexes into `all` of the staples, with their product share and boosted product categories. */
  staples: Array<{ index: number; share: number; boost: string[] }>;
  /** Indexes into `all` per free-from tag, most popular first. */
  tagged: Record<IngredientCategory, number[]>;
  /** Indexes into `all` of untagged non-staple ingredients, most popular first. */
  pool: number[];
}

const TAG_SHARE = new Choice<IngredientCategory>([
  ['fragrance', 45],
  ['silicones', 30],
  ['sulfates', 12],
  ['drying_alcohol', 6],
  ['parabens', 7],
]);
const RATING = new Choice<Rating>([
  ['direct actives', 35],
  ['supporting actives', 45],
  ['sensitizers', 20],
]);
const EXTRA_FUNCTIONS = [
  'skin conditioning',
  'emollient',
  'humectant',
  'antioxidant',
  'masking',
  'viscosity controlling',
  'smoothing',
  'soothing',
  'refatting',
  'abrasive',
  'absorbent',
];

type Claim = (name: string) => boolean;
type InventedEntry = { inv: Invented; category: IngredientCategory | null };

export function buildDictionary(seed: string, count: number): Dictionary {
  if (!Number.isInteger(count) || count < MIN_INGREDIENTS)
    throw new Error(`ingredients must be an integer >= ${MIN_INGREDIENTS}, got ${count}`);
  const rng = new Rng(seed, 'ingredients');
  const taken = new Set<string>();
  const claim: Claim = (name) => {
    const key = name.toLowerCase();
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  };
  const tagTarget = Math.round(count * INGREDIENT_RATES.category);
  const known: KnownIngredient[] = [...STAPLES, ...TAGGED.slice(0, tagTarget)];
  for (const k of known) claim(k.name);
  const invented = inventTaggedEntries(rng, claim, tagTarget - (known.length - STAPLES.length));
  invented.push(...inventUntaggedEntries(rng, claim, count - known.length - invented.length));

  const dict: Dictionary = {
    all: [],
    staples: [],
    tagged: { fragrance: [], drying_alcohol: [], parabens: [], sulfates: [], silicones: [] },
    pool: [],
  };
  for (const k of known) addKnown(dict, rng, k);
  addInvented(dict, rng, invented, inventedOdds(count, known, invented.length));
  return dict;
}

/** `n` invented free-from-tagged names, each unique (a numbered silicone when the families run dry). */
function inventTaggedEntries(rng: Rng, claim: Claim, n: number): InventedEntry[] {
  const out: InventedEntry[] = [];
  let spare = 100;
  for (let i = 0; i < n; i++) {
    let got: Invented | null = null;
    let category = TAG_SHARE.draw(rng);
    for (let t = 0; t < 50 && !got; t++) {
      const inv = inventTagged(rng, category);
      if (claim(inv.name)) got = inv;
    }
    while (!got) {
      category = 'silicones';
      const inv: Invented = { name: `Polysilicone-${spare++}`, pos: 0.4, functions: ['film forming'] };
      if (claim(inv.name)) got = inv;
    }
    out.push({ inv: got, category });
  }
  return out;
}

/** `n` invented untagged names, each unique (a numbered oligopeptide when the families run dry). */
function inventUntaggedEntries(rng: Rng, claim: Claim, n: number): InventedEntry[] {
  const out: InventedEntry[] = [];
  let oligo = 1000;
  while (out.length < n) {
    let got: Invented | null = null;
    for (let t = 0; t < 30 && !got; t++) {
      const inv = inventUntagged(rng);
      if (claim(inv.name)) got = inv;
    }
    while (!got) {
      const inv: Invented = { name: `Oligopeptide-${oligo++}`, pos: 0.68, functions: ['skin conditioning'] };
      if (claim(inv.name)) got = inv;
    }
    out.push({ inv: got, category: null });
  }
  return out;
}

interface Odds {
  rating: number;
  irritancy: number;
  comedogenicity: number;
  functions: number;
}

/** Probabilities for invented entries so that totals meet the target shares. */
function inventedOdds(count: number, known: KnownIngredient[], invented: number): Odds {
  const share = (target: number, knownHits: number) => clamp((target * count - knownHits) / invented);
  return {
    rating: share(INGREDIENT_RATES.rating, known.filter((k) => k.rating).length),
    irritancy: share(INGREDIENT_RATES.irritancy, known.filter((k) => k.irritancy).length),
    comedogenicity: share(INGREDIENT_RATES.comedogenicity, known.filter((k) => k.comedogenicity).length),
    functions: share(INGREDIENT_RATES.functions, known.length),
  };
}

function add(dict: Dictionary, record: SourceIngredient, pos: number, variants: string[]): number {
  const index = dict.all.length;
  const labels = [record.name, record.name.toUpperCase(), ...variants];
  dict.all.push({ record, pos, labels });
  if (record.category) dict.tagged[record.category].push(index);
  return index;
}

function addKnown(dict: Dictionary, rng: Rng, k: KnownIngredient): void {
  const index = add(
    dict,
    {
      id: rng.uuid(),
      name: k.name,
      rating: k.rating ?? null,
      irritancy: k.irritancy ?? null,
      comedogenicity: k.comedogenicity ?? null,
      functions: k.functions,
      cas_number: k.cas ?? null,
      ec_number: k.ec ?? null,
      ph_eur_name: k.phEur ?? null,
      iupac_name: k.iupac ?? null,
      other_names: k.other ?? null,
      category: k.category ?? null,
    },
    k.pos,
    k.variants ?? [],
  );
  if (k.share !== undefined) dict.staples.push({ index, share: k.share, boost: k.boost ?? [] });
}

/** Adds the invented entries with drawn safety data; untagged ones also rank into the pool. */
function addInvented(dict: Dictionary, rng: Rng, invented: InventedEntry[], odds: Odds): void {
  const poolRank: Array<[number, number]> = [];
  for (const { inv, category } of invented) {
    const rating = rng.chance(odds.rating)
      ? category === 'fragrance' && rng.chance(0.7)
        ? 'sensitizers'
        : RATING.draw(rng)
      : null;
    const index = add(
      dict,
      {
        id: rng.uuid(),
        name: inv.name,
        rating,
        irritancy: rng.chance(odds.irritancy) ? scale(rng) : null,
        comedogenicity: rng.chance(odds.comedogenicity) ? scale(rng) : null,
        functions: rng.chance(odds.functions) ? functions(rng, inv.functions) : [],
        cas_number: rng.chance(0.35) ? casNumber(rng) : null,
        ec_number: rng.chance(0.25) ? ecNumber(rng) : null,
        ph_eur_name: inv.phEur && rng.chance(0.05) ? inv.phEur : null,
        iupac_name: inv.iupac && rng.chance(0.6) ? inv.iupac : null,
        other_names: inv.other && rng.chance(0.5) ? inv.other : null,
        category,
      },
      inv.pos,
      inv.variant ? [inv.variant] : [],
    );
    if (!category) poolRank.push([index, rng.next() * Math.pow(inv.rarity ?? 1, 3)]);
  }
  dict.pool = poolRank.sort((a, b) => a[1] - b[1]).map((p) => p[0]);
}

function clamp(p: number): number {
  return Math.min(1, Math.max(0, p));
}

/** `N` or `N-M` with 0 <= N < M <= 5, mostly low values. */
function scale(rng: Rng): string {
  const n = Math.min(4, Math.floor(rng.next() * rng.next() * 5));
  if (rng.chance(0.6)) return String(n);
  return `${n}-${rng.range(n + 1, Math.min(5, n + 2))}`;
}

function functions(rng: Rng, family: string[]): string[] {
  const out = new Set<string>();
  const n = rng.range(1, Math.min(3, family.length));
  while (out.size < n) out.add(rng.pick(family));
  if (rng.chance(0.15)) out.add(rng.pick(EXTRA_FUNCTIONS));
  return [...out];
}

/** A CAS Registry Number with a valid check digit. */
function casNumber(rng: Rng): string {
  const head = String(rng.range(50, 9_999_999));
  const mid = String(rng.int(100)).padStart(2, '0');
  const digits = head + mid;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.length - i) * (digits.charCodeAt(i) - 48);
  return `${head}-${mid}-${sum % 10}`;
}

/** An EC (EINECS/ELINCS) number with a valid check digit. */
function ecNumber(rng: Rng): string {
  for (;;) {
    const digits = String(rng.chance(0.85) ? rng.range(200_000, 310_999) : rng.range(400_000, 479_999));
    let sum = 0;
    for (let i = 0; i < 6; i++) sum += (i + 1) * (digits.charCodeAt(i) - 48);
    if (sum % 11 === 10) continue;
    return `${digits.slice(0, 3)}-${digits.slice(3)}-${sum % 11}`;
  }
}
