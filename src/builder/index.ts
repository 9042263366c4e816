// `catalogue build` as a library: catalogue source directory -> catalogue database
// file. Guarantees: either the whole source is valid and FILE is atomically replaced
// by the new catalogue, or a BuildError counts every error found and lists the first
// MAX_KEPT (1,000) of them (FILE:LINE: message), and FILE is left untouched. Product lines are streamed, never all held in memory.
import { FORMAT, SCHEMA_VERSION } from '../catalogue/format';
import { ErrorLog } from './errors';
import { readIngredients } from './ingredients';
import { CatalogueWriter } from './output';
import { readProducts } from './products';
import { SourceReadError } from '../source/lines';
import { locate } from './source';

export { BuildError, MAX_KEPT } from './errors';
export { LabelKeysBuilder } from './label-keys';

export interface BuildOptions {
  sourceDir: string;
  outFile: string;
  /** YYYY-MM-DD; default: today's UTC date. */
  builtAt?: string;
  /** Accept a source with no products (refused by default: a catalogue that answers nothing is a mistake). */
  allowEmpty?: boolean;
  onProgress?: (p: BuildProgress) => void;
}

export interface BuildProgress {
  phase: 'ingredients' | 'products';
  lines: number;
  records: number;
}

export interface BuildSummary {
  products: number;
  ingredients: number;
  barcodes: number;
  builtAt: string;
  ms: number;
}

export async function buildCatalogue(opts: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  const builtAt = opts.builtAt ?? new Date().toISOString().slice(0, 10);
  if (!isDate(builtAt))
    throw new Error(`built-at ${JSON.stringify(builtAt)} is not a real date in the form YYYY-MM-DD`);
  const log = new ErrorLog();
  const ingredientsFile = locate(opts.sourceDir, 'ingredients.jsonl', log);
  const productsFile = locate(opts.sourceDir, 'products.jsonl', log);
  log.throwIfAny();
  const progress = opts.onProgress ?? (() => {});
  const out = CatalogueWriter.open(opts.outFile);
  try {
    const dict = await readSource(ingredientsFile!, log, (file) =>
      readIngredients(file, log, out, (lines, records) => progress({ phase: 'ingredients', lines, records })),
    );
    if (dict === undefined) log.throwIfAny(); // products cannot be checked without the dictionary
    const counts = await readSource(productsFile!, log, (file) =>
      readProducts(file, dict!, log, out, (lines, records) => progress({ phase: 'products', lines, records })),
    );
    if (counts?.products === 0 && !opts.allowEmpty) {
      log.add(`${productsFile}:1: no products: an empty catalogue is refused (build with --allow-empty to allow it)`);
    }
    log.throwIfAny();
    dict!.labels.write(out);
    const ingredients = dict!.count;
    out.meta('format', FORMAT);
    out.meta('schema_version', SCHEMA_VERSION);
    out.meta('built_at', builtAt);
    out.meta('products', String(counts!.products));
    out.meta('ingredients', String(ingredients));
    out.commit();
    return { products: counts!.products, ingredients, barcodes: counts!.barcodes, builtAt, ms: Date.now() - started };
  } catch (err) {
    out.discard();
    throw err;
  }
}

/** Runs a pass; a file that cannot be read (I/O, bad or truncated gzip, vanished) becomes a FILE:LINE: error. */
async function readSource<T>(file: string, log: ErrorLog, pass: (file: string) => Promise<T>): Promise<T | undefined> {
  try {
    return await pass(file);
  } catch (err) {
    if (err instanceof SourceReadError) {
      log.add(`${file}:${err.line}: cannot read: ${err.message}`);
      return undefined;
    }
    const e = err as NodeJS.ErrnoException;
    if (typeof e.errno !== 'number') throw err; // not a file-system or zlib error: a real failure
    log.add(`${file}: cannot read: ${e.message}`);
    return undefined;
  }
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}
