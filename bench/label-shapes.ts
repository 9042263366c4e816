// Adversarial label texts for the parser and joiner: the shapes that were quadratic
// (issue 24: many short lines, runs of *, unbalanced brackets, runs of / and :, repeated
// headers) and others. Guarantees: each maker returns a text of about n characters
// (at least n); deterministic.

/** Text of about n characters made by repeating a unit. */
const repeat = (unit: string) => (n: number) => unit.repeat(Math.ceil(n / unit.length));
/** A prefix, a run of one character, a suffix. */
const run =
  (prefix: string, c: string, suffix = '') =>
  (n: number) =>
    prefix + c.repeat(n) + suffix;

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
  'a real list repeated': repeat(
    'Aqua (Water), Glycerin, Butylene Glycol, Niacinamide (10%), Cetearyl Alcohol, Iron Oxides (CI 77491, CI 77492), Parfum*, Tocopherol. ',
  ),
};
