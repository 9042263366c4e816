// Joining printed ingredient names to canonical ingredients. The printed form first (the
// alias table, the exact name, the compact form of a name, then synonyms), then without
// "organic"-type qualifiers; several names printed as one ("(and)", a full stop, a name
// and its gloss then another name) join only as a split; a colour index, then a CAS
// number that one record carries, printed in the name decides; then each other form
// (US spellings; without stereo descriptors or parenthetical common names; the CI number
// or name inside parentheses; each part of "A/B/C", within one printed name); last, the printed name without an
// inline common name, or the Latin name in brackets with the part after it. A join other
// than by the printed form stands only when the record names the same thing (precision.ts).
// A group or blend printed as one name (isGroup) joins only as printed, never to a member.
// The other forms are made only when one could join (a word of the name begins a key, and
// without brackets or slashes its last word ends one; a colour index a key begins with; a misspelt word),
// and no step after the printed form runs when none of them could join (mayJoinOtherwise);
// two neighbours printed as one (joinPair) are looked up as printed only when that is all they could join by.
// Guarantees: deterministic; a join says how it was made (exact name, synonym, alias
// table, tolerant match; colour index, CAS number, split); the same rules serve the sample pipeline
// (targets are CosIng INCI names), the importer and the served catalogue (targets are
// ingredient ords, src/catalogue/).
import { Type, type Static } from '@sinclair/typebox';
import { fold } from '../shared/text';
import { SPECIES_RENAMES, compactKey } from './aliases';
import {
  botanyOf,
  commonWord,
  isPartWord,
  respeltSpecies,
  namesPolymer,
  sameThing,
  severalEntries,
  startsWithGenus,
  type Botany,
} from './precision';
import { NearWords, type NearKind } from './near-words';

/** How an entry joined: the printed text is a name, a synonym or in the alias table; a tolerant match (another form of it, or its compact form); or not at all. */
export const JoinHow = Type.Union([
  Type.Literal('exact'),
  Type.Literal('synonym'),
  Type.Literal('alias'),
  Type.Literal('tolerant'),
  Type.Literal('none'),
]);
export type JoinHow = Static<typeof JoinHow>;

/**
 * The rule that made a join, finer than JoinHow: `colour_index` (the CI number printed
 * in the name decided), `cas_number` (the CAS number printed in the name decided), `split` (one of two names printed without a separator), or the
 * JoinHow it also has.
 */
export const JoinRule = Type.Union([
  Type.Literal('exact'),
  Type.Literal('alias'),
  Type.Literal('synonym'),
  Type.Literal('colour_index'),
  Type.Literal('cas_number'),
  Type.Literal('tolerant'),
  Type.Literal('split'),
  Type.Literal('none'),
]);
export type JoinRule = Static<typeof JoinRule>;

export interface Join<T> {
  target: T;
  how: Exclude<JoinHow, 'none'>;
  /** Set when finer than `how` (colour_index, cas_number, split). */
  rule?: Exclude<JoinRule, 'none'>;
  /** The step of LabelJoiner.join (JOIN_STEPS) or 'split' that made it (the evaluation bench counts joins by it). */
  step?: JoinStepName | 'split';
}

/** One of two names printed without a separator, and its join. */
export interface SplitPart<T> {
  text: string;
  join: Join<T>;
}

/** The kinds of key a JoinIndex holds, one table each (a catalogue stores them by index in this list). */
export const LABEL_KEY_KINDS = ['exact', 'compact', 'alias', 'synonym', 'spelling'] as const;
export type LabelKeyKind = (typeof LABEL_KEY_KINDS)[number];

/** The lookup tables a joiner reads; keys are exactKey (exact) or compactKey (the others). */
export class JoinIndex<T> {
  readonly exact = new Map<string, T>();
  readonly compact = new Map<string, T>();
  readonly aliases = new Map<string, T>();
  /** null: a synonym claimed by two targets, never used. */
  readonly synonyms = new Map<string, T | null>();
  /** Whole printed names (exact key) and what they stand for: checked first, an alias table of one catalogue's own labels. */
  readonly spellings = new Map<string, T>();
  /**
   * The compact form of every key of the four tables above (exact keys' too): a form whose
   * compact key is not here is in none of them (lookup asks this first). Only grows, as the tables do.
   */
  readonly anyKey = new Set<string>();
  /**
   * The first three characters (threeAt) of the anyKey keys of three or more: a compact key of three
   * or more whose first three are not marked is not in anyKey, known without hashing it (hasAnyKey).
   */
  private readonly anyFirstThree = new Uint8Array(36 * 36 * 36);
  /** A key of anyKey whose first three characters threeAt cannot read (compact keys have none): anyFirstThree rules nothing out. */
  private anyUnread = false;
  /** CAS numbers of the records (their cas_number); null: a number two targets carry, never used. */
  readonly cas = new Map<string, T | null>();
  /** Each record's CAS numbers. */
  readonly casOf = new Map<T, string[]>();
  /**
   * Records with no CAS number, no EC number and no functions (a label-only ingredient of
   * the served catalogue): joined only by their name as printed, never by a tolerant form
   * or as a part of a split.
   */
  readonly weak = new Set<T>();
  /** First words of the names ("Sodium …", "PEG-6 …") and how many names of two words or more begin with each, made on first use. */
  private firstWords: Map<string, number> | null = null;
  /** Last words of the names ("… Salt") and how many names of two words or more end with each, made on first use. */
  private lastWords: Map<string, number> | null = null;

  /** Words of the names (A-Z only, 6 letters or more) and their one-letter deletions, for spelling tolerance. */
  private readonly spelling = new Spelling();
  /** Words of the names, for the corrections beyond one letter in a long word (near-words.ts). */
  readonly near = new NearWords<T>(this.weak);
  private botanyWords: Botany | null = null;
  /** The compact keys of names, aliases and synonyms, sorted (mayBegin), made on first use. */
  private keysSorted: SortedKeys | null = null;
  /** The spellings' text before ", " (exact keys), and how many spellings they were made of. */
  private spellingHeads: { heads: Set<string>; of: number } | null = null;
  /** The records of the names "CI nnnnn" by their number (colour indexes), made on first use. */
  private colourIndexNames: Map<string, T> | null = null;
  private names: Map<T, string> | null = null;

  /**
   * Makes the tables otherwise made on first use (spelling deletions, botany words, names),
   * so that a served catalogue's first tolerant join does not pay for them (77 ms on the
   * 200,000-product bench catalogue); the read model calls it at open.
   */
  prepare(): void {
    this.spelling.prepare();
    this.near.prepare();
    this.colourIndexName('');
    this.namesBeginningWith('');
    this.namesEndingWith('');
    this.sortedKeys();
    this.botany();
    this.nameTable();
  }

  /** How many names of two words or more end with this word (an exact key's word). */
  namesEndingWith(word: string): number {
    if (this.lastWords === null) {
      this.lastWords = new Map();
      for (const k of this.exact.keys()) {
        const at = k.lastIndexOf(' ');
        if (at > 0) this.lastWords.set(k.slice(at + 1), (this.lastWords.get(k.slice(at + 1)) ?? 0) + 1);
      }
    }
    return this.lastWords.get(word) ?? 0;
  }

  /** How many names of two words or more (a space or slash after the first) begin with this word (an exact key's word). */
  namesBeginningWith(word: string): number {
    if (this.firstWords === null) {
      this.firstWords = new Map();
      for (const k of this.exact.keys()) {
        const at = k.search(/[ /]/);
        if (at > 0) this.firstWords.set(k.slice(0, at), (this.firstWords.get(k.slice(0, at)) ?? 0) + 1);
      }
    }
    return this.firstWords.get(word) ?? 0;
  }

  /** True when a compact key of a name, alias or synonym begins with this text (a word of an exact key). */
  mayBegin(word: string): boolean {
    const k = this.sortedKeys();
    // Most words new to the catalogue begin no key with their first three characters.
    if (word.length >= 3 && k.firstThree !== null && k.firstThree[threeAt(word, 0)] === 0) return false;
    // Labels print the same words again and again: each word's answer is remembered.
    let b = k.begins.get(word);
    if (b === undefined) k.begins.set(word, (b = startsSome(k.keys, word)));
    if (k.begins.size > MAX_WORDS_REMEMBERED) k.begins.clear();
    return b;
  }

  /** True when a compact key of a name, alias or synonym ends with this text (a word of an exact key). */
  mayEnd(word: string): boolean {
    const k = this.sortedKeys();
    if (word.length >= 3 && k.lastThree !== null && k.lastThree[threeAt(word, word.length - 3)] === 0) return false;
    let e = k.ends.get(word);
    if (e === undefined) k.ends.set(word, (e = startsSome(k.reversed, reverse(word))));
    if (k.ends.size > MAX_WORDS_REMEMBERED) k.ends.clear();
    return e;
  }

  private sortedKeys(): SortedKeys {
    if (this.keysSorted === null) {
      const keys = new Set([...this.compact.keys(), ...this.aliases.keys(), ...this.synonyms.keys()]);
      for (const k of this.exact.keys()) keys.add(compactOfExact(k));
      this.keysSorted = {
        keys: [...keys].sort(),
        reversed: [...keys].map(reverse).sort(),
        firstThree: threes(keys, (k) => threeAt(k, 0)),
        lastThree: threes(keys, (k) => threeAt(k, k.length - 3)),
        begins: new Map(),
        ends: new Map(),
      };
    }
    return this.keysSorted;
  }

