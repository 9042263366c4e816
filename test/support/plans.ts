// The plans the tests put keys on, named once: each test's plans file is a selection of
// these. Each is a Plan of src/access/plans.ts, checked by its type.
import type { Plan } from '../../src/access/plans';

/** No trial, no monthly limit or ceiling, no rate limit, barcode lookups allowed. */
const OPEN = { trial: null, monthlyIncluded: null, monthlyCeiling: null, ratePerSecond: null, barcode: true } as const;

export const PLANS = {
  trialFree: { ...OPEN, name: 'trial-free', trial: { requests: 100, days: 14 } },
  capped: { ...OPEN, name: 'capped', monthlyIncluded: 100, monthlyCeiling: 100, barcode: false },
  paid: { ...OPEN, name: 'paid', monthlyIncluded: 10, monthlyCeiling: 50, barcode: false },
  unlimited: { ...OPEN, name: 'unlimited' },
  /** The plan of the load and process tests (support/serve-process.ts). */
  load: { ...OPEN, name: 'load' },
  /** The plans-file tests' plan (access-cli.test.ts). */
  bench: { ...OPEN, name: 'bench' },
  /** Limits a test reaches in one or two requests (support/sample-server.ts). */
  onePerSecond: { ...OPEN, name: 'one-per-second', ratePerSecond: 1 },
  oneAMonth: { ...OPEN, name: 'one-a-month', monthlyCeiling: 1 },
  oneTrialRequest: { ...OPEN, name: 'one-trial-request', trial: { requests: 1, days: 14 } },
} satisfies Record<string, Plan>;
