// `catalogue serve`: serves the HTTP API of a built catalogue (operator-cli.md).
import { Option, type Command } from 'commander';
import { startServer } from '../server';

export function register(program: Command): void {
  program.command('serve')
    .description('serve the HTTP API of a catalogue file')
    .addOption(new Option('--catalogue <file>', 'catalogue database file made by `catalogue build`').env('CATALOGUE_DB').makeOptionMandatory())
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port to listen on').env('PORT').default(8080).argParser(parsePort))
    .addOption(new Option('--access <store>', 'API keys and usage store: sqlite:PATH or redis://HOST:PORT[/DB] (default sqlite:var/access.sqlite in the project)').env('ACCESS_STORE'))
    .addOption(new Option('--plans <file>', 'JSON file of extra plans').env('PLANS_FILE'))
    .action(async (opts: { catalogue: string; host: string; port: number; access?: string; plans?: string }) => {
      await serve(opts);
    });
}

export async function serve(opts: { catalogue: string; host: string; port: number; access?: string; plans?: string }): Promise<void> {
  const server = await startServer(opts);
  const c = server.catalogue.current;
  process.stdout.write(`catalogue: serving ${c.products} products and ${c.ingredients} ingredients (built ${c.builtAt}) at ${server.url}\n`);
  const stop = (signal: string) => {
    server.app.log.info({ signal }, 'stopping');
    server.close().then(() => process.exit(0), (err) => {
      process.stderr.write(`catalogue: ${String(err)}\n`);
      process.exit(1);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 0 || n > 65535) throw new Error(`--port must be an integer from 0 to 65535, not "${value}"`);
  return n;
}