  /** True when a spelling (an exact key) begins with this exact key and ", ". */
  spellingBegins(key: string): boolean {
    // Made again when spellings were added (the build adds them after joining: label-keys.ts).
    if (this.spellingHeads === null || this.spellingHeads.of !== this.spellings.size) {
      const heads = new Set<string>();
      for (const k of this.spellings.keys()) if (k.includes(', ')) heads.add(k.slice(0, k.indexOf(', ')));
      this.spellingHeads = { heads, of: this.spellings.size };
    }
    return this.spellingHeads.heads.has(key);
  }

  /** The record of the name "CI n" (n: five digits), looked up by its number. */
  colourIndexName(n: string): T | undefined {
    if (this.colourIndexNames === null) {
      this.colourIndexNames = new Map();
      for (const [k, t] of this.exact) if (/^CI \d{5}$/.test(k)) this.colourIndexNames.set(k.slice(3), t);
    }
    return this.colourIndexNames.get(n);
  }

  /** Genus and epithet words of the names (src/labels/precision.ts), made on first use. */
  botany(): Botany {
    return (this.botanyWords ??= botanyOf(this.exact.keys()));
  }

  /** The name (exact key) of a target: its first name. */
  nameOf(target: T): string | undefined {
    return this.nameTable().get(target);
  }

  /** Each target's first name, made on first use. */
  private nameTable(): Map<T, string> {
    if (this.names === null) {
      this.names = new Map();
      for (const [k, t] of this.exact) if (!this.names.has(t)) this.names.set(t, k);
    }
    return this.names;
  }

  /** A canonical name; the first target given a key keeps it. */
  addName(name: string, target: T): void {
    const e = exactKey(name);
    this.keysSorted = null;
    this.colourIndexNames = null;
    this.firstWords = null;
    this.lastWords = null;
    if (!this.exact.has(e)) this.exact.set(e, target);
    this.addAnyKey(compactOfExact(e));
    this.spelling.addWords(e);
    this.near.addWords(e, target);
    const c = compactKey(name);
    if (c !== '' && !this.compact.has(c)) this.compact.set(c, target);
    this.addAnyKey(c);
  }

  private addAnyKey(c: string): void {
    this.anyKey.add(c);
    if (c.length < 3) return;
    const n = threeAt(c, 0);
    if (n < 0) this.anyUnread = true;
    else this.anyFirstThree[n] = 1;
  }

  /** anyKey.has(c), most compact keys new to the catalogue ruled out by their first three characters. */
  hasAnyKey(c: string): boolean {
    if (c.length >= 3 && !this.anyUnread) {
      const n = threeAt(c, 0);
      if (n >= 0 && this.anyFirstThree[n] === 0) return false;
    }
    return this.anyKey.has(c);
  }

  /** Puts back one stored key of the kind named (the read model loads a catalogue's label_keys). */
  restore(kind: LabelKeyKind, key: string, target: T): void {
    if (kind !== 'spelling') this.keysSorted = null;
    if (kind !== 'spelling') this.addAnyKey(kind === 'exact' ? compactOfExact(key) : key);
    if (kind === 'exact') {
      this.colourIndexNames = null;
      this.firstWords = null;
      this.lastWords = null;
      this.exact.set(key, target);
      this.spelling.addWords(key);
      this.near.addWords(key, target);
    } else if (kind === 'compact') this.compact.set(key, target);
    else if (kind === 'alias') this.aliases.set(key, target);
    else if (kind === 'synonym') this.synonyms.set(key, target);
    else this.spellings.set(key, target);
  }

  /**
   * The exact key with each unknown word replaced by a known word it is a misspelling of (one
   * letter missing, extra or changed, or two neighbours swapped), every combination (at most
   * MAX_RESPELLINGS); null when no word has one.
   */
  respellings(key: string): string[] | null {
    return this.spelling.respellings(key);
  }

  /** The CAS numbers a record's cas_number holds ("513-85-9, 5341-95-7"); a number two targets carry is dropped. */
  addCasNumbers(text: string | null, target: T): void {
    if (text === null) return;
    const all = casNumbers(text);
    if (all.length > 0) this.casOf.set(target, [...(this.casOf.get(target) ?? []), ...all]);
    for (const n of all) {
      const prev = this.cas.get(n);
      if (prev === undefined) this.cas.set(n, target);
      else if (prev !== target) this.cas.set(n, null);
    }
  }

  /** An alias; the first target given a key keeps it. */
  addAlias(text: string, target: T): void {
    const c = compactKey(text);
    this.keysSorted = null;
    if (c !== '' && !this.aliases.has(c)) this.aliases.set(c, target);
    this.addAnyKey(c);
  }

  /** A synonym; ignored when it is a name or alias, dropped when two targets claim it. */
  addSynonym(text: string, target: T): void {
    const c = compactKey(text);
    this.keysSorted = null;
    if (c === '' || this.compact.has(c) || this.aliases.has(c)) return;
    const prev = this.synonyms.get(c);
    if (prev === undefined) this.synonyms.set(c, target);
    else if (prev !== target) this.synonyms.set(c, null);
    this.addAnyKey(c);
  }
}

/** An enzyme printed after its source, one word each ("Yeast Lipase", "Papaya Protease"): one name, not two. */
function enzymeOfSource(a: string, b: string): boolean {
  return /^[A-Za-z]+$/.test(a) && /^[A-Za-z]+ase$/i.test(b);
}

/** A word that begins this many names or more is a prefix ("Sodium", "PEG-6", "Hydrogenated"), not a name to split at. */
const PREFIX_NAMES = 20;

/** Printed names longer than this join to nothing: longer than any CosIng INCI name (1,991 characters). */
export const MAX_NAME_LENGTH = 2_000;

/** Printed names longer than this join only as printed (exact name, alias or synonym). */
export const MAX_TOLERANT_LENGTH = 150;

/**
 * The steps of LabelJoiner.join in the order they are tried; a join reports its step
 * (Join.step; the API's join_rule is its JoinRule: rule ?? how):
 * spelling (a catalogue's own label spellings: alias); alias, exact, compact (tolerant),
 * synonym: the printed form; several_entries, group, too_long, name_after_gloss: the name
 * joins nothing (several names: split, join-entries.ts; a group or blend is one entry, never one
 * of its members); qualifier ("Organic …"),
 * colour_index, cas_number, other_form (formsOf), common_name (an inline common name
 * dropped), latin_inside, respelt (misspelt words), species (a species misspelt), respelt_two (a long word
 * two letters away), respelt_short (a short word one letter away), mono_prefix (the mono- INCI leaves out;
 * these three: near-words.ts): tolerant.
 */
export const JOIN_STEPS = [
  'spelling',
  'alias',
  'exact',
  'compact',
  'synonym',
  'several_entries',
  'group',
  'too_long',
  'name_after_gloss',
  'qualifier',
  'colour_index',
  'cas_number',
  'other_form',
  'common_name',
  'latin_inside',
  'respelt',
  'species',
  'respelt_two',
  'respelt_short',
  'mono_prefix',
] as const;
export type JoinStepName = (typeof JOIN_STEPS)[number];

/** The steps that look the printed form up (the others run only when one of them could join). */
const PRINTED_STEPS: ReadonlySet<JoinStepName> = new Set(['spelling', 'alias', 'exact', 'compact', 'synonym']);

/** The steps that look the printed form up by a key of its whole text (a name with an amount as printed: run). */
const WHOLE_KEY_STEPS: ReadonlySet<JoinStepName> = new Set(['spelling', 'alias', 'exact']);

/** The steps of near-words.ts (LabelJoiner.nearRespelled). */
const NEAR_STEPS: ReadonlySet<JoinStepName> = new Set(['respelt_two', 'respelt_short', 'mono_prefix']);

/** A step's answer: the name joins nothing, try no further step. */
const NO_JOIN = Symbol('no join');

/** What the steps of one join share: the printed name, its base and first forms, and what is made once. */
interface JoinState {
  label: string;
  base: string;
  first: string;
  firstKey: string;
  /** The printed form's look-up (undefined: not made yet). */
  printed: Join<unknown> | null | undefined;
  /** The other forms (undefined: not made yet). */
  forms: string[] | undefined;
  /** colourIndexes(label) (undefined: not made yet). */
  cis?: string[];
  byForm?: boolean;
  /** The US form is the base form (set with forms). */
  usSame?: boolean;
  /** mayDropCommonName(label) (undefined: not asked yet). */
  common?: boolean;
  /** casNumber(label) (undefined: not made yet). */
  cas?: Join<unknown> | null;
  /** respeltSpecies(label) (undefined: not made yet). */
  species?: string | null;
}

/**
 * What join notes of a name it stopped before the steps after the printed form
 * (mayJoinOtherwise), for joinPair: 0 (not stopped there, or not a plain name), else
 * STOPPED, with BEGINS when a word of it begins a key and ENDS when its last word ends one.
 */
export interface JoinNote {
  stop?: number;
  /** For joinPair, made when first asked (pairNote): 0 (not yet), else PAIR_MADE with QUIET and PAIR_HEAD. */
  pair?: number;
}
const STOPPED = 1;
const BEGINS = 2;
const ENDS = 4;
/** A key begins with the name's compact form (a name printed with a comma inside may be a key). */
const HEAD = 8;
const PAIR_MADE = 1;
/** A plain name that gives a pair "A, B" it is part of nothing a step after the printed form could join by (pairNoteOf). */
const QUIET = 2;
/** HEAD, for any plain name. */
const PAIR_HEAD = 4;

