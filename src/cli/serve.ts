// `catalogue serve`: serves the HTTP API of a built catalogue (operator-cli.md).
// Guarantees: SIGHUP (or renaming a new file over --catalogue) switches catalogues
// without downtime; SIGTERM/SIGINT stop accepting, let in-flight requests finish and
// exit 0, or exit 1 once --stop-timeout has passed (a second signal stops at once).
// Not close-with-grace (as fastify/demo uses): it installs its own SIGTERM/SIGINT handlers
// in every process, while under --workers a worker must ignore the terminal's signals and
// stop once on the primary's relayed message (src/cluster.ts); the timeout and
// second-signal rule it would replace are the few lines of stop() below.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { option } from './options';
import { startServer, type ServeOptions } from '../server';
import { DEFAULT_LABEL_QUEUE_PER_THREAD } from '../catalogue/label-pool';
import type { DashboardSettings } from '../dashboard';
import { announce, onStopSignal, runPrimary, servesItself } from '../cluster';
import { checkMailOptions } from '../mail';
import { parseTrustProxy, type TrustProxy } from '../http/trust-proxy';

/** Why --metrics-port and --workers above 1 are refused together. */
export const METRICS_WITH_WORKERS =
  '--metrics-port serves one process; run one instance per core instead of --workers to scrape each';

export interface ServeCliOptions {
  catalogue: string;
  host: string;
  port: number;
  access?: string;
  plans?: string;
  metricsPort?: number;
  metricsHost: string;
  stopTimeout: number;
  workers?: number;
  labelThreads?: number;
  labelQueue?: number;
  dashboard: 'on' | 'off';
  dashboardPort?: number;
  signup: 'open' | 'invite';
  signupPlan: string;
  billingText?: string;
  billingTextFile?: string;
  trustProxy?: TrustProxy;
  sessionSecret?: string;
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  smtpUrl?: string;
  mailFrom?: string;
  publicUrl?: string;
}

