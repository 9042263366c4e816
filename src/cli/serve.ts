// `catalogue serve`: serves the HTTP API of a built catalogue (operator-cli.md).
// Guarantees: SIGHUP (or renaming a new file over --catalogue) switches catalogues
// without downtime; SIGTERM/SIGINT stop accepting, let in-flight requests finish and
// exit 0, or exit 1 once --stop-timeout has passed (a second signal stops at once).
// Not close-with-grace (as fastify/demo uses): it installs its own SIGTERM/SIGINT handlers
// in every process, while under --workers a worker must ignore the terminal's signals and
// stop once on the primary's relayed message (src/cluster.ts); the timeout and
// second-signal rule it would replace are the few lines of stop() below.
import type { Command } from 'commander';
import { option } from './options';
import { startServer } from '../server';
import { announce, onStopSignal, runPrimary, servesItself } from '../cluster';

interface ServeCliOptions {
  catalogue: string;
  host: string;
  port: number;
  access?: string;
  plans?: string;
  metricsPort?: number;
  metricsHost: string;
  stopTimeout: number;
  workers?: number;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API of a catalogue file')
    .addOption(option('catalogue').makeOptionMandatory())
    .addOption(option('host'))
    .addOption(option('port').argParser(parsePort))
    .addOption(option('access'))
    .addOption(option('plans'))
    .addOption(option('metricsPort').argParser(portParser('--metrics-port')))
    .addOption(option('metricsHost'))
    .addOption(option('stopTimeout').argParser(parseSeconds))
    .addOption(option('workers').argParser(parseWorkers))
    .action(async (opts: ServeCliOptions) => {
      const workers = opts.workers ?? 1;
      if (workers > 1 && opts.metricsPort !== undefined)
        throw new Error(
          '--metrics-port serves one process; run one instance per core instead of --workers to scrape each',
        );
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
    server.close().then(
      () => {
        server.app.log.info({ signal }, 'stopped');
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

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || n <= 0)
    throw new Error(`--stop-timeout must be a positive number of seconds, not "${value}"`);
  return n;
}