/** A colour index printed alone, as CosIng names it (printedOnly). */
const COLOUR_INDEX_ALONE = /^CI \d{5}$/;

/** Letters and digits, words one space apart: its base, first and US forms are itself, its exact key its upper case. */
const PLAIN = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;

/** A declared amount printed with a name: "(10%)", "16%", "0,5 %", "50mg/g", with brackets that hold nothing else. */
const DECLARED_AMOUNT =
  /\s*\(\s*\d+(?:[.,]\d+)?\s*(?:%|mg\s*\/\s*g)\s*\)|\s*(?<![\w.,])\d+(?:[.,]\d+)?\s*(?:%|mg\s*\/\s*g\b)/gi;

/**
 * The name without the amounts declared with it (the entry's concentration, parser.ts), so an
 * amount never makes a join tolerant; the text itself when it prints none or is nothing else.
 */
function withoutAmount(label: string): string {
  if (!label.includes('%') && !(label.includes('/') && /mg\s*\/\s*g/i.test(label))) return label;
  const rest = label.replace(DECLARED_AMOUNT, '').trim();
  return rest === '' ? label : rest;
}

export class LabelJoiner<T> {
  /**
   * The named steps of `join`, in order (JOIN_STEPS): each looks at the printed name and
   * gives a join (the name is joined), NO_JOIN (the name joins nothing: no later step is
   * tried) or null (the next step is tried). A step switched off (`without`) is skipped.
   */
  private readonly steps: readonly { name: JoinStepName; run: (s: JoinState) => Join<T> | null | typeof NO_JOIN }[];
  /** Where the steps after the printed form begin: tried only when one of them could join (mayJoinOtherwise). */
  private readonly gate: number;
  /** Whether the too_long step is on (a name longer than MAX_TOLERANT_LENGTH then joins only as printed). */
  private readonly tooLong: boolean;
  /** Whether every step is on (a colour index printed alone then joins only as printed: printedOnly). */
  private readonly allSteps: boolean;
  /** Where the steps that look the printed form up by a whole key (spelling, alias, exact) end. */
  private readonly printedWhole: number;
  /** Whether a step of near-words.ts is on (the gate then asks for a word they may correct). */
  private readonly nearSteps: boolean;

  constructor(
    readonly index: JoinIndex<T>,
    options: { without?: Iterable<JoinStepName> } = {},
  ) {
    const off = new Set(options.without ?? []);
    const all: Record<JoinStepName, (s: JoinState) => Join<T> | null | typeof NO_JOIN> = {
      // The printed form first: most names join as printed, and the other forms cost more to make.
      spelling: (s) => {
        const t = s.first === '' ? undefined : this.index.spellings.get(s.firstKey);
        return t === undefined ? null : { target: t, how: 'alias' };
      },
      alias: (s) => this.printed(s, 'alias'),
      exact: (s) => this.printed(s, 'exact'),
      compact: (s) => this.printed(s, 'compact'),
      synonym: (s) => {
        const hit = this.printed(s, 'synonym');
        return hit !== null && this.same(s.label, hit) ? hit : null;
      },
      // Several entries printed as one join only as two (split, join-entries.ts), never to one of them.
      several_entries: (s) => (severalEntries(s.label) ? NO_JOIN : null),
      // A group or a blend is one entry: joined to a group record as printed (above) or to nothing, never to a member.
      group: (s) => (this.isGroup(s.label, this.cisOf(s)) ? NO_JOIN : null),
      // Longer than any name but a few ferment filtrates: several names run together, which
      // other forms (a CI number inside, a part of A/B) would join to one of them.
      too_long: (s) => (s.label.length > MAX_TOLERANT_LENGTH ? NO_JOIN : null),
      // "Parfum (Fragrance) D-Limonene": a name and its gloss, then another name — two entries.
      name_after_gloss: (s) => (this.nameAfterGloss(s.label) ? NO_JOIN : null),
      // Printed with a qualifier ("Organic Argan Oil"): the rest as printed.
      qualifier: (s) => {
        const unqualified = withoutQualifier(s.first);
        if (!this.byForm(s) || unqualified === s.first || unqualified === '') return null;
        const q = this.lookup(unqualified, false);
        return q !== null && (q.how !== 'synonym' || this.same(unqualified, q)) ? q : null;
      },
      // A colour index printed in the name decides ("Iron Oxide (CI 77499)").
      colour_index: (s) => (namesPolymer(s.label) ? null : this.colourIndex(this.cisOf(s))),
      // So does a CAS number that exactly one record carries ("Tocopherol (CAS 59-02-9)").
      cas_number: (s) => this.casOf(s),
      other_form: (s) => {
        const all = this.formsOf(s);
        for (let i = 0; i < all.length; i++) {
          if (i === 0 && all[0] === s.first) continue;
          const found = this.lookup(all[i], i === 0);
          if (found !== null && this.same(s.label, found)) return found;
        }
        return null;
      },
      common_name: (s) => (this.commonOf(s) ? this.withoutCommonName(s.label) : null),
      latin_inside: (s) => this.latinInside(s.label),
      respelt: (s) => this.respelled(this.formsOf(s)),
      species: (s) => this.respeciated(this.speciesOf(s)),
      respelt_two: (s) => this.nearRespelled(s, 'respelt_two'),
      respelt_short: (s) => this.nearRespelled(s, 'respelt_short'),
      mono_prefix: (s) => this.nearRespelled(s, 'mono_prefix'),
    };
    this.steps = JOIN_STEPS.filter((n) => !off.has(n)).map((name) => ({ name, run: all[name] }));
    const gate = this.steps.findIndex((st) => !PRINTED_STEPS.has(st.name));
    this.gate = gate < 0 ? this.steps.length : gate;
    this.tooLong = !off.has('too_long');
    this.allSteps = this.steps.length === JOIN_STEPS.length;
    this.nearSteps = this.steps.some((st) => NEAR_STEPS.has(st.name));
    const whole = this.steps.findIndex((st) => !WHOLE_KEY_STEPS.has(st.name));
    this.printedWhole = whole < 0 ? this.steps.length : whole;
  }

  /**
   * The target a printed name stands for and how it was found (and by which step), or null;
   * `note`: what joinPair needs to know of a name that joins nothing (JoinNote).
   */
  join(label: string, note?: JoinNote): Join<T> | null {
    return this.run(label, this.steps.length, note);
  }

  /**
   * join(`${a}, ${b}`) for two neighbouring names that joined nothing (join-entries.ts), given
   * their notes. When both are plain names that join stopped at the gate (na, nb), the pair is
   * plain too and no step after the printed form can join it, unless a word of `a` begins a
   * key and the last word of `b` ends one: every fact mayJoinOtherwise asks of the pair (its
   * colour indexes, CAS numbers, respelt words, words beginning keys; its first two words, a
   * comma) is one of `a`'s or `b`'s, its last word is `b`'s, and nothing of `a` and `b` joined.
   * So only the printed form is looked up; so too when both are plain names that print nothing a
   * later step could make a form of the pair from (QUIET, pairNoteOf), whatever their own joins ran.
   */
  joinPair(a: string, b: string, na: JoinNote, nb: JoinNote, both = `${a}, ${b}`): Join<T> | null {
    if (this.pairByAnyStep(a, b, na, nb)) return this.join(both);
    return this.pairMayJoin(a, b, na, nb) ? this.run(both, this.gate) : null;
  }

  /**
   * False when joinPair(a, b, na, nb) is null, known from the notes alone: the pair is looked
   * up as printed only, and its exact and compact keys begin with a's (a key begins with it,
   * HEAD, or a spelling with it and a comma).
   */
  pairMayJoin(a: string, b: string, na: JoinNote, nb: JoinNote): boolean {
    if (this.pairByAnyStep(a, b, na, nb)) return true;
    const head = (na.stop ?? 0) !== 0 ? ((na.stop ?? 0) & HEAD) !== 0 : (this.pairNote(a, na) & PAIR_HEAD) !== 0;
    return head || this.index.spellingBegins(a.toUpperCase());
  }

  /**
   * Whether the pair of two names with these notes must go through every step (joinPair): not
   * when both stopped at the gate (unless a word of a begins a key and b's last word ends one), nor
   * when both are QUIET (pairNoteOf).
   */
  private pairByAnyStep(a: string, b: string, na: JoinNote, nb: JoinNote): boolean {
    const x = na.stop ?? 0;
    const y = nb.stop ?? 0;
    if (x !== 0 && y !== 0 && ((x & BEGINS) === 0 || (y & ENDS) === 0)) return false;
    return (this.pairNote(a, na) & this.pairNote(b, nb) & QUIET) === 0;
  }

  /** JoinNote.pair of a name, made once. */
  private pairNote(name: string, n: JoinNote): number {
    if (n.pair === undefined || n.pair === 0) n.pair = this.pairNoteOf(name);
    return n.pair;
  }

