// `catalogue import --input FILE... --out DIR [--preset obf|generic] [--map ...]`: products
// with label text in, a catalogue source for `catalogue build` out (docs/import.md).
// Guarantees: prints the import report; writes nothing when no row becomes a product or an
// input cannot be read to its end; --format and --preset accept only their listed choices.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { renderImportReport, runImport } from '../importer';
import { PRESETS } from '../importer/fields';
import { FORMATS, type Format } from '../importer/rows';
import { packageRoot } from '../shared/package-root';

interface Opts {
  input: string[];
  out: string;
  preset: string;
  map?: string;
  format?: Format;
  dictionary: string;
  report?: string;
}

export function register(program: Command): void {
  program
    .command('import')
    .description('turn products with label text (CSV, TSV, JSON Lines; .gz too) into a catalogue source directory')
    .requiredOption('--input <file...>', 'files to import (.csv, .tsv, .jsonl, optionally .gz)')
    .requiredOption('--out <dir>', 'catalogue source directory to write (ingredients.jsonl.gz, products.jsonl.gz)')
    .addOption(
      new Option('--preset <name>', 'column names: "obf" (Open Beauty Facts CSV export or JSONL dump) or "generic"')
        .choices(Object.keys(PRESETS))
        .default('generic'),
    )
    .option(
      '--map <list>',
      'columns per field, over the preset: field=column[|column],… (fields: barcode, name, brand, category, image_url, origin, ingredients)',
    )
    .addOption(new Option('--format <format>', 'the input format (default: from the file name)').choices(FORMATS))
    .option(
      '--dictionary <dir>',
      'directory with ingredients.jsonl(.gz) to join to',
      path.join(packageRoot(), 'data', 'sample'),
    )
    .option('--report <file>', 'also write the import report (Markdown) to this file')
    .action(async (opts: Opts) => {
      const report = renderImportReport(
        await runImport({
          inputs: opts.input,
          out: opts.out,
          preset: opts.preset,
          map: opts.map,
          format: opts.format,
          dictionary: opts.dictionary,
        }),
      );
      if (opts.report) {
        fs.mkdirSync(path.dirname(path.resolve(opts.report)), { recursive: true });
        fs.writeFileSync(opts.report, report);
      }
      process.stdout.write(report);
    });
}
