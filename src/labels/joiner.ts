// Joining printed ingredient names to CosIng INCI names. Tried in order, for each
// form of the label text (as printed; US spellings; without parenthetical common
// names; the CI number or name inside parentheses; each part of "A/B/C"; without
// "organic"-type qualifiers): the curated alias table, the exact INCI name, the
// compact form of an INCI name, then synonyms from the CosDNA and curlsbot lists.
// Guarantees: deterministic; returns a CosIng INCI name (upper case) or null.
import { fold } from '../shared/text';
import { CURATED_ALIASES, SPECIES_RENAMES, compactKey } from './aliases';

export type JoinVia = 'alias' | 'inci' | 'synonym';

export class Joiner {
  private readonly exact = new Map<string, string>();
  private readonly compact = new Map<string, string>();
  private readonly curated = new Map<string, string>();
  private readonly synonyms = new Map<string, string | null>();
  /** Curated alias targets that are not CosIng names (reported, never used). */
  readonly unknownAliasTargets: string[] = [];

  constructor(inciNames: readonly string[]) {
    for (const n of [...inciNames].sort()) {
      const u = n.toUpperCase();
      if (!this.exact.has(exactKey(u))) this.exact.set(exactKey(u), u);
      const c = compactKey(u);
      if (!this.compact.has(c)) this.compact.set(c, u);
    }
    for (const [k, target] of Object.entries(CURATED_ALIASES)) {
      if (this.exact.has(exactKey(target))) this.curated.set(compactKey(k), target);
      else this.unknownAliasTargets.push(target);
    }
  }

  /** Add synonyms of an INCI name; a synonym claimed by two different names is dropped. */
  addSynonyms(inci: string, names: readonly string[]): void {
    for (const s of names) {
      const c = compactKey(s);
      if (c === '' || this.compact.has(c) || this.curated.has(c)) continue;
      const prev = this.synonyms.get(c);
      if (prev === undefined) this.synonyms.set(c, inci);
      else if (prev !== inci) this.synonyms.set(c, null);
    }
  }

  /** The INCI name whose exact or compact form this text is, or null (aliases and synonyms not consulted). */
  inciNamed(text: string): string | null {
    return this.exact.get(exactKey(text)) ?? this.compact.get(compactKey(text)) ?? null;
  }

  /** The CosIng INCI name a printed name stands for, or null. */
  match(label: string): string | null {
    return this.matchVia(label)?.inci ?? null;
  }

  matchVia(label: string): { inci: string; via: JoinVia } | null {
    for (const f of forms(label)) {
      const c = compactKey(f);
      if (c === '') continue;
      const a = this.curated.get(c);
      if (a !== undefined) return { inci: a, via: 'alias' };
      const e = this.exact.get(exactKey(f)) ?? this.compact.get(c);
      if (e !== undefined) return { inci: e, via: 'inci' };
      const s = this.synonyms.get(c);
      if (s !== undefined && s !== null) return { inci: s, via: 'synonym' };
    }
    return this.withoutCommonName(label);
  }

  /**
   * Labels printed without punctuation ("cocos nucifera coconut oil") carry the
   * common name inline: drop one or two consecutive words after the first and
   * accept the result only when it is exactly an INCI name of two words or more.
   */
  private withoutCommonName(label: string): { inci: string; via: JoinVia } | null {
    const w = label.replace(/[()]/g, ' ').trim().split(/\s+/);
    if (w.length < 3 || /[/\\,]/.test(label)) return null;
    for (const n of [1, 2]) {
      for (let i = 1; i + n <= w.length; i++) {
        const rest = [...w.slice(0, i), ...w.slice(i + n)];
        if (rest.length < 2) continue;
        const e = this.exact.get(exactKey(renameSpecies(rest.join(' '))));
        if (e !== undefined) return { inci: e, via: 'inci' };
      }
    }
    return null;
  }
}

function exactKey(s: string): string {
  return fold(s).toUpperCase().replace(/\s*\/\s*/g, '/').replace(/\s+/g, ' ').trim();
}

const QUALIFIERS = /^(CERTIFIED ORGANIC|ORGANIC|NATURAL|BIO|WILDCRAFTED|FAIR TRADE|NANO|NON-NANO|MICRONIZED)\s+|\s+\((ORGANIC|NANO|NON-NANO)\)$/i;
const CI = /\bC\.?\s?I\.?\s*(\d{5})\b/gi;

/** The forms of a printed name tried in turn. */
export function forms(label: string): string[] {
  const out: string[] = [];
  const add = (s: string) => { const t = s.replace(/\s+/g, ' ').trim(); if (t !== '' && !out.includes(t)) out.push(t); };
  const base = label.replace(/[*†‡]+/g, '').replace(/^[\[(]+|[\])]+$/g, (m) => (balanced(label) ? m : '')).trim();
  add(base);
  const us = renameSpecies(base.replace(/\s*\d+(\.\d+)?\s*%/g, '')).replace(/sulphate/gi, 'sulfate').replace(/aluminium/gi, 'aluminum').replace(/sulphur/gi, 'sulfur').replace(/colour/gi, 'color');
  add(us);
  add(us.replace(QUALIFIERS, ''));
  const noParens = us.replace(/\s*[\[(][^\])]*[\])]\s*/g, ' ');
  add(noParens);
  add(noParens.replace(QUALIFIERS, ''));
  for (const m of us.matchAll(CI)) add(`CI ${m[1]}`);
  for (const m of us.matchAll(/[\[(]([^\])]*)[\])]/g)) for (const p of m[1].split(/[,/]/)) add(p);
  for (const f of [us, noParens]) if (/[/\\]/.test(f)) for (const p of f.split(/[/\\]/)) { add(p); add(p.replace(QUALIFIERS, '')); }
  return out;
}

function renameSpecies(s: string): string {
  let out = s;
  for (const [from, to] of SPECIES_RENAMES) out = out.replace(from, to);
  return out;
}

function balanced(s: string): boolean {
  let d = 0;
  for (const c of s) { if (c === '(' || c === '[') d++; else if (c === ')' || c === ']') d--; }
  return d === 0;
}