  /**
   * PAIR_MADE, with PAIR_HEAD when a key begins with the compact form of this plain name, and
   * QUIET when it is plain and, printed first or second in a pair "A, B" of two plain names,
   * gives the pair nothing a step after the printed form could join by. "A, B" then is "A" and
   * "B" with ", " between: no bracket, slash, hyphen, full stop or "%" (several_entries,
   * name_after_gloss, cas_number, latin_inside, a bracketed or slash form: nothing), a comma
   * (common_name: nothing); its US form, qualifier, stereo and origin forms and colour indexes
   * are made of what a QUIET name does not print (loudInPair), so its only form is itself
   * (other_form, qualifier, colour_index: nothing); its respelt words, first two words
   * (species) and unknown words (near-words.ts, a word before the comma not whole) are A's
   * and B's, and a QUIET name has none that respell.
   */
  private pairNoteOf(name: string): number {
    if (!PLAIN.test(name)) return PAIR_MADE;
    const key = name.toUpperCase();
    const head = this.index.mayBegin(key.replaceAll(' ', '')) ? PAIR_HEAD : 0;
    const quiet =
      !loudInPair(name) &&
      this.index.respellings(key) === null &&
      respeltSpecies(name, this.index.botany()) === null &&
      !(this.nearSteps && this.index.near.near(key) !== null);
    return PAIR_MADE | head | (quiet ? QUIET : 0);
  }

  /** The steps before `upto` (steps.length: all; the gate: the printed form's) for a printed name. */
  private run(printed: string, upto: number, note?: JoinNote): Join<T> | null {
    const name = withoutAmount(printed);
    if (name === printed) return this.runForm(printed, upto, note);
    // A declared amount: the printed forms as printed (a catalogue's own spelling may print it),
    // then the name without it, judged as if printed so ("Niacinamide (10%)" is exact).
    // As printed, only a whole key may join: the amount's digits must not make a compact key ("Polyurethane 60%"
    // is not Polyurethane-60).
    return this.runForm(printed, Math.min(upto, this.printedWhole)) ?? this.runForm(name, upto, note);
  }

  /** The steps before `upto` for one form of the name (run). */
  private runForm(label: string, upto: number, note?: JoinNote): Join<T> | null {
    if (label.length > MAX_NAME_LENGTH) return null;
    const plain = PLAIN.test(label);
    const base = plain ? label : baseForm(label);
    const first = plain ? label : base.replace(/\s+/g, ' ').trim(); // firstForm(label)
    const firstKey = plain ? label.toUpperCase() : exactKey(first);
    const s: JoinState = { label, base, first, firstKey, printed: undefined, forms: undefined };
    for (let i = 0; i < upto; i++) {
      // Most names that join nothing stop here, before the costlier steps (a name new to the catalogue).
      if (i === this.gate && (this.printedOnly(s) || !this.mayJoinOtherwise(s))) {
        if (note !== undefined) note.stop = plain ? this.stopOf(s) : 0;
        return null;
      }
      const step = this.steps[i];
      const j = step.run(s);
      if (j === NO_JOIN) return null;
      if (j !== null) {
        j.step = step.name;
        return j;
      }
    }
    return null;
  }

  /**
   * False when no step after the printed form can join the name: those that join nothing
   * (several_entries, group, too_long, name_after_gloss) only stop the others, and each of
   * the others needs what is checked here — a form that may join (qualifier, other_form,
   * respelt: mayJoinByForm), a colour index or CAS number of a record, a botanical name
   * of three words or more (common_name), a Latin name in brackets (latin_inside), a
   * genus then a species word (species), one unknown word near known ones (near-words.ts).
   */
  private mayJoinOtherwise(s: JoinState): boolean {
    const label = s.label;
    if (this.tooLong && label.length > MAX_TOLERANT_LENGTH) return false;
    return (
      this.colourIndex(this.cisOf(s)) !== null ||
      this.casOf(s) !== null ||
      this.byForm(s) ||
      this.commonOf(s) ||
      (label.includes('(') && LATIN_INSIDE.test(label)) ||
      this.speciesOf(s) !== null ||
      (this.nearSteps && this.index.near.near(s.firstKey) !== null)
    );
  }

  /**
   * True for a colour index printed alone ("CI 10000"): it joins as printed or not at all.
   * Its colour index record would be its exact name (the exact step found none); its only
   * form is itself (no qualifier, stereo descriptor, brackets, slash or US spelling), it has
   * no word to respell, no CAS number, and two words (no common name, no species).
   */
  private printedOnly(s: JoinState): boolean {
    if (!this.allSteps || !COLOUR_INDEX_ALONE.test(s.label)) return false;
    s.usSame = true;
    return true;
  }

  /** JoinNote.stop of a plain name the gate stopped. */
  private stopOf(s: JoinState): number {
    if (s.usSame !== true) return 0;
    const key = s.firstKey;
    // One word (most names new to the catalogue): itself is its words, its last word and their join.
    if (!key.includes(' ')) {
      const b = this.index.mayBegin(key);
      return STOPPED | (b ? BEGINS | HEAD : 0) | (this.index.mayEnd(key) ? ENDS : 0);
    }
    const words = key.split(' ');
    const begins = words.some((w) => this.index.mayBegin(w));
    const ends = this.index.mayEnd(words[words.length - 1]);
    return STOPPED | (begins ? BEGINS : 0) | (ends ? ENDS : 0) | (this.index.mayBegin(words.join('')) ? HEAD : 0);
  }

  /** The printed form's look-up (aliases, exact name, compact name, synonyms), made once; the join when it is of this kind. */
  private printed(s: JoinState, kind: 'alias' | 'exact' | 'compact' | 'synonym'): Join<T> | null {
    if (s.printed === undefined) s.printed = s.first === '' ? null : this.lookup(s.first, true, s.firstKey);
    const hit = s.printed as Join<T> | null;
    if (hit === null) return null;
    const k = hit.how === 'tolerant' ? 'compact' : hit.how;
    return k === kind ? { ...hit } : null;
  }

  /** The other forms of the name (formsOf), [] when none could join (mayJoinByForm); made once. */
  private formsOf(s: JoinState): string[] {
    if (s.forms === undefined) {
      const us = usForm(s.base);
      // Most names that join nothing fail here, before their forms are made (mayJoinByForm).
      const cis = us === s.label ? this.cisOf(s) : colourIndexes(us);
      const byForm = this.mayJoinByForm(s.firstKey, s.base === us ? null : exactKey(us), us, cis);
      s.forms = byForm ? formsOf(s.base, us, this.slashPartOk) : [];
      s.byForm = byForm;
      s.usSame = s.base === us;
    }
    return s.forms;
  }

  /** Whether "A/B" may be read as its part p (formsOf): a first part that is a whole name, or a part beginning with a genus. */
  private readonly slashPartOk = (p: string, first: boolean): boolean =>
    (first && this.wholeName(p) !== null) || this.genusFirst(p);

  private byForm(s: JoinState): boolean {
    this.formsOf(s);
    return s.byForm === true;
  }

  /**
   * False when no form of the label (forms) can join and none respells (respelled): each
   * form is the base or US form with whole words dropped or split off, so its first word
   * (the start of its compact key) is a word of one of them, and its misspelt words too;
   * the US form has the base form's brackets and slashes.
   */
  private mayJoinByForm(baseKey: string, usKey: string | null, us: string, cis: readonly string[]): boolean {
    // A colour index adds the form "CI n", which joins only when a key begins with its compact form (not "CI 10000").
    if (cis.some((n) => this.index.mayBegin(`CI${n}`))) return true;
    // The base form's key is firstKey: its words and misspelt words are the base form's.
    const begins = this.aWordBegins(baseKey) || (usKey !== null && this.aWordBegins(usKey));
    // Without brackets or slashes, each form is the base or US form less words at its start: its last word is theirs.
    if (
      begins &&
      (GROUPED.test(us) ||
        this.index.mayEnd(lastWord(baseKey)) ||
        (usKey !== null && this.index.mayEnd(lastWord(usKey))))
    )
      return true;
    return this.index.respellings(baseKey) !== null || (usKey !== null && this.index.respellings(usKey) !== null);
  }

