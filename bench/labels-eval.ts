// The label evaluation set (data/labels-eval.tsv, docs/data-report.md): printed names from
// the bundled sample's real labels, each with the CosIng record it stands for, two records
// ("A + B": two names printed without a comma) or "unrecognised", checked by hand. Scored
// against the served catalogue's rules: the join index a build makes of the sample's
// CosIng ingredients (names, curated aliases, other_names as synonyms; no label-only
// ingredients, no product spellings: "unrecognised" means no CosIng record).
// data/labels-eval-held-out.tsv is a part kept aside: real label strings of the same
// patterns that the rules were not tuned on, scored apart.
// `node dist/bench/labels-eval.js [--without step,step]` prints precision (right joins /
// joins) and coverage, overall, on the held-out part and per rule (the joiner's step that
// made each join, src/labels/joiner.ts JOIN_STEPS, or split); --without switches steps off.
// Guarantees: reads only; deterministic.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { LabelKeysBuilder, isWeakRecord } from '../src/builder/label-keys';
import { LabelJoiner, type JoinStepName } from '../src/labels/joiner';
import { ingredientId } from '../src/sample/dictionary';
import { joinEntries } from '../src/labels/join-entries';
import { withoutAmounts } from '../src/sample/fragments';

const ROOT = path.join(__dirname, '..', '..');

export interface EvalItem {
  label: string;
  /** Accepted answers: each a list of upper-case names (one, or two for a split); [] for unrecognised ("A | unrecognised": either). */
  expected: string[][];
}

export interface EvalScore {
  items: number;
  joined: number;
  right: number;
  precision: number;
  coverage: number;
  wrong: { label: string; expected: string; got: string; step: string }[];
  /** Per step that made the join (JOIN_STEPS or split): joins and right joins. */
  steps: Record<string, { joined: number; right: number }>;
}

export const HELD_OUT = path.join(ROOT, 'data', 'labels-eval-held-out.tsv');

export function readEvalSet(file = path.join(ROOT, 'data', 'labels-eval.tsv')): EvalItem[] {
  const out: EvalItem[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [label, expected] = line.split('\t');
    out.push({
      label,
      expected: expected.split(' | ').map((a) => (a === 'unrecognised' ? [] : a.split(' + '))),
    });
  }
  return out;
}

interface SampleRecord {
  id: string;
  name: string;
  other_names: string | null;
  cas_number: string | null;
  ec_number: string | null;
  functions: string[];
}

/** The sample's ingredient records (ingredients.jsonl.gz). */
function sampleRecords(dir: string): SampleRecord[] {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'ingredients.jsonl.gz'))).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SampleRecord);
}

/**
 * The sample catalogue's join index and its names. `served` false (the default): what
 * `catalogue build` stores less its label-only ingredients and its products' spellings
 * (the CosIng rules alone); true: all of it, as POST /v1/labels/analyze joins on the
 * bundled sample, a label-only ingredient's name given as "label-only: Name".
 */
export function sampleJoiner(
  dir = path.join(ROOT, 'data', 'sample'),
  without: readonly JoinStepName[] = [],
  served = false,
): {
  joiner: LabelJoiner<number>;
  names: string[];
} {
  const keys = new LabelKeysBuilder();
  const names: string[] = [];
  const ords = new Map<string, number>();
  for (const r of sampleRecords(dir)) {
    const cosing = r.id === ingredientId(r.name);
    if (!cosing && !served) continue; // a label-only ingredient
    ords.set(r.id, names.length);
    keys.ingredient(names.length, r.name, r.other_names, isWeakRecord(r), r.cas_number);
    names.push(cosing ? r.name.toUpperCase() : `label-only: ${r.name}`);
  }
  if (served) {
    const text = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'products.jsonl.gz'))).toString('utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const p = JSON.parse(line) as { ingredients: { id: string; label_name: string }[] };
      for (const e of p.ingredients) keys.entry(e.label_name, ords.get(e.id) as number);
    }
  }
  const ix = keys.index();
  return { joiner: new LabelJoiner(ix, { without }), names };
}

