// The label join index of a catalogue (format.ts label_keys), prepared while the
// ingredients and products are read, so that serving a label analysis is parsing and
// map lookups only. Guarantees: the keys are exactly those a JoinIndex built from this
// catalogue holds (src/labels/joiner.ts): every ingredient name; the curated aliases
// whose target is a name here; the comma-separated other_names as synonyms; and, as
// whole-name aliases (checked first), the label spellings the catalogue's own products were built with wherever
// these rules would join them elsewhere, split them or not join them (a spelling used for two
// ingredients is left out) — so a product's own label text joins as it was built. The build
// joins each spelling in a child process while it reads the products (label-process.ts), so
// that its end only groups the results (`joined`); the index is the same either way.
import { LABEL_KEY_KINDS } from '../catalogue/format';
import { CURATED_ALIASES } from '../labels/aliases';
import { JoinIndex, LabelJoiner, exactKey, firstForm } from '../labels/joiner';
import { splitList } from '../labels/parser';
import { splitOf } from '../labels/join-entries';
import type { CatalogueWriter } from './output';

const ENTERED = 4;

/** The ingredients' part of a LabelKeysBuilder: all the index needs before the spellings. */
export interface LabelIngredients {
  names: [string, number][];
  others: [string, number][];
  weak: number[];
  cas: [string, number][];
}

/**
 * Each spelling's join by the index before spellings (label-process.ts), in the order the
 * spellings were first entered: `keys[i]` its exact key (of its first form), `targets[i]` the
 * ord it joins (-1: none), `split[i]` 1 when the join would split it in two; `tables` the
 * label_keys entries of the kinds before spelling, as JSON text (CatalogueWriter#labelKeys).
 */
export interface SpellingJoins {
  keys: string[];
  targets: Int32Array;
  split: Uint8Array;
  tables: string[];
}

/** A record with no CAS number, no EC number and no functions: joined only by its name as printed (JoinIndex.weak). */
export function isWeakRecord(r: {
  cas_number: string | null;
  ec_number: string | null;
  functions: readonly string[];
}): boolean {
  return r.cas_number === null && r.ec_number === null && r.functions.length === 0;
}

export class LabelKeysBuilder {
  private readonly names: [string, number][] = [];
  private readonly others: [string, number][] = [];
  private readonly weak: number[] = [];
  private readonly cas: [string, number][] = [];
  /** Printed label → ingredient ord, -1 when printed for two ingredients. */
  private readonly spellings = new Map<string, number>();
  /**
   * Per ingredient ord, the first labels given to `entry` with it (at most ENTERED): a repeat
   * changes nothing, and comparing a few strings costs less than a lookup in `spellings`.
   */
  private readonly entered: (string[] | undefined)[] = [];
  /** Spellings entered since the last `fresh()`, in order. */
  private added: string[] = [];
  /** The spellings' joins, when a label process made them (index() then joins nothing). */
  joined: SpellingJoins | undefined;

  /** A builder holding these ingredients (a label process's copy of the build's). */
  static of(parts: LabelIngredients): LabelKeysBuilder {
    const b = new LabelKeysBuilder();
    b.names.push(...parts.names);
    b.others.push(...parts.others);
    b.weak.push(...parts.weak);
    b.cas.push(...parts.cas);
    return b;
  }

  /** The ingredients given to `ingredient`, as `of` takes them. */
  ingredients(): LabelIngredients {
    return { names: this.names, others: this.others, weak: this.weak, cas: this.cas };
  }

  /** The spellings entered for the first time since the last call, in order. */
  fresh(): string[] {
    const added = this.added;
    this.added = [];
    return added;
  }

  /**
   * `weak`: a record with no CAS number, no EC number and no functions (JoinIndex.weak);
   * `cas`: its cas_number (the served analysis reads both from the records: the spellings are found with the same rules).
   */
  ingredient(ord: number, name: string, otherNames: string | null, weak = false, cas: string | null = null): void {
    this.names.push([name, ord]);
    this.entered[ord] = undefined; // a slot per ord in order: entry() fills them at random, and a sparse array went to dictionary mode
    if (weak) this.weak.push(ord);
    if (cas !== null) this.cas.push([cas, ord]);
    if (otherNames !== null)
      for (const s of splitList(otherNames)) if (s.trim() !== '') this.others.push([s.trim(), ord]);
  }