  /** True when a word (a run of A-Z, 0-9) of the exact key begins a key (JoinIndex.mayBegin). */
  private aWordBegins(key: string): boolean {
    for (let i = 0; i < key.length;) {
      if (!wordChar(key.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      while (i < key.length && wordChar(key.charCodeAt(i))) i++;
      if (this.index.mayBegin(start === 0 && i === key.length ? key : key.slice(start, i))) return true;
    }
    return false;
  }

  /** The label with its species word respelt (respeltSpecies, given), joined by the rules above; a tolerant join. */
  private respeciated(r: string | null): Join<T> | null {
    const j = r === null ? null : this.join(r);
    return j === null ? null : { ...j, how: 'tolerant' };
  }

  /**
   * A common name, the Latin name in brackets, then the part ("Orange (Citrus Aurantium
   * Dulcis) Peel Oil"): the Latin name and the part, when the brackets begin with a genus,
   * the common name names no part, and the result is exactly a name naming the same thing.
   */
  private latinInside(label: string): Join<T> | null {
    const m = LATIN_INSIDE.exec(label);
    if (m === null || m[1].split(/[\s-]+/).some(isPartWord) || m[2].split(/\s+/).some(isPartWord)) return null;
    const b = this.index.botany();
    // The brackets hold a Latin name (a genus and a species); the name before is one common word or not botanical.
    const before = m[1].trim().split(/\s+/);
    if (!startsWithGenus(m[2], b) || m[2].trim().split(/\s+/).length < 2) return null;
    if (before.length > 1 && startsWithGenus(m[1], b)) return null;
    const text = renameSpecies(`${m[2]} ${m[3]}`);
    const e = this.index.exact.get(exactKey(text));
    return e !== undefined && this.same(text, { target: e, how: 'tolerant' }) ? { target: e, how: 'tolerant' } : null;
  }

  /**
   * Two names printed without a separator ("Glycerin Butylene Glycol", "Water (and) Aloe …",
   * "Linalool. Citral"): both parts, each a name as printed (brackets aside), or null.
   * `atSpaces`: try every space, not only "(and)" and full stops.
   */
  split(label: string, atSpaces = true): [SplitPart<T>, SplitPart<T>] | null {
    if (label.length > MAX_TOLERANT_LENGTH) return null;
    for (const m of label.matchAll(atSpaces ? /\s*\(and\)\s*|\.\s+|\s+/gi : /\s*\(and\)\s*|\.\s+/gi)) {
      const a = label.slice(0, m.index).trim();
      const b = label.slice(m.index + m[0].length).trim();
      if (a === '' || b === '') continue;
      // At "(and)", a full stop or after a closing bracket, a colour printed with its index may be a part.
      const marked = m[0].trim() !== '' || /[)\]]$/.test(a);
      // The first part first: most are no name (and a label's names share their first parts, remembered: label-analysis.ts).
      const ja = this.strict(a, marked);
      // Not inside "A / B" (one thing named twice), not before a gloss "(…)" or a lone part word ("… Leaf" + "Water").
      if (
        ja === null ||
        /^[[(/\\]/.test(b) ||
        /[/\\]$/.test(a) ||
        isPartWord(b) ||
        this.loneGenus(a) ||
        enzymeOfSource(a, b)
      )
        continue;
      // The second part next: most are no name, and then the checks below cannot change the answer.
      const jb = this.strict(b, marked);
      if (jb === null) continue;
      // The whole is one name: the first part and the next word begin a name ("Sodium" + "Hydroxide …").
      if (this.wholeBegins(a, b)) continue;
      // A word that begins many names ("PEG-6", "Sodium") then another name of a record: one name misprinted.
      if (jb.how === 'synonym' && !/\s/.test(a) && this.index.namesBeginningWith(exactKey(a)) >= PREFIX_NAMES) continue;
      // One word, another name of a record (an alias or synonym), that ends names ("… 230" + "Salt"): one name.
      if (jb.how !== 'exact' && !/\s/.test(b) && this.index.namesEndingWith(exactKey(b)) >= 3) continue;
      if (ja.target !== jb.target)
        return [
          { text: a, join: { ...ja, rule: 'split', step: 'split' } },
          { text: b, join: { ...jb, rule: 'split', step: 'split' } },
        ];
    }
    return null;
  }

  /** True when the first part and the first word of the second begin a name, alias or synonym (one name, not two). */
  private wholeBegins(a: string, b: string): boolean {
    if (/[)\]]$/.test(a)) return false;
    const next = /^[^\s/\\]+/.exec(b)?.[0] ?? '';
    const key = exactKey(`${a} ${next}`);
    const k = compactOfExact(key);
    return k !== '' && !this.index.exact.has(key) && this.index.mayBegin(k) && /^[A-Za-z]/.test(next);
  }

  /** One word that is a genus ("Helianthus" + "Annuus Seed Oil" is one name, not two). */
  private loneGenus(text: string): boolean {
    return !/\s/.test(text) && this.index.botany().genera.has(text.toUpperCase());
  }

  /**
   * A group or a blend printed as one name: several colour indexes ("Iron Oxides (CI 77491,
   * CI 77492)", "Ci 77491/77492"); a blend or complex ("Extract Blend […]", "Complex of …");
   * names joined by "/" of which two are whole names of records with different CAS numbers
   * ("Cyclopentasiloxane/Cyclohexasiloxane"; "Honey/Mel", one substance named twice, is one thing);
   * or a name whose bracket lists a more specific record of another substance (listsOthers).
   */
  private isGroup(label: string, cis = colourIndexes(label)): boolean {
    if ((cis.length > 1 && new Set(cis).size > 1) || CI_SLASH_CI.test(label)) return true;
    if (BLEND.test(label)) return true;
    const plain = withoutGroups(label);
    if (hasOpeningBracket(label) && this.listsOthers(plain, label)) return true;
    if (!/[/\\]/.test(plain) || cis.length > 0) return false;
    const parts = plain.split(/[/\\]/);
    const joined: Join<T>[] = [];
    for (const p of parts) {
      const j = this.wholeName(p);
      if (j !== null && joined.every((o) => this.otherSubstance(o.target, j.target))) joined.push(j);
    }
    // A plant named in two languages or by two of its records ("Candelilla Cera / Candelilla Wax"): one thing.
    // Asked only of two whole names of different substances (most slash names, "Water/…/Eau", are one thing named twice).
    return joined.length > 1 && !parts.some((p) => this.genusFirst(p));
  }

  /**
   * A name followed by a bracket listing names, one of them a record of another substance that
   * spells the name out ("Collagen (Marine Collagen, Hydrolyzed Collagen)"): the entry holds the
   * more specific records, so it is not the parent record named before the bracket.
   */
  private listsOthers(head: string, label: string): boolean {
    const named = this.wholeName(head.trim());
    if (named === null) return false;
    for (const g of topGroups(label)) {
      if (!g.includes(',')) continue;
      for (const m of g.split(',')) {
        const j = wordsWithin(head, m) ? this.wholeName(m.trim()) : null;
        if (j !== null && this.otherSubstance(named.target, j.target)) return true;
      }
    }
    return false;
  }

  /** Two records with CAS numbers and none in common: two substances (records without one may be one substance named twice). */
  private otherSubstance(a: T, b: T): boolean {
    const x = this.index.casOf.get(a);
    const y = this.index.casOf.get(b);
    return a !== b && x !== undefined && y !== undefined && !x.some((n) => y.includes(n));
  }

  /** The text as a whole name: a name (exact or compact), an alias or a synonym as printed, of a record not weak. */
  protected wholeName(text: string): Join<T> | null {
    // A plain part ("Water") is its own first form, its exact key its upper case.
    const plain = PLAIN.test(text);
    const f = plain ? text : firstForm(text);
    const j = f === '' ? null : this.lookup(f, true, plain ? text.toUpperCase() : exactKey(f));
    return j === null || this.index.weak.has(j.target) ? null : j;
  }

  /** A part of "A/B" that begins with a genus (startsWithGenus). */
  protected genusFirst(part: string): boolean {
    // A plain part's first word is its text up to the first space (startsWithGenus reads no bracket in it).
    if (PLAIN.test(part)) {
      const space = part.indexOf(' ');
      return this.index.botany().genera.has((space < 0 ? part : part.slice(0, space)).toUpperCase());
    }
    return this.startsWithGenus(part);
  }

  /** startsWithGenus of a part that is not plain (genusFirst). */
  protected startsWithGenus(part: string): boolean {
    return startsWithGenus(part, this.index.botany());
  }

  /** True when the name is a name with its gloss in brackets, then another name ("Parfum (Fragrance) D-Limonene"). */
  private nameAfterGloss(label: string): boolean {
    if (/^\s*[[(]/.test(label)) return false; // "(Mel) Honey": a gloss first, then the name
    if (!label.includes(')') && !label.includes(']')) return false;
    for (const m of label.matchAll(/[)\]]\s+(?=[A-Za-z0-9])/g)) {
      const at = m.index + 1;
      const b = label.slice(at).trim();
      if (isPartWord(b)) continue; // "… (Shea Butter) Butter": the part of the name before
      const ja = this.strict(label.slice(0, at).trim(), true);
      const jb = ja === null ? null : this.strict(b, true);
      if (jb !== null && ja?.target !== jb.target) return true;
    }
    return false;
  }

  /**
   * A part of a split: a name as printed or without its bracketed gloss, its colour index
   * deciding when it prints one ("Titanium Dioxide (CI 77891)"); `colourAlone`: a colour
   * printed with its index ("Iron Oxides CI 77499") is a part too.
   */
  protected strict(text: string, colourAlone: boolean): Join<T> | null {
    const named = this.named(text);
    // A part is a whole name, not a weak record.
    const hit = named === null || this.index.weak.has(named.target) ? null : named;
    // Without five digits in a row there is no colour index (colourIndexes), so nothing below can change the hit.
    if (!FIVE_DIGITS.test(text)) return hit;
    const cis = colourIndexes(text);
    const ci = balanced(text) && !this.isGroup(text, cis) ? this.colourIndex(cis) : null;
    if (ci === null) return hit;
    return hit !== null || (colourAlone && colourWordsOnly(text)) ? ci : null;
  }

  /** A name as printed or without its bracketed gloss. */
  private named(text: string): Join<T> | null {
    // A plain text is its own first form, its exact key its upper case, and has no bracketed gloss to drop.
    if (PLAIN.test(text)) {
      const hit = this.lookup(text, true, text.toUpperCase());
      return hit !== null && (hit.how !== 'synonym' || this.same(text, hit)) ? hit : null;
    }
    const f = firstForm(text);
    if (f === '') return null;
    // Names, aliases and synonyms only (not a catalogue's spellings): the build and the read model split alike.
    const hit = this.lookup(f, true);
    if (hit !== null && (hit.how !== 'synonym' || this.same(text, hit))) return hit;
    const bare = withoutGroups(f).trim();
    if (bare === f || bare === '') return null;
    const found = this.lookup(bare, false);
    return found !== null && this.same(text, found) ? found : null;
  }

