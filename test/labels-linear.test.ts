// The label parser and joiner in linear time: for every adversarial text shape (the ones
// that were quadratic — many short lines, runs of spaces, nested or unbalanced brackets,
// wrapped list lines — and the others of issue 24: runs of *, / and :, repeated headers,
// May contain markers, entities, bullets, locants), the work of parsing and joining a text
// of 2n characters is at most about twice that of n. Compared by doubling, never by an
// absolute time: the CPU time of the doubled size over the single one, best of several
// runs, must stay under a generous 3.2 (a quadratic shape gives 4).
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

/** CPU microseconds of f, best of `runs`. */
function cpu(f: () => unknown, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    f();
    const u = process.cpuUsage(t);
    best = Math.min(best, u.user + u.system);
  }
  return best;
}

/** The ratio of the work at 2n to the work at n (linear: 2, quadratic: 4). */
function doublingRatio(make: (n: number) => string, n: number): number {
  const small = make(n);
  const large = make(2 * n);
  analyse(small);
  analyse(large);
  const a = cpu(() => analyse(small));
  const b = cpu(() => analyse(large));
  return b / Math.max(a, 1);
}

test('every adversarial shape: parsing and joining 2n characters costs at most about twice n', () => {
  const slow: string[] = [];
  for (const [name, make] of Object.entries(ADVERSARIAL_SHAPES)) {
    let r = doublingRatio(make, 16_000);
    if (r > 3.2) r = Math.min(r, doublingRatio(make, 16_000)); // one retry: a busy machine, not a shape
    if (r > 3.2) slow.push(`${name}: ×${r.toFixed(2)}`);
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
      const r = doublingRatio(repeat(unit), 8_000);
      const again = r > 3.2 ? doublingRatio(repeat(unit), 8_000) : r;
      assert.ok(Math.min(r, again) <= 3.2, `${JSON.stringify(unit)} repeated: ×${r.toFixed(2)}`);
    }),
    { numRuns: 15, seed: 24 },
  );
});
