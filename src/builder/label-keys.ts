// The label join index of a catalogue (format.ts label_keys), prepared while the
// ingredients and products are read, so that serving a label analysis is parsing and
// map lookups only. Guarantees: the keys are exactly those a JoinIndex built from this
// catalogue holds (src/labels/joiner.ts): every ingredient name; the curated aliases
// whose target is a name here; the comma-separated other_names as synonyms; and, as
// whole-name aliases (checked first), the label spellings the catalogue's own products were built with wherever
// these rules would join them elsewhere, split them or not join them (a spelling used for two
// ingredients is left out) — so a product's own label text joins as it was built.
import { LABEL_KEY_KINDS } from '../catalogue/format';
import { CURATED_ALIASES } from '../labels/aliases';
import { JoinIndex, LabelJoiner, exactKey, firstForm } from '../labels/joiner';
import { splitList } from '../labels/parser';
import { splitOf } from '../labels/join-entries';
import type { CatalogueWriter } from './output';

const ENTERED = 4;

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
    if (prev === undefined) this.spellings.set(labelName, ord);
    else if (prev !== ord) this.spellings.set(labelName, -1);
  }

  /** The index, in the order its rules need: names, curated aliases, synonyms, then the spellings they miss. */
  index(): JoinIndex<number> {
    const ix = new JoinIndex<number>();
    for (const [name, ord] of this.names) ix.addName(name, ord);
    for (const ord of this.weak) ix.weak.add(ord);
    for (const [cas, ord] of this.cas) ix.addCasNumbers(cas, ord);
    for (const [alias, target] of Object.entries(CURATED_ALIASES)) {
      const ord = ix.exact.get(exactKey(target));
      if (ord !== undefined) ix.addAlias(alias, ord);
    }
    for (const [s, ord] of this.others) ix.addSynonym(s, ord);
    const byKey = new Map<string, { labels: string[]; ord: number }>();
    for (const [label, ord] of this.spellings) {
      const k = exactKey(firstForm(label));
      const prev = byKey.get(k);
      if (prev === undefined) byKey.set(k, { labels: [label], ord });
      else {
        prev.labels.push(label);
        if (prev.ord !== ord) prev.ord = -1;
      }
    }
    const rules = new LabelJoiner(ix);
    const missed = [...byKey].filter(
      ([k, s]) =>
        k !== '' &&
        s.ord >= 0 &&
        s.labels.some((l) => {
          const j = rules.join(l);
          return j?.target !== s.ord || splitOf(l, j, rules) !== null; // joined elsewhere, or split in two
        }),
    );
    for (const [k, s] of missed) ix.spellings.set(k, s.ord);
    return ix;
  }

  write(out: CatalogueWriter): void {
    const ix = this.index();
    const synonyms = [...ix.synonyms].filter((e): e is [string, number] => e[1] !== null);
    const tables: Record<(typeof LABEL_KEY_KINDS)[number], Iterable<[string, number]>> = {
      exact: ix.exact,
      compact: ix.compact,
      alias: ix.aliases,
      synonym: synonyms,
      spelling: ix.spellings,
    };
    LABEL_KEY_KINDS.forEach((kind, i) => out.labelKeys(i, tables[kind]));
  }
}