  /** mayDropCommonName of the printed name, made once. */
  private commonOf(s: JoinState): boolean {
    s.common ??= this.mayDropCommonName(s.label);
    return s.common;
  }

  /** casNumber of the printed name, made once (a copy: run sets its step). */
  private casOf(s: JoinState): Join<T> | null {
    if (s.cas === undefined) s.cas = this.casNumber(s.label);
    return s.cas === null ? null : { ...(s.cas as Join<T>) };
  }

  /** respeltSpecies of the printed name, made once. */
  private speciesOf(s: JoinState): string | null {
    if (s.species === undefined) s.species = respeltSpecies(s.label, this.index.botany());
    return s.species;
  }

  /** colourIndexes of the printed name, made once. */
  private cisOf(s: JoinState): string[] {
    return (s.cis ??= colourIndexes(s.label));
  }

  /** The record of the first colour index printed in a name (its colourIndexes), when there is one. */
  private colourIndex(cis: readonly string[]): Join<T> | null {
    for (const n of cis) {
      const t = this.index.colourIndexName(n);
      if (t !== undefined) return { target: t, how: 'tolerant', rule: 'colour_index' };
    }
    return null;
  }

  /**
   * The one record carrying the CAS number printed in the name, when the name prints one
   * (two name a blend: they decide nothing) and exactly one record carries it.
   */
  private casNumber(label: string): Join<T> | null {
    if (this.index.cas.size === 0) return null;
    const all = casNumbers(label);
    // Most names print none: no set made then.
    if (all.length === 0 || (all.length > 1 && new Set(all).size !== 1)) return null;
    const t = this.index.cas.get(all[0]);
    return t === undefined || t === null ? null : { target: t, how: 'tolerant', rule: 'cas_number' };
  }

  /** The precision rules (src/labels/precision.ts): the record may stand for the printed name. */
  private same(label: string, j: Join<T>): boolean {
    const name = this.index.nameOf(j.target);
    return name === undefined || sameThing(renameSpecies(label), name, this.index.botany());
  }

  /** One form against the tables, in rule order; `first`: the form as printed. */
  private lookup(f: string, first: boolean, key = exactKey(f)): Join<T> | null {
    const ix = this.index;
    const c = compactOfExact(key);
    if (c === '' || !ix.hasAnyKey(c)) return null;
    const a = ix.aliases.get(c);
    if (a !== undefined) return { target: a, how: 'alias' };
    const e = ix.exact.get(key);
    if (e !== undefined && (first || !ix.weak.has(e))) return { target: e, how: first ? 'exact' : 'tolerant' };
    const k = ix.compact.get(c);
    if (k !== undefined && !ix.weak.has(k)) return { target: k, how: 'tolerant' };
    const s = ix.synonyms.get(c);
    if (s !== undefined && s !== null) return { target: s, how: 'synonym' };
    return null;
  }

  /** A form whose misspelt words (one letter missing, extra or changed) respelt give a name. */
  private respelled(all: readonly string[]): Join<T> | null {
    for (const f of all) {
      // Each combination of respelt words that is a name; a join only when they all name one record.
      let found: T | undefined;
      for (const r of this.index.respellings(exactKey(f)) ?? []) {
        const e = this.index.exact.get(r);
        // Judged as respelt ("… Root Extact" prints the part Extract), the printed ferment or copolymer words kept.
        if (e === undefined || this.index.weak.has(e) || !this.same(r, { target: e, how: 'tolerant' })) continue;
        if (found !== undefined && found !== e) return null;
        found = e;
      }
      if (found !== undefined) return { target: found, how: 'tolerant' };
    }
    return null;
  }

  /**
   * The printed name with its one unknown word corrected (near-words.ts) to a word that makes it a
   * record's name, judged as respelt: one nearest record and none other one edit further
   * (respelt_two: no known word at one edit, one record at two, no other at three; respelt_short: one at one,
   * no other at two; mono_prefix: the word without mono-). Never a word dropped.
   */
  private nearRespelled(s: JoinState, kind: NearKind): Join<T> | null {
    // The name as printed only: another form drops words or brackets, and a correction must keep every word.
    const key = s.firstKey;
    const near = this.index.near.near(key);
    if (near !== null && near.kind === kind) {
      const before = key.slice(0, near.start);
      const after = key.slice(near.end);
      const found = near.byDistance.map((words) => {
        const records = new Set<T>();
        for (const w of words) {
          const r = before + w + after;
          const e = this.index.exact.get(r) ?? this.index.compact.get(compactOfExact(r));
          if (e !== undefined && !this.index.weak.has(e) && this.same(r, { target: e, how: 'tolerant' }))
            records.add(e);
        }
        return records;
      });
      // Two letters away: no known word one letter away (`Sarcosinat` is Sarcosinate, a word of names, not Sarcosine).
      const nearest = kind === 'respelt_two' ? 1 : 0;
      if ((nearest === 1 && near.byDistance[0].length > 0) || found[nearest].size !== 1) return null;
      const [t] = found[nearest];
      const next = found[nearest + 1];
      return next.size > 1 || (next.size === 1 && !next.has(t)) ? null : { target: t, how: 'tolerant' };
    }
    return null;
  }

  /**
   * Labels printed without punctuation ("cocos nucifera coconut oil") carry the
   * common name inline: a botanical name (it begins with a genus) without one or two
   * consecutive words after its genus and species, when the result is exactly a name
   * and the dropped words name no part or preparation (the precision rules hold). Asked
   * only of a label mayDropCommonName allows.
   */
  private withoutCommonName(label: string): Join<T> | null {
    const w = label.replace(/[()]/g, ' ').trim().split(/\s+/);
    for (const n of [1, 2]) {
      // Inline common names sit before the part: never the last word ("… Root Extact", "… Flower Distillate").
      for (let i = 2; i + n < w.length; i++) {
        const rest = [...w.slice(0, i), ...w.slice(i + n)];
        if (rest.length < 2 || !w.slice(i, i + n).every((x) => commonWord(x, this.index.botany()))) continue;
        const e = this.index.exact.get(exactKey(renameSpecies(rest.join(' '))));
        if (e !== undefined && this.same(rest.join(' '), { target: e, how: 'tolerant' }))
          return { target: e, how: 'tolerant' };
      }
    }
    return null;
  }

  /** What withoutCommonName needs: 3 to 12 words, no slash or comma, a genus first. */
  private mayDropCommonName(label: string): boolean {
    // A plain name (no slash, comma or bracket; words one space apart) has two gaps when it has three words.
    if (PLAIN.test(label)) {
      let words = 1;
      for (let i = label.indexOf(' '); i >= 0 && words <= 12; i = label.indexOf(' ', i + 1)) words++;
      return words >= 3 && words <= 12 && startsWithGenus(renameSpecies(label), this.index.botany());
    }
    if (/[/\\,]/.test(label) || !TWO_GAPS.test(label)) return false;
    const w = label.replace(/[()]/g, ' ').trim().split(/\s+/);
    if (w.length < 3 || w.length > 12 || /[/\\,]/.test(label)) return false;
    return startsWithGenus(renameSpecies(label), this.index.botany());
  }
}

/** Known words and their one-letter deletions (each deletion with the words it comes from), made on first use. */
class Spelling {
  private readonly keys: string[] = [];
  private words: Set<string> | null = null;
  private readonly deletions = new Map<string, string | string[]>();
  /** candidates' answers for unknown words, emptied when the words change or it holds MAX_CORRECTED. */
  private readonly corrected = new Map<string, readonly string[]>();

  addWords(key: string): void {
    this.keys.push(key);
    this.words = null;
  }

  prepare(): void {
    this.known();
  }

  private known(): Set<string> {
    if (this.words !== null) return this.words;
    const words = new Set<string>();
    this.deletions.clear();
    this.corrected.clear();
    for (const key of this.keys) {
      for (const w of key.split(/[^A-Z]+/)) {
        if (w.length < 6 || words.has(w)) continue;
        words.add(w);
        for (const d of deletionsOf(w)) {
          const prev = this.deletions.get(d);
          if (prev === undefined) this.deletions.set(d, w);
          else if (typeof prev === 'string') {
            if (prev !== w) this.deletions.set(d, [prev, w]);
          } else if (!prev.includes(w)) prev.push(w);
        }
      }
    }
    return (this.words = words);
  }

  respellings(key: string): string[] | null {
    if (!SIX_LETTERS.test(key)) return null; // no word to respell
    const parts = key.split(/([A-Z]{6,})/);
    // Most names have no word to respell (every word known, or none near one): no combinations then.
    let changed = false;
    for (let i = 1; i < parts.length && !changed; i += 2) {
      const c = this.candidates(parts[i]);
      changed = c.length > 1 || c[0] !== parts[i];
    }
    if (!changed) return null;
    let out = [''];
    for (let i = 0; i < parts.length; i++) {
      const c = i % 2 === 1 ? this.candidates(parts[i]) : [parts[i]];
      out = out.flatMap((o) => c.map((w) => o + w)).slice(0, MAX_RESPELLINGS);
    }
    return out;
  }

