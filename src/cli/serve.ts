// `catalogue serve`: serves the HTTP API of a built catalogue (operator-cli.md).
// Guarantees: SIGHUP (or renaming a new file over --catalogue) switches catalogues
// without downtime; SIGTERM/SIGINT stop accepting, let in-flight requests finish and
// exit 0, or exit 1 once --stop-timeout has passed (a second signal stops at once).
// Not close-with-grace (as fastify/demo uses): it installs its own SIGTERM/SIGINT handlers
// in every process, while under --workers a worker must ignore the terminal's signals and
// stop once on the primary's relayed message (src/cluster.ts); the timeout and
// second-signal rule it would replace are the few lines of stop() below.
import { Option, type Command } from 'commander';
import { startServer } from '../server';
import { announce, onStopSignal, runPrimary, servesItself } from '../cluster';

interface ServeCliOptions {
  catalogue: string; host: string; port: number; access?: string; plans?: string;
  metricsPort?: number; metricsHost: string; stopTimeout: number; workers?: number;
}

export function register(program: Command): void {
  program.command('serve')
    .description('serve the HTTP API of a catalogue file')
    .addOption(new Option('--catalogue <file>', 'catalogue database file made by `catalogue build`; SIGHUP or renaming a new file over it switches to the new file').env('CATALOGUE_DB').makeOptionMandatory())
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port to listen on').env('PORT').default(8080).argParser(parsePort))
    .addOption(new Option('--access <store>', 'API keys and usage store: sqlite:PATH, redis://, rediss://, redis-sentinel:// or redis-cluster:// (docs/metering.md; default sqlite:var/access.sqlite in the project)').env('ACCESS_STORE'))
    .addOption(new Option('--plans <file>', 'JSON file of extra plans').env('PLANS_FILE'))
    .addOption(new Option('--metrics-port <port>', 'serve Prometheus metrics at http://METRICS_HOST:PORT/metrics (off by default)').env('METRICS_PORT').argParser(portParser('--metrics-port')))
    .addOption(new Option('--metrics-host <host>', 'address the metrics port listens on; keep it private').env('METRICS_HOST').default('127.0.0.1'))
    .addOption(new Option('--stop-timeout <seconds>', 'on SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway').env('STOP_TIMEOUT').default(10).argParser(parseSeconds))
    .addOption(new Option('--workers <n>', 'server processes sharing the port, one per core is typical').env('WORKERS').default(1).argParser(parseWorkers))
    .action(async (opts: ServeCliOptions) => {
      const workers = opts.workers ?? 1;
      if (workers > 1 && opts.metricsPort !== undefined) throw new Error('--metrics-port serves one process; run one instance per core instead of --workers to scrape each');
      if (servesItself(workers)) await serve(opts);
      else await runPrimary(workers);
    });
}

export async function serve(opts: ServeCliOptions): Promise<void> {
  const server = await startServer(opts);
  process.on('SIGHUP', () => server.reloader.reload('SIGHUP'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // a second signal stops at once
    stopping = true;
    server.app.log.info({ signal }, 'stopping: no new connections; waiting for in-flight requests');
    setTimeout(() => {
      process.stderr.write(`catalogue: requests still running ${opts.stopTimeout} s after ${signal}; stopped anyway\n`);
      process.exit(1);
    }, opts.stopTimeout * 1000).unref();
    server.close().then(() => {
      server.app.log.info({ signal }, 'stopped');
      process.exit(0);
    }, (err) => {
      process.stderr.write(`catalogue: ${String(err)}\n`);
      process.exit(1);
    });
  };
  onStopSignal(stop);
  const c = server.catalogue.current;
  const metrics = server.metricsUrl ? `, metrics at ${server.metricsUrl}` : '';
  announce(`catalogue: serving ${c.products} products and ${c.ingredients} ingredients (built ${c.builtAt}) at ${server.url}${metrics}\n`);
}

export const parsePort = portParser('--port');

function portParser(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value) || n < 0 || n > 65535) throw new Error(`${option} must be an integer from 0 to 65535, not "${value}"`);
    return n;
  };
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > 64) throw new Error(`--workers must be an integer from 1 to 64, not "${value}"`);
  return n;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || n <= 0) throw new Error(`--stop-timeout must be a positive number of seconds, not "${value}"`);
  return n;
}
