// The plans a deployment offers: the four built in (operator-cli.md) plus any read from a
// plans file (docs/metering.md). Guarantees: a plan is defined once, as the TypeBox schema
// PlanSchema (the Plan type is derived from it); every plan returned passed its compiled
// checker and the rules a schema cannot state (ceiling not below included, unique
// names); a bad plans file is refused with an error naming the file, the entry and the
// field, in the words of the field's `description`.
import { readFileSync } from 'node:fs';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';

const Count = (minimum: number) =>
  Type.Integer({ minimum, maximum: Number.MAX_SAFE_INTEGER, description: `must be an integer ≥ ${minimum}` });
const CountOrNull = (minimum: number) =>
  Type.Union([Count(minimum), Type.Null()], { description: `must be an integer ≥ ${minimum} or null` });

export const PlanSchema = Type.Object(
  {
    name: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
      description: "must be 1 to 64 letters, digits, '.', '_' or '-'",
    }),
    /** Trial: lifetime allowance for the whole account, and days until it expires. */
    trial: Type.Union(
      [Type.Object({ requests: Count(1), days: Count(1) }, { additionalProperties: false }), Type.Null()],
      { description: 'must be null or {"requests": N, "days": D}' },
    ),
    /** Calls a month (UTC) included in the price; null when the plan has no monthly allowance. */
    monthlyIncluded: CountOrNull(0),
    /** Hard monthly ceiling; requests past it get 429. null for none. */
    monthlyCeiling: CountOrNull(1),
    /** Requests per second per key; null for no limit. */
    ratePerSecond: CountOrNull(1),
    barcode: Type.Boolean({ description: 'must be true or false' }),
    /** The price as the plans page shows it (the operator's words); none: "price on request". */
    price: Type.Optional(Type.String({ maxLength: 200, description: 'must be a text of at most 200 characters' })),
    /** How a user may choose it on the plans page: at once (free), through billing (paid), or not at all. */
    choice: Type.Optional(
      Type.Union([Type.Literal('free'), Type.Literal('paid'), Type.Literal('none')], {
        description: 'must be "free", "paid" or "none"',
      }),
    ),
    /** Stripe mode: the plan's subscription price, and the metered price and meter its overage is billed by. */
    stripe: Type.Optional(
      Type.Object(
        {
          price: Type.String({ pattern: '^price_[A-Za-z0-9]+$', description: 'must be a Stripe price id (price_…)' }),
          overagePrice: Type.Optional(
            Type.String({ pattern: '^price_[A-Za-z0-9]+$', description: 'must be a Stripe price id (price_…)' }),
          ),
          meter: Type.Optional(
            Type.String({
              pattern: '^[A-Za-z0-9_.-]{1,100}$',
              description: "must be a meter event name: 1 to 100 letters, digits, '_', '.' or '-'",
            }),
          ),
        },
        { additionalProperties: false, description: 'must be {"price": "price_…", "overagePrice": …, "meter": …}' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Plan = Static<typeof PlanSchema>;
const PlanCheck = TypeCompiler.Compile(PlanSchema);
const FIELDS = Object.keys(PlanSchema.properties);
const REQUIRED = PlanSchema.required ?? [];

export const BUILT_IN_PLANS: readonly Plan[] = [
  {
    name: 'trial',
    trial: { requests: 100, days: 14 },
    monthlyIncluded: null,
    monthlyCeiling: null,
    ratePerSecond: 5,
    barcode: true,
  },
  {
    name: 'sandbox',
    trial: null,
    monthlyIncluded: 100,
    monthlyCeiling: 100,
    ratePerSecond: 5,
    barcode: false,
    price: 'Free',
    choice: 'free',
  },
  {
    name: 'starter',
    trial: null,
    monthlyIncluded: 10_000,
    monthlyCeiling: 50_000,
    ratePerSecond: 50,
    barcode: false,
    choice: 'paid',
  },
  {
    name: 'pro',
    trial: null,
    monthlyIncluded: 100_000,
    monthlyCeiling: 500_000,
    ratePerSecond: 200,
    barcode: true,
    choice: 'paid',
  },
];

/** How a user may choose the plan: the plan's `choice`, else none (a trial is only given at sign-up). */
export function choiceOf(plan: Plan): 'free' | 'paid' | 'none' {
  return plan.choice ?? 'none';
}

export type Plans = ReadonlyMap<string, Plan>;

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
  if (!PlanCheck.Check(v)) throw new Error(explain(v, where));
  if (v.monthlyIncluded !== null && v.monthlyCeiling !== null && v.monthlyCeiling < v.monthlyIncluded) {
    throw new Error(`${where} ("${v.name}"): monthlyCeiling must not be below monthlyIncluded`);
  }
  return v;
}

/** Why `v` is not a plan: the first broken rule, in field order. */
function explain(v: unknown, where: string): string {
  if (!isObject(v)) return `${where}: must be an object`;
  for (const k of Object.keys(v))
    if (!FIELDS.includes(k)) return `${where}: unknown field "${k}" (fields: ${FIELDS.join(', ')})`;
  for (const k of REQUIRED) if (!(k in v)) return `${where}: field "${k}" is missing`;
  const name = PlanSchema.properties.name;
  if (!Value.Check(name, v.name)) return `${where}: name ${name.description}`;
  return `${where} ("${String(v.name)}"): ${firstBroken(PlanSchema, v, '')}`;
}

/**
 * The first field of `o` that breaks its schema, with the field's rule. A value with
 * exactly the fields of an object schema it may be is explained field by field
 * (`trial.requests`); anything else by the rule of the field as a whole.
 */
function firstBroken(schema: TObject, o: Record<string, unknown>, prefix: string): string {
  for (const [k, s] of Object.entries(schema.properties)) {
    if (Value.Check(s, o[k])) continue;
    const inner = objectSchemaOf(s);
    const x = o[k];
    if (inner !== undefined && isObject(x) && sameKeys(x, inner)) return firstBroken(inner, x, `${prefix}${k}.`);
    return `${prefix}${k} ${s.description}`;
  }
  return `${prefix}does not match the plan schema`;
}

function objectSchemaOf(s: TSchema): TObject | undefined {
  if (s.type === 'object') return s as TObject;
  return (s.anyOf as TSchema[] | undefined)?.find((m) => m.type === 'object') as TObject | undefined;
}

function sameKeys(o: Record<string, unknown>, schema: TObject): boolean {
  return Object.keys(o).sort().join() === Object.keys(schema.properties).sort().join();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