  /** The known words w is a misspelling of, or [w] (remembered: labels print the same words again and again). */
  private candidates(w: string): readonly string[] {
    const words = this.known();
    if (words.has(w)) return [w];
    let r = this.corrected.get(w);
    if (r === undefined) {
      if (this.corrected.size >= MAX_CORRECTED) this.corrected.clear();
      const found = this.misspelt(w, words);
      this.corrected.set(w, (r = found.length === 0 ? [w] : found));
    }
    return r;
  }

  private misspelt(w: string, words: Set<string>): string[] {
    const found = new Set<string>();
    const add = (x: string | string[] | undefined) => {
      if (typeof x === 'string') found.add(x);
      else if (x !== undefined) for (const v of x) found.add(v);
    };
    add(this.deletions.get(w)); // a letter missing from w
    for (const d of deletionsOf(w)) {
      if (words.has(d)) found.add(d); // a letter too many in w
      add(this.deletions.get(d)); // a letter changed in w
    }
    for (let i = 0; i + 1 < w.length; i++) {
      const t = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2); // two neighbours swapped
      if (words.has(t)) found.add(t);
    }
    found.delete(w);
    return [...found].sort();
  }
}

/** A run of six letters: the shortest word Spelling knows. */
const SIX_LETTERS = /[A-Z]{6}/;

/** At most this many respellings of one name are tried. */
const MAX_RESPELLINGS = 16;

/** At most this many corrections are remembered (a few MB). */
const MAX_CORRECTED = 20_000;

function deletionsOf(w: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < w.length; i++) out.add(w.slice(0, i) + w.slice(i + 1));
  return out;
}

/** The compact keys sorted, and reversed and sorted; which three characters begin and end one (null: a key not A-Z, 0-9). */
interface SortedKeys {
  keys: string[];
  reversed: string[];
  firstThree: Uint8Array | null;
  lastThree: Uint8Array | null;
  /** mayBegin's and mayEnd's answers for the words asked (emptied at MAX_WORDS_REMEMBERED). */
  begins: Map<string, boolean>;
  ends: Map<string, boolean>;
}

/** At most this many words' mayBegin (and mayEnd) answers are remembered. */
const MAX_WORDS_REMEMBERED = 50_000;

/** The three characters of a text from `at` as a number below 36³ (A-Z, 0-9), or -1 for any other character. */
function threeAt(s: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 3; i++) {
    const c = s.charCodeAt(i);
    const d = c >= 65 && c <= 90 ? c - 65 : c >= 48 && c <= 57 ? c - 22 : -1;
    if (d < 0) return -1;
    n = n * 36 + d;
  }
  return n;
}

/** Marks the three characters `at` gives of each key of three or more; null when one is not A-Z, 0-9 (nothing ruled out). */
function threes(keys: Iterable<string>, at: (k: string) => number): Uint8Array | null {
  const out = new Uint8Array(36 * 36 * 36);
  for (const k of keys) {
    if (k.length < 3) continue;
    const n = at(k);
    if (n < 0) return null;
    out[n] = 1;
  }
  return out;
}

/** True when one of the sorted texts begins with this one. */
function startsSome(sorted: readonly string[], start: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo].startsWith(start);
}

/** The compact keys are A-Z and 0-9 only: reversed code unit by code unit. */
function reverse(s: string): string {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
}

/** The last word (A-Z, 0-9) of an exact key, or ''. */
function lastWord(key: string): string {
  let end = key.length;
  while (end > 0 && !wordChar(key.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && wordChar(key.charCodeAt(start - 1))) start--;
  return key.slice(start, end);
}

/** A-Z or 0-9. */
function wordChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Brackets or slashes: forms are made of their parts too. */
const GROUPED = /[()[\]/\\]/;

/** compactKey of the text whose exactKey this is (exactKey only folds and respaces, which compactKey drops). */
function compactOfExact(key: string): string {
  for (let i = 0; i < key.length; i++) if (!wordChar(key.charCodeAt(i))) return key.replace(/[^A-Z0-9]+/g, '');
  return key; // one word of A-Z and 0-9: its own compact form
}

/**
 * True when the text is printable ASCII whose spaces are single, between two other characters
 * and beside no slash: its exactKey is its upper case (fold of ASCII is its lower case, and no
 * respacing applies).
 */
function plainAscii(s: string): boolean {
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === last) return false;
      const before = s.charCodeAt(i - 1);
      const after = s.charCodeAt(i + 1);
      if (before === 32 || after === 32 || before === 47 || after === 47) return false;
    } else if (c < 32 || c > 126) return false;
  }
  return true;
}

/** Exact comparison form: accents and case folded, spaces around slashes and runs of spaces removed. */
export function exactKey(s: string): string {
  // Printable ASCII, single spaces between other characters, none beside a slash: folding and respacing change nothing.
  if (plainAscii(s)) return s.toUpperCase();
  return fold(s)
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .replace(/ ?\/ ?/g, '/')
    .trim();
}

/** "D-", "L-", "DL-" before a name, or "D"/"L" alone before a word ("Calcium D Pantothenate"). */
const STEREO = /(?<=^|\s)(?:(?:D|L|DL)\s+|(?:D|L|DL|d|l|dl)-)(?=[A-Za-z]{4})/g;
/** Two spaces or brackets between other characters: three words or more (withoutCommonName's words). */
const TWO_GAPS = /[^\s()][\s()]+[^\s()][^]*?[\s()][^\s()]/;
/** "Common (Latin Name) Part …": the bracketed group, the text after it. */
const LATIN_INSIDE = /^([A-Za-z' -]+)\(([A-Za-z ]+)\)\s+([A-Za-z][A-Za-z -]*)$/;
const QUALIFIERS =
  /^(CERTIFIED ORGANIC|ORGANIC|NATURAL|BIO|WILDCRAFTED|FAIR TRADE|NANO|NON-NANO|MICRONIZED)\s+|\s+\((CERTIFIED ORGANIC|ORGANIC|NANO|NON-NANO)\)$/i;
/** What QUALIFIERS needs: a qualifier and a space beginning the text (its other form ends the text with ")"). */
const QUALIFIER_FIRST = /^(?:CERTIFIED ORGANIC|ORGANIC|NATURAL|BIO|WILDCRAFTED|FAIR TRADE|NANO|NON-NANO|MICRONIZED)\s/i;

/**
 * The text without a qualifier ("Organic …", "… (Nano)"): text.replace(QUALIFIERS, ''), with the
 * unanchored bracket form tried only on a text ending with ")" (most names have no qualifier).
 */
function withoutQualifier(text: string): string {
  return text.endsWith(')') || QUALIFIER_FIRST.test(text) ? text.replace(QUALIFIERS, '') : text;
}
/** "CI 77491", "C.I. 77891", "Ci77491", and as printed with a letter l or a digit 1: "Cl 77491", "C L 77499", "C1 77891". */
const CI = /(?<![A-Za-z0-9])C\s?\.?\s?(?:[IL]\.?\s*|1(?:\.\s*|\s+))(\d{5})(?!\d)/gi;
/** A colour index, a slash, a second bare number: "Ci 77491/77492" (a group). */
const CI_SLASH_CI = /C\s?\.?\s?[IL]\.?\s*\d{5}\s*\/\s*\d{5}\b/i;
/** A blend or complex printed as one name: a group, never one of its parts. */
const BLEND = /\bblend\b|\bcomplex of\b/i;
/** A bracketed gloss saying where the ingredient comes from ("(Derived from Olive)", "(*Coconut Oil)"): not the ingredient. */
const ORIGIN_GLOSS = /^\s*\*|\b(?:derived|from|made|source|sourced|origin)\b/i;
/** A bare number at the start of the name, a colour or pigment named in brackets after it: "77499 (Iron Oxides)". */
const BARE_CI = /^\s*(\d{5})\s*[([]([^()[\]]*)[)\]]/;
const COLOUR_WORD =
  /\b(?:colou?rs?|pigments?|lakes?|iron|oxides?|dioxide|titanium|ultramarines?|chromium|manganese|ferrocyanide|bismuth|oxychloride|carmine|mica|red|yellow|blue|green|black|white|brown|orange|violet|pink)\b/i;

/** True when the text, its colour indexes and bracketed groups aside, is colour words and numbers only ("Red 7 Lake (CI 15850)"). */
function colourWordsOnly(text: string): boolean {
  const rest = withoutGroups(text.replace(CI, ' '))
    .replace(/[\d:.,]+/g, ' ')
    .trim();
  return rest.split(/\s+/).every((w) => w === '' || COLOUR_WORD.test(w));
}

/**
 * The colour index numbers printed in a name, in order: five digits in the CI range
 * (10000–77999) after "CI" in any of its printed forms, or a bare number that begins the
 * name with a colour or pigment named in brackets right after it.
 */
export function colourIndexes(label: string): string[] {
  if (!FIVE_DIGITS.test(label)) return [];
  const out: string[] = [];
  const bare = BARE_CI.exec(label);
  if (bare !== null && COLOUR_WORD.test(bare[2])) out.push(bare[1]);
  for (const m of label.matchAll(CI)) out.push(m[1]);
  return out.filter((n) => n >= '10000' && n <= '77999');
}

/** Five digits in a row: what every colour index prints (colourIndexes). */
const FIVE_DIGITS = /\d{5}/;

const CAS = /(?<![\d-])(\d{2,7})-(\d\d)-(\d)(?![\d-])/g;

/** The CAS numbers printed in a text whose check digit is right ("59-02-9"; "59-02-8" is no CAS number). */
export function casNumbers(text: string): string[] {
  if (!/\d-\d\d-\d/.test(text)) return [];
  const out: string[] = [];
  for (const m of text.matchAll(CAS)) {
    const digits = m[1] + m[2];
    let sum = 0;
    for (let i = 0; i < digits.length; i++) sum += (digits.length - i) * Number(digits[i]);
    if (sum % 10 === Number(m[3])) out.push(m[0]);
  }
  return out;
}

/** The forms of a printed name tried in turn. */
export function forms(label: string): string[] {
  const base = baseForm(label);
  return formsOf(base, usForm(base));
}

/** True when every word of `a` is a word of `b` (case aside). */
function wordsWithin(a: string, b: string): boolean {
  const w = new Set(exactKey(b).split(/[^A-Z0-9]+/));
  const x = exactKey(a)
    .split(/[^A-Z0-9]+/)
    .filter((v) => v !== '');
  return x.length > 0 && x.every((v) => w.has(v));
}

/** "Name from …", "Name derived from …", "Name plant derived": the name before its origin. */
const FROM_AFTER = /^(.+?)\s+(?:(?:naturally |plant |vegetable )?derived(?: from\b.*)?|from\s.*|made from\s.*)$/i;
/** What FROM_AFTER needs printed: "derived" or "from" (most names print neither). */
const ORIGIN_WORD = /derived|from/i;

/**
 * forms of a label given its base form and that form's usForm; `slashPartsOk`: whether "A/B"
 * may be read as A or B, given A (first) or B (a later part).
 */
function formsOf(
  base: string,
  us: string,
  slashPartsOk: (part: string, first: boolean) => boolean = () => true,
): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    const t = singleSpaced(s) ? s.trim() : s.replace(/\s+/g, ' ').trim();
    if (t !== '' && !out.includes(t)) out.push(t);
  };
  add(base);
  add(us);
  // Without a stereo descriptor ("L-Theanine", "Calcium D Pantothenate"): INCI names mostly omit it.
  add(us.replace(STEREO, ''));
  add(withoutQualifier(us));
  const noParens = withoutGroups(us);
  add(noParens);
  add(withoutQualifier(noParens));
  for (const n of colourIndexes(us)) add(`CI ${n}`);
  // "Carrageenan from Red Algae", "Squalane Plant Derived": the name before its origin.
  const before = ORIGIN_WORD.test(noParens) ? FROM_AFTER.exec(noParens) : null;
  if (before !== null) add(before[1]);
  // Without an opening bracket there is no bracketed group.
  const bracketed = hasOpeningBracket(us);
  if (bracketed)
    for (const m of us.matchAll(/[[(]([^\])]*)[\])]/g))
      if (!ORIGIN_GLOSS.test(m[1])) for (const p of m[1].split(/[,/]/)) add(p);
  for (const g of bracketed ? topGroups(us) : []) {
    if (ORIGIN_GLOSS.test(g)) continue;
    add(g);
    add(withoutGroups(g));
  }
  for (const f of noParens === us ? [us] : [us, noParens]) {
    if (!/[/\\]/.test(f)) continue;
    // Two neighbours printed as one ("Jojoba Esters, 6% AHA/BHA": join-entries' pair): a slash is read within its own name.
    for (const name of outerNames(f)) addSlashParts(name, slashPartsOk, add);
  }
  return out;
}

