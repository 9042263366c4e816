// The `catalogue` command line (operator-cli.md). Each command lives in its own
// module and registers itself here. Guarantees: exit status 0 on success, non-zero
// on failure with a one-line reason on stderr.
import { Command, CommanderError } from 'commander';
import { register as registerBuild } from './build';
import { register as registerServe } from './serve';
import { register as registerKeys } from './keys';
import { register as registerUsage } from './usage';
import { register as registerDemo } from './demo';
import { register as registerSample } from './sample';
import { register as registerGenerate } from './generate';
import { register as registerImport } from './import';
import { register as registerAdmin } from './admin';

/** What the root --help says after the commands: the environment, the metrics rule, the tests' ports. */
const HELP_AFTER = `
Every option of serve (and demo) can also come from its environment variable (serve --help
names each; a flag given wins); LOG_LEVEL sets the log level (default info).
--metrics-port serves one process's metrics: serve refuses it with --workers above 1.
Tests (npm test) start Redis servers on ports 7100-7122 and 17100-17105 (cluster bus);
TEST_REDIS_PORTS=BASE moves them to BASE..BASE+22 and BASE+10000..BASE+10005.`;

export function program(): Command {
  const p = new Command('catalogue')
    .description(
      'Cosmetics Catalogue API: import label data, build a catalogue, serve it with its developer dashboard, manage API keys',
    )
    .addHelpText('after', HELP_AFTER)
    .exitOverride();
  registerBuild(p);
  registerServe(p);
  registerKeys(p);
  registerUsage(p);
  registerDemo(p);
  registerSample(p);
  registerGenerate(p);
  registerImport(p);
  registerAdmin(p);
  return p;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
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
