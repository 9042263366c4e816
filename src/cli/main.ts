// The `catalogue` command line (operator-cli.md). Each command lives in its own
// module and registers itself here. Guarantees: exit status 0 on success, non-zero
// on failure with a one-line reason on stderr; a command's module (and what it imports) is
// loaded only when that command is run or the root help is asked for: `catalogue build`
// does not load the server (0.6–0.8 s of CPU at start, docs/performance.md).
import { Command, CommanderError } from 'commander';

interface CommandModule {
  register(program: Command): void;
}

/** Every command, in the order the root help lists them. */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  build: () => import('./build'),
  serve: () => import('./serve'),
  keys: () => import('./keys'),
  usage: () => import('./usage'),
  demo: () => import('./demo'),
  sample: () => import('./sample'),
  generate: () => import('./generate'),
  import: () => import('./import'),
  admin: () => import('./admin'),
};

/** What the root --help says after the commands: the environment, the metrics rule, the tests' ports. */
const HELP_AFTER = `
Every option of serve (and demo) can also come from its environment variable (serve --help
names each; a flag given wins); LOG_LEVEL sets the log level (default info).
--metrics-port serves one process's metrics: serve refuses it with --workers above 1.
Tests (npm test) start Redis servers on ports 7100-7122 and 17100-17105 (cluster bus);
TEST_REDIS_PORTS=BASE moves them to BASE..BASE+22 and BASE+10000..BASE+10005.`;

/** The command line with `only` registered, or every command when `only` names none. */
export async function program(only?: string): Promise<Command> {
  const p = new Command('catalogue')
    .description(
      'Cosmetics Catalogue API: import label data, build a catalogue, serve it with its developer dashboard, manage API keys',
    )
    .addHelpText('after', HELP_AFTER)
    .exitOverride();
  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  for (const name of names) (await COMMANDS[name]()).register(p);
  return p;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await (await program(argv[2])).parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`catalogue: ${oneLine(err)}\n`);
    process.exitCode = 1;
  }
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0];
}
