// `catalogue build --source DIR --out FILE [--built-at YYYY-MM-DD] [--allow-empty]` (operator-cli.md).
// Guarantees: on bad input every error (up to 100, then a count of the rest) is
// printed to stderr and the command fails, leaving FILE untouched; on success one
// summary line goes to stderr. A live progress line is shown only on a terminal.
import type { Command } from 'commander';
import { option } from './options';
import { buildCatalogue, BuildError, isDate, type BuildProgress } from '../builder';

const SHOWN = 100;

interface BuildFlags {
  source: string;
  out: string;
  builtAt?: string;
  allowEmpty?: boolean;
}

export function register(program: Command): void {
  program
    .command('build')
    .description('build a catalogue database file from a catalogue source directory')
    .addOption(option('source').makeOptionMandatory())
    .addOption(option('out').makeOptionMandatory())
    .addOption(option('builtAt'))
    .option('--allow-empty', 'accept a source with no products (refused by default)')
    .action(run);
}

async function run(flags: BuildFlags): Promise<void> {
  if (flags.builtAt !== undefined && !isDate(flags.builtAt)) {
    throw new Error(`--built-at ${JSON.stringify(flags.builtAt)} is not a real date in the form YYYY-MM-DD`);
  }
  const live = process.stderr.isTTY ? liveProgress() : undefined;
  // Exiting through process.exit runs the build's exit hook, which removes its temporary file.
  const interrupted = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const s = await buildCatalogue({
      sourceDir: flags.source,
      outFile: flags.out,
      builtAt: flags.builtAt,
      allowEmpty: flags.allowEmpty === true,
      onProgress: live?.show,
    });
    live?.clear();
    process.stderr.write(
      `built ${flags.out}: ${count(s.products, 'product')}, ${count(s.ingredients, 'ingredient')}, ` +
        `${count(s.barcodes, 'barcode')} in ${(s.ms / 1000).toFixed(1)} s\n`,
    );
  } catch (err) {
    live?.clear();
    if (!(err instanceof BuildError)) throw err;
    const shown = err.errors.slice(0, SHOWN);
    process.stderr.write(shown.join('\n') + '\n');
    if (err.total > shown.length) process.stderr.write(`... and ${count(err.total - shown.length, 'more error')}\n`);
    throw new Error(`build failed: ${count(err.total, 'error')} in ${flags.source}; ${flags.out} was left untouched`);
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  }
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

function liveProgress(): { show: (p: BuildProgress) => void; clear: () => void } {
  let last = 0;
  let shown = false;
  return {
    show(p) {
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      process.stderr.write(
        `\r\x1b[K${p.phase}.jsonl: ${p.lines.toLocaleString('en-US')} lines read, ${p.records.toLocaleString('en-US')} ${p.phase}`,
      );
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