/**
 * "A/B" read as A or B (formsOf): each part added when its first part is a name, or a later part
 * spells it out ("Iris Florentina / Iris Florentina Root Extract") or is a plant's name ("Cera
 * Carnauba/Copernicia Cerifera (Carnauba) Wax"); else the slash is inside one name or a group
 * ("Aspergilus/Rice Ferment Filtrate", "AHA/BHA") and nothing is added.
 */
function addSlashParts(
  name: string,
  slashPartsOk: (part: string, first: boolean) => boolean,
  add: (s: string) => void,
): void {
  if (!/[/\\]/.test(name)) return;
  const parts = name.split(/[/\\]/);
  if (!slashPartsOk(parts[0], true) && !parts.slice(1).some((p) => wordsWithin(parts[0], p) || slashPartsOk(p, false)))
    return;
  for (const p of parts) {
    add(p);
    add(withoutQualifier(p));
  }
}

/** The names of a text split at its commas followed by a space outside brackets ("A, B" → A, B; "A (B, C)" → itself). */
function outerNames(s: string): string[] {
  if (!s.includes(', ')) return [s];
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === ',' && s[i + 1] === ' ' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 2;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** The text with every bracketed group removed, nested ones included. */
function withoutGroups(s: string): string {
  if (!hasOpeningBracket(s)) return s; // every group begins with one
  let out = s;
  for (let prev = ''; prev !== out;) {
    prev = out;
    out = out.replace(/\s*[[(][^[\]()]*[\])]\s*/g, ' ');
  }
  return out;
}

/** True when the text holds "(" or "[". */
function hasOpeningBracket(s: string): boolean {
  return s.includes('(') || s.includes('[');
}

/** True when the text's only white space is single spaces (replacing runs of white space by one space changes nothing). */
function singleSpaced(s: string): boolean {
  let space = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return false;
      space = true;
    } else if (c < 32 || c >= 127)
      return false; // other white space (\s) is a control or a non-ASCII character
    else space = false;
  }
  return true;
}

/** The contents of the outermost bracketed groups ("A (B (C) D)" → "B (C) D"). */
function topGroups(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[') {
      if (depth++ === 0) start = i + 1;
    } else if ((c === ')' || c === ']') && depth > 0 && --depth === 0) out.push(s.slice(start, i));
  }
  return out;
}

/** The printed name without footnote marks and unbalanced outer brackets. */
function baseForm(label: string): string {
  const s = label.replace(/[*†‡]+/g, '');
  return (balanced(label) ? s : trimBrackets(s)).trim();
}

/** The text without its leading opening and trailing closing brackets (a loop, not a regex: linear on any run). */
function trimBrackets(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s[a] === '(' || s[a] === '[')) a++;
  while (b > a && (s[b - 1] === ')' || s[b - 1] === ']')) b--;
  return s.slice(a, b);
}

/** forms(label)[0] when it is the base form, else '' (the first form, made alone). */
export function firstForm(label: string): string {
  return baseForm(label).replace(/\s+/g, ' ').trim();
}

/** STEREO, one match (STEREO is global: its test would keep a lastIndex). */
const STEREO_ONE = new RegExp(STEREO.source);

/**
 * True when a plain name prints something from which the forms of a pair it begins or ends
 * ("A, B", formsOf) differ from the pair as printed: a qualifier first, what usForm replaces
 * or renames, a stereo descriptor, an origin word ("from", "derived"), five digits (a colour index).
 */
function loudInPair(name: string): boolean {
  return (
    QUALIFIER_FIRST.test(name) ||
    FIVE_DIGITS.test(name) ||
    UNPRINTED.test(name) ||
    UNSPELT.test(name) ||
    RENAMEABLE.test(name) ||
    STEREO_ONE.test(name) ||
    /from|derived/i.test(name)
  );
}

/** Any of SPECIES_RENAMES (none stateful): when none matches, renaming changes nothing. */
const RENAMEABLE = new RegExp(SPECIES_RENAMES.map(([from]) => from.source).join('|'), 'i');

function renameSpecies(s: string): string {
  if (!RENAMEABLE.test(s)) return s;
  let out = s;
  for (const [from, to] of SPECIES_RENAMES) out = out.replace(from, to);
  return out;
}

function balanced(s: string): boolean {
  let d = 0;
  for (const c of s) {
    if (c === '(' || c === '[') d++;
    else if (c === ')' || c === ']') d--;
  }
  return d === 0;
}

/** What usForm's replaces need printed: when a text prints none of them, they change nothing. */
const UNPRINTED = /%|mg\s*\/\s*g|\d-\d\d-\d|^extracts? of /i;
const UNSPELT = /sulph|aluminium|colour|\d-0-[A-Za-z]|floral|^(?:and|&)\s/i;

/** The base form without percentages or amounts per gram, CAS numbers or "extract of", species renamed, in US spelling. */
function usForm(base: string): string {
  const printed = UNPRINTED.test(base)
    ? base
        .replace(/\s*\d+(\.\d+)?\s*%/g, '')
        .replace(/\s*\d+(?:[.,]\d+)?\s*mg\s*\/\s*g\b/gi, '') // an amount per gram ("50mg/g"), as a percentage
        .replace(/\s*\b\d{2,7}-\d{2}-\d\b/g, '')
        .replace(/^extracts? of /i, '')
    : base;
  const renamed = renameSpecies(printed);
  if (!UNSPELT.test(renamed)) return renamed;
  return (
    renamed
      .replace(/sulphate/gi, 'sulfate')
      .replace(/aluminium/gi, 'aluminum')
      .replace(/sulphur/gi, 'sulfur')
      .replace(/colour/gi, 'color')
      // A locant printed with a zero for the letter O ("3-0-Ethyl Ascorbic Acid").
      .replace(/(?<=\d-)0(?=-[A-Za-z])/g, 'O')
      // "Floral Extract" for the INCI "Flower Extract".
      .replace(/\bfloral(?=\s+(?:extract|water|oil|wax)\b)/gi, 'Flower')
      // A list's "and" left before the name ("and Porphyra Yezoensis (Seaweed) Extract").
      .replace(/^(?:and|&)\s+/i, '')
  );
}
