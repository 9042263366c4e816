// Label text kept as a Python list literal in a string ("['Water, Glycerin', 'Shampoo:']",
// the Sephora product_info export). Guarantees: returns the parts joined by line breaks
// (each part is one printed line for the parser), or null when the text is not such a
// literal; never throws. Python's escapes are decoded ("\u2028" is a line separator, not the
// letters "u2028" printed before a name).

/** The parts of a Python list-of-strings literal joined by "\n", or null. */
export function pythonListText(cell: string): string | null {
  const t = cell.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return null;
  const parts: string[] = [];
  let i = 1;
  for (;;) {
    while (i < t.length && /[\s,]/.test(t[i])) i++;
    if (i >= t.length - 1) break;
    const q = t[i];
    if (q !== "'" && q !== '"') return null;
    let s = '';
    for (i++; i < t.length && t[i] !== q; i++) {
      if (t[i] === '\\' && i + 1 < t.length) {
        const hex = HEX_ESCAPE[t[i + 1]];
        const code = hex === undefined ? '' : t.slice(i + 2, i + 2 + hex);
        if (hex !== undefined && /^[0-9a-fA-F]+$/.test(code) && code.length === hex) {
          s += String.fromCodePoint(parseInt(code, 16));
          i += 1 + hex;
        } else s += unescape(t[++i]);
      } else s += t[i];
    }
    if (i >= t.length) return null;
    parts.push(s);
    i++;
  }
  return parts.join('\n');
}

/** Python's escapes of a code point: \xNN, \uNNNN, \UNNNNNNNN (hex digits after the letter). */
const HEX_ESCAPE: Record<string, number> = { x: 2, u: 4, U: 8 };

function unescape(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c;
}
