// The sample pipeline's joiner: the label joiner (src/labels/joiner.ts) over CosIng INCI
// names (upper case) with the curated aliases, the sources' synonyms and the records' CAS
// numbers. Guarantees: an alias whose target is not a CosIng name is reported, never
// used; a synonym claimed by two names is dropped; a CAS number two records carry decides
// nothing (the rules are the served catalogue's: src/labels/joiner.ts).
import { CURATED_ALIASES, compactKey } from '../labels/aliases';
import { JoinIndex, LabelJoiner, exactKey } from '../labels/joiner';

/** The joiner of the sample pipeline: targets are CosIng INCI names (upper case), with the curated aliases. */
export class Joiner extends LabelJoiner<string> {
  /** Curated alias targets that are not CosIng names (reported, never used). */
  readonly unknownAliasTargets: string[] = [];

  constructor(inciNames: readonly string[]) {
    super(new JoinIndex<string>());
    for (const n of [...inciNames].sort()) this.index.addName(n, n.toUpperCase());
    for (const [k, target] of Object.entries(CURATED_ALIASES)) {
      if (this.index.exact.has(exactKey(target))) this.index.addAlias(k, target);
      else this.unknownAliasTargets.push(target);
    }
  }

  /** Add synonyms of an INCI name; a synonym claimed by two different names is dropped. */
  addSynonyms(inci: string, names: readonly string[]): void {
    for (const s of names) this.index.addSynonym(s, inci);
  }

  /** The CAS numbers of an INCI name's record (its cas_number): one printed in a label decides its join when no other record carries it. */
  addCasNumbers(inci: string, casNumber: string | null): void {
    this.index.addCasNumbers(casNumber, inci);
  }

  /** The INCI name whose exact or compact form this text is, or null (aliases and synonyms not consulted). */
  inciNamed(text: string): string | null {
    return this.index.exact.get(exactKey(text)) ?? this.index.compact.get(compactKey(text)) ?? null;
  }

  /** The CosIng INCI name a printed name stands for, or null. */
  match(label: string): string | null {
    return this.join(label)?.target ?? null;
  }
}