function dashboardSettings(o: ServeCliOptions): DashboardSettings | undefined {
  if (o.dashboard === 'off') return undefined;
  if (o.billingText !== undefined && o.billingTextFile !== undefined)
    throw new Error('give --billing-text or --billing-text-file, not both');
  let billingText = o.billingText ?? '';
  if (o.billingTextFile !== undefined) {
    try {
      billingText = readFileSync(o.billingTextFile, 'utf8');
    } catch (err) {
      throw new Error(
        `--billing-text-file ${o.billingTextFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
  }
  if (billingText.length > 10_000) throw new Error('the billing text has more than 10,000 characters');
  if (o.sessionSecret !== undefined && o.sessionSecret.length < 32)
    throw new Error('--session-secret must have at least 32 characters');
  checkMailOptions({ smtpUrl: o.smtpUrl, from: o.mailFrom });
  if ((o.stripeSecretKey === undefined) !== (o.stripeWebhookSecret === undefined))
    throw new Error('Stripe mode needs both --stripe-secret-key and --stripe-webhook-secret');
  if (o.stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(o.stripeSecretKey))
    throw new Error('--stripe-secret-key must be a Stripe secret key (sk_test_…, sk_live_…, rk_…)');
  if (o.stripeWebhookSecret !== undefined && !o.stripeWebhookSecret.startsWith('whsec_'))
    throw new Error('--stripe-webhook-secret must be a webhook signing secret (whsec_…)');
  return {
    signup: o.signup,
    signupPlan: o.signupPlan,
    billingText: billingText.trim(),
    trustProxy: o.trustProxy ?? false,
    sessionSecret: o.sessionSecret,
    mail: { smtpUrl: o.smtpUrl, from: o.mailFrom },
    stripe:
      o.stripeSecretKey === undefined
        ? undefined
        : { secretKey: o.stripeSecretKey, webhookSecret: o.stripeWebhookSecret! },
    publicUrl: o.publicUrl,
  };
}

/** The options `serve` and `demo` share, but the dashboard's: where to listen, the access store, plans, metrics, stop. */
export function addServingOptions(cmd: Command): Command {
  return cmd
    .addOption(option('host'))
    .addOption(option('port').argParser(parsePort))
    .addOption(option('access'))
    .addOption(option('plans'))
    .addOption(option('metricsPort').argParser(portParser('--metrics-port')))
    .addOption(option('metricsHost'))
    .addOption(option('stopTimeout').argParser(parseSeconds))
    .addOption(option('labelThreads').argParser(countParser('--label-threads', 1, 64)))
    .addOption(option('labelQueue').argParser(countParser('--label-queue', 0, 100_000)));
}

/** The dashboard's options; `signup` is the default sign-up (the table's unless given). */
export function addDashboardOptions(cmd: Command, signup?: 'open' | 'invite'): Command {
  const signupOption = option('signup').argParser(oneOf('--signup', ['open', 'invite']));
  return cmd
    .addOption(option('dashboard').argParser(oneOf('--dashboard', ['on', 'off'])))
    .addOption(option('dashboardPort').argParser(portParser('--dashboard-port')))
    .addOption(signup === undefined ? signupOption : signupOption.default(signup))
    .addOption(option('signupPlan'))
    .addOption(option('billingText'))
    .addOption(option('billingTextFile'))
    .addOption(option('stripeSecretKey'))
    .addOption(option('stripeWebhookSecret'))
    .addOption(option('smtpUrl'))
    .addOption(option('mailFrom'))
    .addOption(option('publicUrl').argParser(parsePublicUrl))
    .addOption(option('trustProxy').argParser(parseTrustProxy).preset('1'))
    .addOption(option('sessionSecret'));
}

function parsePublicUrl(v: string): string {
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(v))
    throw new Error(`--public-url must be an http:// or https:// address, not "${v}"`);
  return v.replace(/\/+$/, '');
}

function oneOf(flag: string, values: string[]): (v: string) => string {
  return (v) => {
    if (!values.includes(v)) throw new Error(`${flag} must be ${values.join(' or ')}, not "${v}"`);
    return v;
  };
}

export function register(program: Command): void {
  const cmd = program
    .command('serve')
    .description('serve the HTTP API of a catalogue file')
    .addOption(option('catalogue').makeOptionMandatory());
  addServingOptions(cmd).addOption(option('workers').argParser(parseWorkers));
  addDashboardOptions(cmd).action(async (opts: ServeCliOptions) => {
    const workers = opts.workers ?? 1;
    if (workers > 1 && opts.metricsPort !== undefined) throw new Error(METRICS_WITH_WORKERS);
    if (servesItself(workers)) await serve(opts);
    else await runPrimary(workers);
  });
}

/**
 * The old generation may grow to 1.5 × what the last full collection kept, not up to 4 × (V8's
 * choice when collections are cheap): garbage promoted under load is collected before it
 * doubles the serving process's memory (docs/performance.md, "Serving memory").
 */
const HEAP_GROWING_PERCENT = 50;

export async function serve(opts: ServeCliOptions, onReady?: (dashboardUrl?: string) => void): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const server = await startServer({ ...opts, dashboard: dashboardSettings(opts), labelPool: labelPool(opts) });
  process.on('SIGHUP', () => void server.reloader.reload('SIGHUP'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // a second signal stops at once
    stopping = true;
    server.app.log.info({ signal }, 'stopping: no new connections; waiting for in-flight requests');
    setTimeout(() => {
      process.stderr.write(`catalogue: requests still running ${opts.stopTimeout} s after ${signal}; stopped anyway\n`);
      process.exit(1);
    }, opts.stopTimeout * 1000).unref();
    server.close().then(
      async () => {
        server.app.log.info({ signal }, 'stopped');
        await server.flushLog(); // every line written before the process goes
        process.exit(0);
      },
      (err) => {
        process.stderr.write(`catalogue: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  onStopSignal(stop);
  const c = server.catalogue.current;
  const metrics = server.metricsUrl ? `, metrics at ${server.metricsUrl}` : '';
  if (server.dashboardUrl) server.app.log.info({ url: server.dashboardUrl }, 'dashboard served');
  onReady?.(server.dashboardUrl);
  announce(
    `catalogue: serving ${c.products} products and ${c.ingredients} ingredients (built ${c.builtAt}) at ${server.url}${metrics}\n`,
  );
}

export const parsePort = portParser('--port');

function portParser(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 0 || n > 65535)
      throw new Error(`${option} must be an integer from 0 to 65535, not "${value}"`);
    return n;
  };
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > 64)
    throw new Error(`--workers must be an integer from 1 to 64, not "${value}"`);
  return n;
}

/** The label pool options given (the queue defaults to 8 per thread given). */
function labelPool(o: ServeCliOptions): ServeOptions['labelPool'] {
  const threads = o.labelThreads;
  const queue = o.labelQueue ?? (threads === undefined ? undefined : threads * DEFAULT_LABEL_QUEUE_PER_THREAD);
  return { ...(threads === undefined ? {} : { threads }), ...(queue === undefined ? {} : { queue }) };
}

function countParser(option: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < min || n > max)
      throw new Error(`${option} must be an integer from ${min} to ${max}, not "${value}"`);
    return n;
  };
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || n <= 0)
    throw new Error(`--stop-timeout must be a positive number of seconds, not "${value}"`);
  return n;
}
