// Turning a raw ingredient text into label entries. Guarantees: entries keep
// label order and their printed spelling; only obvious junk is removed (marketing
// paragraphs before the list, disclaimers and footnotes after it, bullet and
// footnote marks, the final full stop); a known junk cell yields no entries.

/** Whole cells that are not ingredient lists. */
const JUNK_CELL = /^(no info|visit the .* boutique|#name\?|n\/a|none)\.?$/i;
/** Marketing claims that some pages print as list items. */
const CLAIM_ENTRY = /(^free of\b|\b[a-z]+-free$|\bsustainably\b|\bindependently tested\b|\bformulated with\b|\bnon-gmo\b|\bingredients from organic farming\b)/i;
/** Sentences that end a list and are not ingredients. */
const DISCLAIMER = /(please be aware|ingredient lists? (may|are subject to) change|certified organic|clean at sephora|this product is|\bis free of\b|for the most (complete|current|up-to-date)|we are unable to)/i;

/** The INCI list paragraph of a product page text (the Knowledge-Graph Sephora files). */
export function listParagraph(text: string): string {
  const paras = text.replace(/\r\n?/g, '\n').split(/\n\s*\n|\n(?=-)/).map((p) => p.trim()).filter((p) => p !== '');
  const lists = paras.filter((p) => !p.startsWith('-') && !/^please be aware/i.test(p));
  if (lists.length === 0) return '';
  // The list is the last paragraph that reads as a comma-separated list.
  for (let i = lists.length - 1; i >= 0; i--) if (lists[i].split(',').length >= 3) return lists[i];
  return lists[lists.length - 1];
}

/** Split on commas outside parentheses/brackets and not between digits (1,2-Hexanediol). */
export function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    if ((c === ',' || c === ';') && depth === 0 && !(c === ',' && /\d/.test(text[i - 1] ?? '') && /^ ?\d+-|^\d/.test(text.slice(i + 1, i + 8)))) {
      out.push(cur); cur = ''; continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** Clean one entry of obvious junk; '' when nothing printable is left. */
export function cleanEntry(raw: string, last: boolean): string {
  let s = raw.replace(/[\u00ad\u200b\ufeff]/g, '').replace(/\s+/g, ' ').trim();
  s = s.replace(/^(ingredients|inci|active ingredients?|inactive ingredients?|other ingredients)\s*:\s*/i, '');
  s = s.replace(/^\[?\s*(may contain|peut contenir|\+\/-)[^:\]]*[:\]]\s*/i, '').replace(/^\[?\+\/-\]?\s*/, '');
  const colon = s.lastIndexOf(': ');
  if (colon >= 0 && colon < s.length - 2) s = s.slice(colon + 2);
  s = s.replace(/^[-•·*+†‡^~\s]+/, '').replace(/[*†‡^~]+$/, '').trim();
  if (last) s = s.replace(/\.+$/, '').trim();
  s = s.replace(/[*†‡^~]+$/, '').trim();
  return /[\p{L}\p{N}]/u.test(s) ? s : '';
}

/** Label entries of an INCI list text, in order. */
export function labelEntries(text: string): string[] {
  let t = text.replace(/\r\n?/g, '\n').trim();
  if (t === '' || JUNK_CELL.test(t)) return [];
  // A disclaimer ends the list: keep what precedes it.
  const d = DISCLAIMER.exec(t);
  if (d) t = t.slice(0, d.index);
  // A full stop followed by a footnote mark ends the list ("…, Tocopherol. *Organic").
  const foot = /\.\s*\*/.exec(t);
  if (foot) t = t.slice(0, foot.index + 1);
  t = t.replace(/\n+/g, ' ');
  const parts = splitList(t);
  const out: string[] = [];
  parts.forEach((p, i) => {
    if ((DISCLAIMER.test(p) && p.length > 40) || CLAIM_ENTRY.test(p.trim().replace(/\.$/, ''))) return;
    const e = cleanEntry(p, i === parts.length - 1);
    if (e !== '') out.push(e);
  });
  return out;
}
