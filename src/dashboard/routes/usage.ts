// A developer's usage: calls per day of this or last month, per key and in total, refused
// calls (429) apart, as a chart (uPlot, data in a JSON block) and as the table of the same
// numbers, and a CSV of them. Guarantees: only the signed-in account's keys are read; months
// other than this one and the last are refused with a message.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dayOf, daysOf, monthOf, previousMonth, type DailyRow, type KeyRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { csv } from '../csv';
import { requireUser } from './guards';

const HIDE = { schema: { hide: true } };

export interface UsageTable {
  month: string;
  days: string[];
  keys: { id: string; name: string }[];
  /** calls[d][k]: calls of key k on day d. */
  calls: number[][];
  /** refusedBy[d][k]: 429s of key k on day d. */
  refusedBy: number[][];
  total: number[];
  refused: number[];
  cumulative: number[];
  /** The last day with figures (today in the current month): the chart's month-so-far line stops there. */
  upTo: string;
  /** For the whole account and month (the plan's); null for none. */
  included: number | null;
  ceiling: number | null;
  ceilingText: string;
}

export function usageTable(
  month: string,
  keys: KeyRecord[],
  rows: DailyRow[],
  included: number | null,
  ceiling: number | null,
  ceilingText: string,
  today = '9999-12-31',
): UsageTable {
  const days = daysOf(month);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const keyIndex = new Map(keys.map((k, i) => [k.id, i]));
  const calls = days.map(() => keys.map(() => 0));
  const refusedBy = days.map(() => keys.map(() => 0));
  for (const r of rows) {
    const d = dayIndex.get(r.day);
    const k = keyIndex.get(r.keyId);
    if (d === undefined || k === undefined) continue;
    calls[d][k] += r.calls;
    refusedBy[d][k] += r.refused;
  }
  const refused = refusedBy.map((c) => c.reduce((a, b) => a + b, 0));
  const total = calls.map((c) => c.reduce((a, b) => a + b, 0));
  let sum = 0;
  const cumulative = total.map((t) => (sum += t));
  return {
    month,
    days,
    keys: keys.map((k) => ({ id: k.id, name: k.name || k.id })),
    calls,
    refusedBy,
    total,
    refused,
    cumulative,
    upTo: days.filter((d) => d <= today).at(-1) ?? days[0],
    included,
    ceiling,
    ceilingText,
  };
}

async function tableFor(req: FastifyRequest, deps: DashboardDeps): Promise<UsageTable | string> {
  const { accounts } = deps;
  const user = req.user!;
  const current = monthOf(accounts.now());
  const asked = (req.query as Record<string, unknown>).month;
  const month = typeof asked === 'string' && asked !== '' ? asked : current;
  if (month !== current && month !== previousMonth(current))
    return `Usage is shown for ${current} and ${previousMonth(current)}; choose one of them.`;
  const keys = (await accounts.keys(user.name)).sort((a, b) => a.createdAt - b.createdAt);
  const rows = await accounts.daily(user.name, month, keys);
  const plan = accounts.plans.get(user.plan ?? keys[0]?.plan ?? '');
  const trial = plan?.trial ?? null;
  return usageTable(
    month,
    keys,
    rows,
    trial ? null : (plan?.monthlyIncluded ?? null),
    trial ? trial.requests : (plan?.monthlyCeiling ?? null),
    trial ? 'trial requests (whole account, ever)' : 'ceiling (whole account)',
    dayOf(accounts.now()),
  );
}

export function usageRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/usage', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const current = monthOf(deps.accounts.now());
    const t = await tableFor(req, deps);
    const months = [current, previousMonth(current)];
    if (typeof t === 'string') return reply.code(400).page('usage.eta', { title: 'Usage', error: t, months });
    return reply.page('usage.eta', { title: 'Usage', t, months, chart: JSON.stringify(t) });
  });

  app.get('/usage.csv', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const t = await tableFor(req, deps);
    if (typeof t === 'string')
      return reply
        .code(400)
        .type('text/plain; charset=utf-8')
        .send(t + '\n');
    const rows: (string | number)[][] = [];
    t.days.forEach((day, d) => {
      t.keys.forEach((k, i) => rows.push([day, k.id, k.name, t.calls[d][i], t.refusedBy[d][i]]));
      rows.push([day, 'total', '', t.total[d], t.refused[d]]);
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="usage-${t.month}.csv"`)
      .send(csv(['day', 'key_id', 'key_name', 'calls', 'refused'], rows));
  });
}
