// The label parser and joiner in linear time: for every adversarial text shape (the ones
// that were quadratic — many short lines, runs of spaces, nested or unbalanced brackets,
// wrapped list lines — and the others of issue 24: runs of *, / and :, repeated headers,
// May contain markers, entities, bullets, locants), the work of parsing and joining a text
// of 4n characters is at most about four times that of n. Compared by size, never by an
// absolute time: the CPU time per analysis of the larger text over the smaller one must stay
// under a generous 8 (linear gives 4, a quadratic shape 16). Each time is the median of
// several batches of at least a few milliseconds each, so one collection pause or one
// descheduling on a shared machine moves no figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseLabel } from '../src/labels/parser';
import { JoinIndex, LabelJoiner } from '../src/labels/joiner';
import { joinEntries } from '../src/labels/join-entries';
import { ADVERSARIAL_SHAPES } from '../bench/label-shapes';

const ix = new JoinIndex<string>();
for (const n of ['AQUA', 'GLYCERIN', 'CI 77891', 'MICA', 'BUTYLENE GLYCOL', 'TOCOPHEROL']) ix.addName(n, n);
ix.addSynonym('WATER', 'AQUA');
const joiner = new LabelJoiner(ix);

function analyse(text: string): number {
  let n = 0;
  for (const s of parseLabel(text).sections) n += joinEntries(s.entries, joiner).length;
  return n;
}

const repeat = (unit: string) => (n: number) => unit.repeat(Math.ceil(n / unit.length));

/** CPU microseconds of one run of f. */
function cpu(f: () => unknown): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return u.user + u.system;
}

/** CPU microseconds per analysis of text: the median of 7 batches of at least 4 ms each. */
function cpuPerAnalysis(text: string): number {
  let reps = 1;
  while (cpu(() => repeatAnalysis(text, reps)) < 4000) reps *= 2;
  const batches = Array.from({ length: 7 }, () => cpu(() => repeatAnalysis(text, reps)) / reps);
  return batches.sort((x, y) => x - y)[3];
}

function repeatAnalysis(text: string, reps: number): void {
  for (let i = 0; i < reps; i++) analyse(text);
}

const LIMIT = 8;

/** The ratio of the work at 4n to the work at n (linear: 4, quadratic: 16); the least of up to three tries. */
function growth(make: (n: number) => string, n: number): number {
  const small = make(n);
  const large = make(4 * n);
  const once = () => {
    repeatAnalysis(small, 8); // compiled and warm before timing
    repeatAnalysis(large, 2);
    const a = cpuPerAnalysis(small);
    return cpuPerAnalysis(large) / Math.max(a, 1);
  };
  let r = once();
  for (let retry = 0; retry < 2 && r > LIMIT; retry++) r = Math.min(r, once());
  return r;
}

test('every adversarial shape: parsing and joining 4n characters costs at most about four times n', () => {
  const slow: string[] = [];
  for (const [name, make] of Object.entries(ADVERSARIAL_SHAPES)) {
    const r = growth(make, 8_000);
    if (r > LIMIT) slow.push(`${name}: ×${r.toFixed(2)}`);
  }
  assert.deepEqual(slow, []);
});

test('random mixes of the separators, brackets and marks: linear too (property)', () => {
  const alphabet = [
    'Aqua',
    ' ',
    ',',
    '\n',
    '(',
    ')',
    '[',
    ']',
    '*',
    '/',
    ':',
    '.',
    '-',
    '+/-',
    'May contain:',
    '1',
    '%',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 12 }), (units) => {
      const unit = units.join('');
      const r = growth(repeat(unit), 4_000);
      assert.ok(r <= LIMIT, `${JSON.stringify(unit)} repeated: ×${r.toFixed(2)}`);
    }),
    { numRuns: 15, seed: 24 },
  );
});
