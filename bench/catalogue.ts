// The benchmark catalogue: a synthetic source made by the generator (src/synth) and built
// by `catalogue build`, cached under var/bench/ keyed by the generator's parameters.
// Guarantees: the build is timed and its peak RSS measured as a separate process; a
// cached catalogue of the current schema version is reused with the figures recorded
// when it was built.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS, generateCatalogue } from '../src/synth/generate';
import { SCHEMA_VERSION } from '../src/catalogue/format';
import { Catalogue } from '../src/catalogue/read-model';
import { nodeFlags, runMeasured } from './proc';

export interface BuildFigures {
  seconds: number;
  peakRssBytes: number;
  /** When the figures were measured (ISO date-time); older than this run when reused. */
  measuredAt: string;
  reused: boolean;
}

export interface BenchCatalogue {
  file: string;
  dir: string;
  build: BuildFigures;
}

export async function ensureCatalogue(
  root: string,
  p: { products: number; ingredients: number; seed: number; rebuild: boolean },
): Promise<BenchCatalogue> {
  const cli = join(root, 'bin', 'catalogue.js');
  const ingredients = p.ingredients || DEFAULTS.ingredients;
  const dir = join(root, 'var', 'bench', `p${p.products}-i${ingredients}-s${p.seed}`);
  const source = join(dir, 'source');
  const file = join(dir, 'catalogue.db');
  const figures = join(dir, 'build.json');
  if (!p.rebuild && existsSync(file) && existsSync(figures) && Catalogue.versionOf(file) === SCHEMA_VERSION) {
    return { file, dir, build: { ...(JSON.parse(readFileSync(figures, 'utf8')) as BuildFigures), reused: true } };
  }
  if (!existsSync(join(source, 'products.jsonl'))) {
    rmSync(source, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`generating ${p.products} products and ${ingredients} ingredients into ${source}`);
    const g = await generateCatalogue({ outDir: source, products: p.products, ingredients, seed: p.seed });
    log(`generated in ${(g.millis / 1000).toFixed(1)} s`);
  }
  rmSync(file, { force: true });
  log(`building ${file}`);
  // With the `#!` line's node flags: as `npx catalogue build` runs.
  const b = await runMeasured([...nodeFlags(cli), cli, 'build', '--source', source, '--out', file]);
  const build: BuildFigures = {
    seconds: b.seconds,
    peakRssBytes: b.peakRssBytes,
    measuredAt: new Date().toISOString(),
    reused: false,
  };
  writeFileSync(figures, JSON.stringify(build, null, 2) + '\n');
  log(`built in ${b.seconds.toFixed(1)} s, peak RSS ${(b.peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
  return { file, dir, build };
}

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}
