// The one table of command-line options that can also come from the environment
// (as Datasette's settings): flag, environment variable, default, --help text and
// the README's wording. Guarantees: every command declares these options from this
// table only, and README.md's configuration table is `readmeTable()` verbatim (a
// test fails when they disagree).
import { Option } from 'commander';

export interface OptionSpec {
  /** The flag with its argument as commander reads it, e.g. `--port <port>`. */
  flags: string;
  /** The argument as the README shows it, e.g. `PORT` (empty for environment-only settings). */
  arg: string;
  env: string;
  /** commander's default value (none: undefined). */
  value?: string | number;
  /** The default as the README says it. */
  shownDefault: string;
  help: string;
  meaning: string;
}

export const OPTIONS = {
  catalogue: {
    flags: '--catalogue <file>',
    arg: 'FILE',
    env: 'CATALOGUE_DB',
    shownDefault: '(required for `serve`)',
    help: 'catalogue database file made by `catalogue build`; SIGHUP or renaming a new file over it switches to the new file',
    meaning: 'catalogue database file made by `build`',
  },
  source: {
    flags: '--source <dir>',
    arg: 'DIR',
    env: 'CATALOGUE_SOURCE',
    shownDefault: '(required for `build`)',
    help: 'catalogue source directory',
    meaning: 'catalogue source directory',
  },
  out: {
    flags: '--out <file>',
    arg: 'FILE',
    env: 'CATALOGUE_DB',
    shownDefault: '(required for `build`)',
    help: 'catalogue database file to write',
    meaning: 'where `build` writes the catalogue',
  },
  builtAt: {
    flags: '--built-at <date>',
    arg: 'YYYY-MM-DD',
    env: 'BUILT_AT',
    shownDefault: 'today (UTC)',
    help: 'date reported as built_at (YYYY-MM-DD; default today, UTC)',
    meaning: 'build date reported by `/health`',
  },
  host: {
    flags: '--host <host>',
    arg: 'HOST',
    env: 'HOST',
    value: '127.0.0.1',
    shownDefault: '`127.0.0.1`',
    help: 'address to listen on',
    meaning: 'listen address',
  },
  port: {
    flags: '--port <port>',
    arg: 'PORT',
    env: 'PORT',
    value: 8080,
    shownDefault: '`8080`',
    help: 'port to listen on',
    meaning: 'listen port',
  },
  access: {
    flags: '--access <store>',
    arg: 'STORE',
    env: 'ACCESS_STORE',
    shownDefault: '`sqlite:<project>/var/access.sqlite`',
    help: 'API keys and usage store: sqlite:PATH, redis://, rediss://, redis-sentinel:// or redis-cluster:// (docs/metering.md; default sqlite:var/access.sqlite in the project)',
    meaning:
      'keys and usage: `sqlite:PATH`, `redis://HOST:PORT[/DB]`, `rediss://…`, `redis-sentinel://S1:P1,…/MASTER`, `redis-cluster://H1:P1,…` ([docs/metering.md](docs/metering.md))',
  },
  plans: {
    flags: '--plans <file>',
    arg: 'FILE',
    env: 'PLANS_FILE',
    shownDefault: 'none',
    help: 'JSON file of plans added to the built-in ones',
    meaning: 'JSON array of extra plans',
  },
  metricsPort: {
    flags: '--metrics-port <port>',
    arg: 'PORT',
    env: 'METRICS_PORT',
    shownDefault: 'off',
    help: "serve Prometheus metrics at http://METRICS_HOST:PORT/metrics (off by default); they are one process's: refused with --workers above 1 (run one instance per core, each with its own metrics port)",
    meaning: 'Prometheus metrics at `/metrics` on a separate port, of one process: refused with `--workers` above 1',
  },
  metricsHost: {
    flags: '--metrics-host <host>',
    arg: 'HOST',
    env: 'METRICS_HOST',
    value: '127.0.0.1',
    shownDefault: '`127.0.0.1`',
    help: 'address the metrics port listens on; keep it private',
    meaning: 'address of the metrics port (keep it private)',
  },
  stopTimeout: {
    flags: '--stop-timeout <seconds>',
    arg: 'SECONDS',
    env: 'STOP_TIMEOUT',
    value: 10,
    shownDefault: '`10`',
    help: 'on SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway',
    meaning: 'how long a stop waits for in-flight requests',
  },
  workers: {
    flags: '--workers <n>',
    arg: 'N',
    env: 'WORKERS',
    value: 1,
    shownDefault: '`1`',
    help: 'server processes sharing the port, one per core is typical; not with --metrics-port',
    meaning: 'server processes sharing the port (node:cluster); not with `--metrics-port`',
  },
  labelThreads: {
    flags: '--label-threads <n>',
    arg: 'N',
    env: 'LABEL_THREADS',
    shownDefault: 'half the cores, 1 to 4',
    help: 'worker threads per server process that analyse labels (POST /v1/labels/analyze), off the request thread; default half the cores, 1 to 4',
    meaning: 'worker threads per server process analysing labels, off the request thread',
  },
  labelQueue: {
    flags: '--label-queue <n>',
    arg: 'N',
    env: 'LABEL_QUEUE',
    shownDefault: '8 per label thread',
    help: 'labels that may wait for a label thread; beyond them a label analysis is answered 503 with Retry-After; default 8 per label thread',
    meaning: 'labels waiting for a label thread; beyond them label analysis answers 503 (Retry-After)',
  },
  dashboard: {
    flags: '--dashboard <on|off>',
    arg: 'on\\|off',
    env: 'DASHBOARD',
    value: 'on',
    shownDefault: '`on`',
    help: 'serve the developer dashboard under /dashboard (docs/dashboard.md)',
    meaning: 'the developer dashboard under `/dashboard` ([docs/dashboard.md](docs/dashboard.md))',
  },
  dashboardPort: {
    flags: '--dashboard-port <port>',
    arg: 'PORT',
    env: 'DASHBOARD_PORT',
    shownDefault: 'the API port',
    help: 'serve the dashboard on this port instead of the API port',
    meaning: 'a port of its own for the dashboard',
  },
  signup: {
    flags: '--signup <open|invite>',
    arg: 'open\\|invite',
    env: 'SIGNUP',
    value: 'invite',
    shownDefault: '`invite`',
    help: 'who may create a dashboard account: anyone (open) or holders of an invitation link an admin made (invite)',
    meaning: 'dashboard sign-up: open to anyone, or by invitation link',
  },
  signupPlan: {
    flags: '--signup-plan <plan>',
    arg: 'PLAN',
    env: 'SIGNUP_PLAN',
    value: 'trial',
    shownDefault: '`trial`',
    help: 'plan of a new dashboard account (an invitation may name another)',
    meaning: 'plan of new dashboard accounts',
  },
  billingText: {
    flags: '--billing-text <text>',
    arg: 'TEXT',
    env: 'BILLING_TEXT',
    shownDefault: 'none',
    help: 'billing instructions shown to accounts that must pay (402)',
    meaning: 'billing instructions shown on the dashboard to accounts that must pay',
  },
  billingTextFile: {
    flags: '--billing-text-file <file>',
    arg: 'FILE',
    env: 'BILLING_TEXT_FILE',
    shownDefault: 'none',
    help: 'read the billing instructions from this UTF-8 text file',
    meaning: 'the billing instructions from a text file',
  },
  stripeSecretKey: {
    flags: '--stripe-secret-key <key>',
    arg: 'KEY',
    env: 'STRIPE_SECRET_KEY',
    shownDefault: 'none: manual billing',
    help: 'Stripe mode: paid plans through Stripe Checkout with this secret key (sk_test_… to try it; prefer the environment variable); needs --stripe-webhook-secret (docs/billing.md)',
    meaning:
      'Stripe mode: paid plans by Stripe Checkout with this key (`sk_test_…` to try it; set it in the environment) ([docs/billing.md](docs/billing.md))',
  },
  stripeWebhookSecret: {
    flags: '--stripe-webhook-secret <secret>',
    arg: 'SECRET',
    env: 'STRIPE_WEBHOOK_SECRET',
    shownDefault: 'none',
    help: 'the signing secret (whsec_…) of the Stripe webhook endpoint /dashboard/billing/stripe/webhook',
    meaning: 'signing secret (`whsec_…`) of the webhook endpoint `/dashboard/billing/stripe/webhook`',
  },
  smtpUrl: {
    flags: '--smtp-url <url>',
    arg: 'URL',
    env: 'SMTP_URL',
    shownDefault: 'none: mails wait in the outbox',
    help: "send the dashboard's mails through this SMTP server (smtp://USER:PASS@HOST:PORT or smtps://…); without it they wait in an outbox admins read on the dashboard",
    meaning:
      "SMTP server for the dashboard's mails, `smtp://[USER:PASS@]HOST[:PORT]` or `smtps://…`; without it mails wait in an outbox admins read on the dashboard",
  },
  mailFrom: {
    flags: '--mail-from <address>',
    arg: 'ADDRESS',
    env: 'MAIL_FROM',
    shownDefault: 'none (required with `--smtp-url`)',
    help: 'sender of the dashboard\'s mails, e.g. "Catalogue <no-reply@example.com>"',
    meaning: "sender of the dashboard's mails",
  },
  publicUrl: {
    flags: '--public-url <url>',
    arg: 'URL',
    env: 'PUBLIC_URL',
    shownDefault: 'the address it listens on',
    help: 'the address users reach the service at (https://api.example.com), for the links in mails',
    meaning: 'the address users reach the service at, for the links in mails',
  },
  trustProxy: {
    flags: '--trust-proxy [proxies]',
    arg: '[N\\|ADDR,CIDR,…]',
    env: 'TRUST_PROXY',
    shownDefault: 'off',
    help:
      'behind reverse proxies: trust their X-Forwarded-Proto (dashboard cookies Secure over HTTPS) and X-Forwarded-For; ' +
      'the client is the right-most address not a proxy. Give the number of proxies in front (alone: 1) or their ' +
      'addresses, e.g. 10.0.0.1,10.0.0.0/8,loopback',
    meaning:
      'behind reverse proxies: their number (alone: 1) or addresses/CIDRs; the client address is the right-most `X-Forwarded-For` entry not a proxy (docs/deployment.md); `X-Forwarded-Proto` makes cookies Secure',
  },
  sessionSecret: {
    flags: '--session-secret <secret>',
    arg: 'SECRET',
    env: 'SESSION_SECRET',
    shownDefault: 'generated once, kept in the store',
    help: 'signs dashboard session cookies (32+ characters); default: one generated once and kept in the access store',
    meaning: 'signs dashboard session cookies (32+ characters)',
  },
  logLevel: {
    flags: '',
    arg: '',
    env: 'LOG_LEVEL',
    shownDefault: '`info`',
    help: '',
    meaning: 'pino level of the JSON logs on stderr (one line per request, written in blocks at least once a second)',
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = Exclude<keyof typeof OPTIONS, 'logLevel'>;

/** The commander option `name`, with its environment variable and default from the table. */
export function option(name: OptionName): Option {
  const spec: OptionSpec = OPTIONS[name];
  const o = new Option(spec.flags, spec.help).env(spec.env);
  return spec.value === undefined ? o : o.default(spec.value);
}

/** README.md's configuration table, row for row. */
export function readmeTable(): string {
  const rows = Object.values(OPTIONS).map((s: OptionSpec) => {
    const flag = s.flags === '' ? '' : `\`${[s.flags.split(' ')[0], s.arg].filter(Boolean).join(' ')}\``;
    return `|${flag ? ` ${flag} ` : ' '}| \`${s.env}\` | ${s.shownDefault} | ${s.meaning} |`;
  });
  return ['| option | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}
