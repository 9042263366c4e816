// The label evaluation set (data/labels-eval.tsv, docs/data-report.md): printed names from
// the bundled sample's real labels, each with the CosIng record it stands for, two records
// ("A + B": two names printed without a comma) or "unrecognised", checked by hand. Scored
// against the served catalogue's rules: the join index a build makes of the sample's
// CosIng ingredients (names, curated aliases, other_names as synonyms; no label-only
// ingredients, no product spellings: "unrecognised" means no CosIng record).
// `node dist/bench/labels-eval.js` prints precision (right joins / joins) and coverage.
// Guarantees: reads only; deterministic.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { LabelKeysBuilder } from '../src/builder/label-keys';
import { LabelJoiner } from '../src/labels/joiner';
import { ingredientId } from '../src/sample/dictionary';
import { joinEntries } from '../src/labels/join-entries';

const ROOT = path.join(__dirname, '..', '..');

export interface EvalItem {
  label: string;
  /** Accepted answers: each a list of upper-case names (one, or two for a split); [] for unrecognised. */
  expected: string[][];
}

export interface EvalScore {
  items: number;
  joined: number;
  right: number;
  precision: number;
  coverage: number;
  wrong: { label: string; expected: string; got: string }[];
}

export function readEvalSet(file = path.join(ROOT, 'data', 'labels-eval.tsv')): EvalItem[] {
  const out: EvalItem[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [label, expected] = line.split('\t');
    out.push({
      label,
      expected: expected === 'unrecognised' ? [[]] : expected.split(' | ').map((a) => a.split(' + ')),
    });
  }
  return out;
}

/** The sample catalogue's join index (what `catalogue build` stores, less its products' spellings) and its names. */
export function sampleJoiner(dir = path.join(ROOT, 'data', 'sample')): {
  joiner: LabelJoiner<number>;
  names: string[];
} {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'ingredients.jsonl.gz'))).toString('utf8');
  const keys = new LabelKeysBuilder();
  const names: string[] = [];
  const cas: (string | null)[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { id: string; name: string; other_names: string | null; cas_number: string | null };
    if (r.id !== ingredientId(r.name)) continue; // a label-only ingredient
    keys.ingredient(names.length, r.name, r.other_names);
    cas.push(r.cas_number);
    names.push(r.name.toUpperCase());
  }
  const ix = keys.index();
  cas.forEach((c, ord) => ix.addCasNumbers(c, ord));
  return { joiner: new LabelJoiner(ix), names };
}

/** Precision and coverage of a joiner on the set: a split must give both records; a join to one part of a split is wrong. */
export function score(items: readonly EvalItem[], joiner: LabelJoiner<number>, names: readonly string[]): EvalScore {
  let joined = 0;
  let right = 0;
  const wrong: EvalScore['wrong'] = [];
  for (const it of items) {
    const got = joinEntries([{ label_name: it.label, concentration: null, may_contain: false }], joiner)
      .map((e) => (e.join === null ? null : names[e.join.target]))
      .filter((n): n is string => n !== null);
    if (got.length === 0) continue;
    joined++;
    if (it.expected.some((a) => a.length === got.length && a.every((n, i) => n === got[i]))) right++;
    else
      wrong.push({
        label: it.label,
        expected: it.expected.map((a) => a.join(' + ') || 'unrecognised').join(' | '),
        got: got.join(' + '),
      });
  }
  return { items: items.length, joined, right, precision: right / joined, coverage: joined / items.length, wrong };
}

function main(): void {
  const { joiner, names } = sampleJoiner();
  const s = score(readEvalSet(), joiner, names);
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(
    `${s.items} entries, ${s.joined} joined, ${s.right} right: precision ${pct(s.precision)}, coverage ${pct(s.coverage)}`,
  );
  for (const w of s.wrong) console.log(`  wrong: ${w.label}  →  ${w.got}  (expected ${w.expected})`);
}

if (require.main === module) main();
