// Adversarial label texts for the parser and joiner: the shapes that were quadratic
// (issue 24: many short lines, runs of *, unbalanced brackets, runs of / and :, repeated
// headers), the ones found quadratic later (runs of "(" after a colon, footnote lines,
// unclosed tags), those whose cost is joining (names new to the joiner) and others.
// WORST_SHAPES are the costliest to serve (issue 33), measured at 25,000 and 100,000
// characters by bench/label-cost.ts. Guarantees: each maker returns a text of about n
// characters (at least n); deterministic.

/** Text of about n characters made by repeating a unit. */
const repeat = (unit: string) => (n: number) => unit.repeat(Math.ceil(n / unit.length));
/** A prefix, a run of one character, a suffix. */
const run =
  (prefix: string, c: string, suffix = '') =>
  (n: number) =>
    prefix + c.repeat(n) + suffix;

/** Text of about n characters made of units that differ (unit(0), unit(1), …). */
const distinct = (unit: (i: number) => string) => (n: number) => {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < n; i++) length += parts[parts.push(unit(i)) - 1].length;
  return parts.join('');
};
const WORDS = [
  'Glycerin',
  'Butylene',
  'Glycol',
  'Niacinamide',
  'Tocopherol',
  'Sodium',
  'Hyaluronate',
  'Cetearyl',
  'Alcohol',
  'Aqua',
  'Extract',
  'Oil',
];

export const ADVERSARIAL_SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'many short lines': repeat('Aqua,\n'),
  'short lines without commas': repeat('Aqua\n'),
  'list lines wrapped mid-name': repeat('A, B\n'),
  'hyphen-wrapped lines': repeat('Tetra-\n'),
  'run of *': run('Aqua, ', '*'),
  'footnote marks after names': repeat('Aqua*, '),
  'unbalanced (': repeat('Aqua (Glycerin, '),
  'unbalanced )': repeat('Aqua) Glycerin, '),
  'nested brackets': (n) => '('.repeat(n / 2) + ')'.repeat(n / 2),
  'run of ] then text': run('Aqua ', ']', ' x'),
  'run of /': run('Aqua, ', '/'),
  'run of :': run('Aqua, ', ':'),
  'run of spaces': run('Aqua,', ' ', 'x'),
  'run of spaces then /': run('Aqua ', ' ', '/'),
  'repeated headers': repeat('Shade 1:\nAqua, Glycerin\n'),
  'inline headers': repeat('Shade: Aqua, Glycerin, '),
  'repeated Ingredients:': repeat('Ingredients: Aqua. '),
  'repeated May contain': repeat('May contain: CI 77891, '),
  'repeated +/-': repeat('+/-'),
  'full stops and marks': repeat('Aqua. *'),
  entities: repeat('&lt;'),
  bullets: repeat('Aqua • '),
  'locant digits': repeat('1,'),
  percentages: repeat('1%'),
  'prose words': repeat('the skin '),
  'one long word': run('', 'a'),
  'letters and digits, no separators': repeat('Glycerin 1 '),
  // Found quadratic in November 2026 (seconds at 100,000 characters), now linear:
  'run of ( after a colon': run('Shade: ', '('),
  'run of ( in an entry after a colon': run('Aqua, Shade: ', '(', ', Glycerin'),
  'footnote lines': repeat('*Organic\n'),
  'unclosed tags': repeat('<a '),
  'disclaimer lines': repeat('Please be aware that ingredient lists may change\n'),
  'unclosed entities': repeat('&lt;b '),
  'header lines': repeat('Shade 1\n'),
  'runs of ( then text': repeat('(((x '),
  'repeated Inactive Ingredients:': repeat('Inactive Ingredients: Aqua. '),
  'run of [ after a space': run('Aqua ', '[ '),
  'run of spaces after a colon': run('Aqua: ', ' ', 'x'),
  'run of * then text': run('Aqua ', '*', 'x'),
  'run of . then text': run('Aqua ', '.', 'x'),
  'run of quotes then text': run('Aqua ', '"', 'x'),
  'run of spaces after a full stop': run('Aqua.', ' ', 'x'),
  'run of bullets': run('Aqua ', '• ', 'x'),
  'translated markers': repeat('May contain / Peut contenir / '),
  'translated headers': repeat('Ingredients / Ingrédients / '),
  'prose with commas': repeat('the skin, and the face, '),
  // Joining-bound: every name is new to the joiner (each is looked up tolerantly, and split at its spaces).
  'distinct unknown names': distinct((i) => `Zq${(i * 7919).toString(36)}x, `),
  'distinct names run together': distinct(
    (i) => `${WORDS[i % 12]} ${WORDS[(i * 5 + 1) % 12]} ${WORDS[(i * 7 + 3) % 12]} ${i}, `,
  ),
  // Issue 33's worst shapes (with distinct unknown names, short lines and bullets above):
  'distinct colour indexes': distinct((i) => `CI ${10000 + (i % 68000)}, `),
  'slash names': distinct((i) => `Water/Zq${(i * 7919).toString(36)}/Eau, `),
  'a real list repeated': repeat(
    'Aqua (Water), Glycerin, Butylene Glycol, Niacinamide (10%), Cetearyl Alcohol, Iron Oxides (CI 77491, CI 77492), Parfum*, Tocopherol. ',
  ),
};

/** The shapes costliest to serve (issue 33): served CPU at 25,000 and 100,000 characters, and its growth. */
export const WORST_SHAPES = [
  'distinct colour indexes',
  'distinct unknown names',
  'many short lines',
  'short lines without commas',
  'bullets',
  'slash names',
  'distinct names run together',
] as const;
