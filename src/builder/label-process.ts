// The process label-joins.ts forks: given the ingredients' part of the label join index once
// (its first message), it builds the index before the spellings and joins each spelling it is
// sent (label-keys.ts joinSpelling), in the order sent; asked for the results (`end`), it
// sends them all back with the index's tables of the kinds before spelling, as label_keys
// holds them. Guarantees: the results are what LabelKeysBuilder#index would find for the same
// spellings; nothing else runs here; it ends when its parent kills it or goes away.
import { LABEL_KEY_KINDS } from '../catalogue/format';
import { LabelJoiner } from '../labels/joiner';
import { LabelKeysBuilder, joinSpelling, tablesOf, type SpellingJoins } from './label-keys';
import type { LabelMessage } from './label-joins';

let rules: LabelJoiner<number> | undefined;
const keys: string[] = [];
let targets = new Int32Array(1024);
let split = new Uint8Array(1024);

process.on('message', (m: LabelMessage) => {
  if ('ingredients' in m) {
    rules = new LabelJoiner(LabelKeysBuilder.of(m.ingredients).base());
    return;
  }
  for (const label of m.spellings) {
    const j = joinSpelling(rules!, label);
    const i = keys.length;
    if (i === targets.length) {
      targets = grow(targets, new Int32Array(2 * i));
      split = grow(split, new Uint8Array(2 * i));
    }
    keys.push(j.key);
    targets[i] = j.target;
    split[i] = j.split ? 1 : 0;
  }
  if (m.end) {
    const tables = tablesOf(rules!.index);
    const r: SpellingJoins = {
      keys,
      targets: targets.subarray(0, keys.length),
      split: split.subarray(0, keys.length),
      tables: LABEL_KEY_KINDS.map((kind) => (kind === 'spelling' ? '' : JSON.stringify([...tables[kind]]))),
    };
    process.send!(r);
  }
});

function grow<A extends Int32Array | Uint8Array>(from: A, to: A): A {
  to.set(from);
  return to;
}