/** Precision and coverage of a joiner on the set: a split must give both records; a join to one part of a split is wrong. */
export function score(items: readonly EvalItem[], joiner: LabelJoiner<number>, names: readonly string[]): EvalScore {
  let joined = 0;
  let right = 0;
  const wrong: EvalScore['wrong'] = [];
  const steps: EvalScore['steps'] = {};
  for (const it of items) {
    const joins = joinEntries([{ label_name: it.label, concentration: null, may_contain: false }], joiner)
      .map((e) => e.join)
      .filter((j) => j !== null);
    const got = joins.map((j) => names[j.target]);
    // The label's own label-only record (the served catalogue): unrecognised, not a join.
    if (got.length === 1 && ownRecord(it.label, got[0])) continue;
    if (got.length === 0) continue;
    joined++;
    const step = joins[0].step ?? joins[0].rule ?? joins[0].how;
    const st = (steps[step] ??= { joined: 0, right: 0 });
    st.joined++;
    if (it.expected.some((a) => a.length === got.length && a.every((n, i) => n === got[i]))) {
      right++;
      st.right++;
    } else
      wrong.push({
        label: it.label,
        expected: it.expected.map((a) => a.join(' + ') || 'unrecognised').join(' | '),
        got: got.join(' + '),
        step,
      });
  }
  return {
    items: items.length,
    joined,
    right,
    precision: joined === 0 ? 1 : right / joined,
    coverage: joined / items.length,
    wrong,
    steps,
  };
}

/** A label-only record named as the label is printed (letters and digits alike), or as it is without its amounts (fragments.ts). */
function ownRecord(label: string, name: string): boolean {
  const key = (x: string) => x.toUpperCase().replace(/[^A-Z0-9]+/g, '');
  const own = key(name.slice(12));
  return name.startsWith('label-only: ') && (own === key(label) || own === key(withoutAmounts(label).join(' ')));
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The score as lines: overall, then per step in JOIN_STEPS order (split last), then the wrong joins. */
export function scoreLines(title: string, s: EvalScore): string[] {
  const out = [
    `${title}: ${s.items} entries, ${s.joined} joined, ${s.right} right: precision ${pct(s.precision)}, coverage ${pct(s.coverage)}`,
  ];
  for (const [step, st] of Object.entries(s.steps).sort((a, b) => b[1].joined - a[1].joined))
    out.push(
      `  ${step.padEnd(16)} joins ${String(st.joined).padStart(4)}, right ${String(st.right).padStart(4)}: precision ${pct(st.right / st.joined).padStart(7)}, coverage ${pct(st.joined / s.items).padStart(6)}`,
    );
  for (const w of s.wrong) out.push(`  wrong: ${w.label}  →  ${w.got}  (expected ${w.expected}; ${w.step})`);
  return out;
}

function main(argv: readonly string[]): void {
  const at = argv.indexOf('--without');
  const without = (at < 0 ? '' : (argv[at + 1] ?? '')).split(',').filter((x) => x !== '') as JoinStepName[];
  const lines: string[] = [];
  for (const served of [false, true]) {
    const { joiner, names } = sampleJoiner(undefined, without, served);
    const on = served ? 'served sample catalogue (with its label-only records and spellings)' : 'CosIng records';
    lines.push(...scoreLines(`evaluation set, ${on}`, score(readEvalSet(), joiner, names)));
    if (fs.existsSync(HELD_OUT))
      lines.push(...scoreLines(`held-out part, ${on}`, score(readEvalSet(HELD_OUT), joiner, names)));
  }
  if (without.length > 0) lines.unshift(`steps switched off: ${without.join(', ')}`);
  console.log(lines.join('\n'));
}

if (require.main === module) main(process.argv.slice(2));
