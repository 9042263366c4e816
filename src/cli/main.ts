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

export function program(): Command {
  const p = new Command('catalogue')
    .description(
      'Cosmetics Catalogue API: import label data, build a catalogue, serve it with its developer dashboard, manage API keys',
    )
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
