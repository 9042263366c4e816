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
    help: 'serve Prometheus metrics at http://METRICS_HOST:PORT/metrics (off by default)',
    meaning: 'Prometheus metrics at `/metrics` on a separate port',
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
    help: 'server processes sharing the port, one per core is typical',
    meaning: 'server processes sharing the port (node:cluster)',
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
    const flag = s.flags === '' ? '' : `\`${s.flags.split(' ')[0]} ${s.arg}\``;
    return `|${flag ? ` ${flag} ` : ' '}| \`${s.env}\` | ${s.shownDefault} | ${s.meaning} |`;
  });
  return ['| option | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}
