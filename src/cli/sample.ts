// `catalogue sample --raw DIR --out DIR [--report FILE]`: maintainer command that
// builds the sample catalogue source from the public raw data (src/sample/).
// Guarantees: writes OUT/ingredients.jsonl.gz and OUT/products.jsonl.gz, prints the data report.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { runPipeline } from '../sample/pipeline';
import { renderReport } from '../sample/report';
import { writeSource } from '../source/writer';

export function register(program: Command): void {
  program
    .command('sample')
    .description('maintainers: build the sample catalogue source from the public raw data')
    .requiredOption('--raw <dir>', 'raw-data directory (layout of shared/data/raw, see docs/sample-data.md)')
    .requiredOption('--out <dir>', 'output catalogue source directory')
    .option('--report <file>', 'also write the data report (Markdown) to this file')
    .action((opts: { raw: string; out: string; report?: string }) => {
      if (!fs.existsSync(opts.raw) || !fs.statSync(opts.raw).isDirectory())
        throw new Error(`raw-data directory not found: ${opts.raw}`);
      const result = runPipeline(opts.raw);
      writeSource(opts.out, result.ingredients, result.products);
      const report = renderReport(result) + '\n';
      if (opts.report) {
        fs.mkdirSync(path.dirname(path.resolve(opts.report)), { recursive: true });
        fs.writeFileSync(opts.report, report);
      }
      process.stdout.write(report);
    });
}