  /** A product entry: its printed name joined to an ingredient ord. */
  entry(labelName: string, ord: number): void {
    const entered = this.entered[ord];
    if (entered === undefined) this.entered[ord] = [labelName];
    else if (entered.includes(labelName)) return;
    else if (entered.length < ENTERED) entered.push(labelName);
    const prev = this.spellings.get(labelName);
    if (prev === undefined) {
      this.spellings.set(labelName, ord);
      this.added.push(labelName);
    } else if (prev !== ord) this.spellings.set(labelName, -1);
  }

  /** The index before the spellings: names, curated aliases, synonyms (in the order their rules need). */
  base(): JoinIndex<number> {
    const ix = new JoinIndex<number>();
    for (const [name, ord] of this.names) ix.addName(name, ord);
    for (const ord of this.weak) ix.weak.add(ord);
    for (const [cas, ord] of this.cas) ix.addCasNumbers(cas, ord);
    for (const [alias, target] of Object.entries(CURATED_ALIASES)) {
      const ord = ix.exact.get(exactKey(target));
      if (ord !== undefined) ix.addAlias(alias, ord);
    }
    for (const [s, ord] of this.others) ix.addSynonym(s, ord);
    return ix;
  }

  /** The index, in the order its rules need: names, curated aliases, synonyms, then the spellings they miss. */
  index(): JoinIndex<number> {
    const ix = this.base();
    const rules = new LabelJoiner(ix);
    const missed = this.missed(
      (label) => exactKey(firstForm(label)),
      (label, _, ord) => {
        const j = rules.join(label);
        return j?.target !== ord || splitOf(label, j, rules) !== null; // joined elsewhere, or split in two
      },
    );
    for (const [k, ord] of missed) ix.spellings.set(k, ord);
    return ix;
  }

  /**
   * The spellings the index before them misses, [exact key, ord] in the order first entered:
   * spellings are grouped by `keyOf` (the i-th spelling entered is `i`), and a group whose
   * spellings all stand for one ord is missed when `misses` says so of one of them.
   */
  private missed(
    keyOf: (label: string, i: number) => string,
    misses: (label: string, i: number, ord: number) => boolean,
  ): [string, number][] {
    const byKey = new Map<string, { labels: string[]; at: number[]; ord: number }>();
    let i = 0;
    for (const [label, ord] of this.spellings) {
      const k = keyOf(label, i);
      const prev = byKey.get(k);
      if (prev === undefined) byKey.set(k, { labels: [label], at: [i], ord });
      else {
        prev.labels.push(label);
        prev.at.push(i);
        if (prev.ord !== ord) prev.ord = -1;
      }
      i++;
    }
    const missed: [string, number][] = [];
    for (const [k, s] of byKey)
      if (k !== '' && s.ord >= 0 && s.labels.some((l, j) => misses(l, s.at[j], s.ord))) missed.push([k, s.ord]);
    return missed;
  }

  write(out: CatalogueWriter): void {
    const joined = this.joined;
    if (joined !== undefined) {
      const spellings = this.missed(
        (_, i) => joined.keys[i],
        (_, i, ord) => joined.targets[i] !== ord || joined.split[i] === 1,
      );
      LABEL_KEY_KINDS.forEach((kind, i) =>
        kind === 'spelling' ? out.labelKeys(i, spellings) : out.labelKeysText(i, joined.tables[i]),
      );
      return;
    }
    const tables = tablesOf(this.index());
    LABEL_KEY_KINDS.forEach((kind, i) => out.labelKeys(i, tables[kind]));
  }
}

/** The label_keys entries of each kind of an index. */
export function tablesOf(ix: JoinIndex<number>): Record<(typeof LABEL_KEY_KINDS)[number], Iterable<[string, number]>> {
  const synonyms = [...ix.synonyms].filter((e): e is [string, number] => e[1] !== null);
  return { exact: ix.exact, compact: ix.compact, alias: ix.aliases, synonym: synonyms, spelling: ix.spellings };
}

/** A spelling's join by the index before spellings (SpellingJoins): its key, target (-1: none) and whether it splits. */
export function joinSpelling(
  rules: LabelJoiner<number>,
  label: string,
): { key: string; target: number; split: boolean } {
  const j = rules.join(label);
  const target = j?.target ?? -1;
  // index() asks for the split only when the join's target is the spelling's ord (>= 0)
  return { key: exactKey(firstForm(label)), target, split: target >= 0 && splitOf(label, j, rules) !== null };
}
