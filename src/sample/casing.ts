// Label casing of INCI names. CosIng stores names in upper case; labels print
// them in title case ("Sodium Laureth Sulfate") while keeping abbreviations and
// codes ("PEG-40", "CI 77491", "C12-15 Alkyl Benzoate", "TEA-Lauryl Sulfate").
// Guarantees: only letter case changes; the text is otherwise unchanged.

/** Words printed in upper case wherever they occur (abbreviations, roman numerals). */
const UPPER = new Set([
  'PEG',
  'PPG',
  'PG',
  'CI',
  'PCA',
  'DEA',
  'MEA',
  'MIPA',
  'DIPA',
  'TIPA',
  'EDTA',
  'HEDTA',
  'DTPA',
  'BHT',
  'BHA',
  'TBHQ',
  'PVP',
  'PVM',
  'VP',
  'VA',
  'MA',
  'DMDM',
  'DMAPA',
  'AMP',
  'AMPD',
  'PABA',
  'HC',
  'D&C',
  'FD&C',
  'DNA',
  'RNA',
  'ATP',
  'NAD',
  'NADH',
  'NADP',
  'UV',
  'SD',
  'PTFE',
  'PET',
  'PEI',
  'PVA',
  'HDI',
  'IPDI',
  'SMDI',
  'MDI',
  'TDI',
  'EO',
  'PO',
  'II',
  'III',
  'IV',
  'VI',
  'VII',
  'VIII',
  'IX',
  'XI',
  'XII',
  'SE',
  'CMC',
  'MCT',
  'EGF',
  'DHA',
  'GABA',
  'DL',
]);
/** Words printed in a fixed mixed case. */
const FIXED: Record<string, string> = { HCL: 'HCl', PH: 'pH' };
/** Prefixes printed in lower case before a hyphen: ortho/meta/para, and sh- (synthetic human) peptides. */
const LOWER_BEFORE_HYPHEN = new Set(['O', 'M', 'P', 'SH', 'RH']);
/** Suffixes printed in lower case after a locant ("o-Cymen-5-ol"). */
const LOWER_AFTER_LOCANT = new Set(['OL', 'ONE', 'AL', 'YNE', 'ENE']);

/** Title-case an upper-case INCI name the way labels print it. */
export function labelCase(inci: string): string {
  const parts = inci.split(/([^A-Za-z0-9&'’]+)/);
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (i % 2 === 1 || p === '') {
      out += p;
      continue;
    }
    out += caseWord(p.toUpperCase(), parts[i + 1] ?? '', parts[i - 2] ?? '', parts[i - 1] ?? '');
  }
  return out;
}

function caseWord(w: string, next: string, prevWord: string, prevSep: string): string {
  const beforeHyphen = next.startsWith('-');
  if (FIXED[w] !== undefined) return FIXED[w];
  if (w === 'TEA') return beforeHyphen || next.startsWith('/') ? 'TEA' : 'Tea';
  if (UPPER.has(w)) return w;
  if (/\d/.test(w)) return w;
  if (beforeHyphen && LOWER_BEFORE_HYPHEN.has(w)) return w.toLowerCase();
  if (w.length === 1) return w;
  if (prevSep === '-' && /^\d+$/.test(prevWord) && next === '' && LOWER_AFTER_LOCANT.has(w)) return w.toLowerCase();
  return w.charAt(0) + w.slice(1).toLowerCase();
}
