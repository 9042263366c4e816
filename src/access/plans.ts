// The plans a deployment offers: the four built in (operator-cli.md) plus any read from a
// plans file. Guarantees: every plan returned is fully validated; a bad plans file is
// refused with an error naming the file, the entry and the field.
import { readFileSync } from 'node:fs';
import type { Plan } from './types';

export const BUILT_IN_PLANS: readonly Plan[] = [
  {
    name: 'trial',
    trial: { requests: 100, days: 14 },
    monthlyIncluded: null,
    monthlyCeiling: null,
    ratePerSecond: 5,
    barcode: true,
  },
  { name: 'sandbox', trial: null, monthlyIncluded: 100, monthlyCeiling: 100, ratePerSecond: 5, barcode: false },
  { name: 'starter', trial: null, monthlyIncluded: 10_000, monthlyCeiling: 50_000, ratePerSecond: 50, barcode: false },
  { name: 'pro', trial: null, monthlyIncluded: 100_000, monthlyCeiling: 500_000, ratePerSecond: 200, barcode: true },
];

export type Plans = ReadonlyMap<string, Plan>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FIELDS = ['name', 'trial', 'monthlyIncluded', 'monthlyCeiling', 'ratePerSecond', 'barcode'];

/** Built-in plans, overridden or extended by the plans file when one is given. */
export function loadPlans(file?: string): Plans {
  const plans = new Map(BUILT_IN_PLANS.map((p) => [p.name, p]));
  if (file === undefined || file === '') return plans;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`plans file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`plans file ${file}: not valid JSON (${(err as Error).message})`);
  }
  for (const plan of parsePlans(doc, `plans file ${file}`)) plans.set(plan.name, plan);
  return plans;
}

export function parsePlans(doc: unknown, where: string): Plan[] {
  if (!Array.isArray(doc)) throw new Error(`${where}: must be a JSON array of plans`);
  const seen = new Set<string>();
  return doc.map((entry, i) => {
    const plan = parsePlan(entry, `${where}: plan [${i}]`);
    if (seen.has(plan.name)) throw new Error(`${where}: plan [${i}]: name "${plan.name}" appears twice`);
    seen.add(plan.name);
    return plan;
  });
}

function parsePlan(v: unknown, where: string): Plan {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${where}: must be an object`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!FIELDS.includes(k)) throw new Error(`${where}: unknown field "${k}" (fields: ${FIELDS.join(', ')})`);
  for (const k of FIELDS) if (!(k in o)) throw new Error(`${where}: field "${k}" is missing`);
  if (typeof o.name !== 'string' || !NAME.test(o.name))
    throw new Error(`${where}: name must be 1 to 64 letters, digits, '.', '_' or '-'`);
  const at = `${where} ("${o.name}")`;
  let trial: Plan['trial'] = null;
  if (o.trial !== null) {
    const t = o.trial as Record<string, unknown>;
    if (typeof t !== 'object' || Array.isArray(t) || Object.keys(t).sort().join() !== 'days,requests') {
      throw new Error(`${at}: trial must be null or {"requests": N, "days": D}`);
    }
    trial = { requests: count(t.requests, `${at}: trial.requests`, 1), days: count(t.days, `${at}: trial.days`, 1) };
  }
  const monthlyIncluded = nullableCount(o.monthlyIncluded, `${at}: monthlyIncluded`, 0);
  const monthlyCeiling = nullableCount(o.monthlyCeiling, `${at}: monthlyCeiling`, 1);
  if (monthlyIncluded !== null && monthlyCeiling !== null && monthlyCeiling < monthlyIncluded) {
    throw new Error(`${at}: monthlyCeiling must not be below monthlyIncluded`);
  }
  const ratePerSecond = nullableCount(o.ratePerSecond, `${at}: ratePerSecond`, 1);
  if (typeof o.barcode !== 'boolean') throw new Error(`${at}: barcode must be true or false`);
  return { name: o.name, trial, monthlyIncluded, monthlyCeiling, ratePerSecond, barcode: o.barcode };
}

function nullableCount(v: unknown, where: string, min: number): number | null {
  return v === null ? null : count(v, where, min, ' or null');
}

function count(v: unknown, where: string, min: number, orNull = ''): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new Error(`${where} must be an integer ≥ ${min}${orNull}`);
  }
  return v;
}
