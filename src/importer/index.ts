// `catalogue import`: products whose ingredients are label text in (CSV, TSV, JSON Lines,
// gzip too), a catalogue source directory out (docs/catalogue-source.md), joined to an
// ingredient dictionary by the one label parser and joiner (src/labels/). Guarantees:
// rows are streamed; each row's product record, and any label-only ingredient it adds,
// is checked by the build's own checker (source/check.ts) and written only when it
// passes, so what is written builds: a row that cannot become a product is skipped and
// reported as FILE:LINE with the reason (the same product or barcode twice keeps the
// first); an input that cannot be read to its end fails the import; nothing is written
// unless the whole import succeeds, and then both files are renamed into place.
import * as fs from 'node:fs';
import { LabelKeysBuilder } from '../builder';
import { LabelJoiner } from '../labels/joiner';
import { checkIngredient, checkProduct } from '../source/check';
import type { SourceProduct } from '../source/records';
import { writeSource } from '../source/writer';
import { gtinKey } from '../shared/text';
import { mappingFrom, type Mapping } from './fields';
import { IngredientTable, readDictionary } from './ingredients';
import { productOf, type ImportedRow } from './product';
import { formatOf, readRows, type Format, type Problem } from './rows';

export interface ImportOptions {
  inputs: string[];
  out: string;
  /** Directory holding ingredients.jsonl(.gz): the dictionary to join to. */
  dictionary: string;
  preset: string;
  map?: string;
  format?: Format;
}

export interface ImportReport {
  rows: number;
  products: number;
  withoutText: number;
  skipped: string[];
  notes: string[];
  entries: number;
  joined: number;
  joinedBy: Record<string, number>;
  labelOnly: number;
  unjoined: [string, number][];
}

/** What the rows read so far have produced. */
interface ImportState {
  map: Mapping;
  joiner: LabelJoiner<number>;
  table: IngredientTable;
  dedup: Dedup;
  products: SourceProduct[];
  unjoined: Map<string, number>;
  report: ImportReport;
}

export async function runImport(opts: ImportOptions): Promise<ImportReport> {
  const state = await start(opts);
  for (const file of opts.inputs) await importFile(file, opts.format, state);
  const r = state.report;
  if (state.products.length === 0)
    throw new Error(`no products: every row was skipped (${r.skipped.slice(0, 3).join('; ') || 'the input is empty'})`);
  r.labelOnly = state.table.addedCount;
  r.unjoined = [...state.unjoined].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
  writeSource(opts.out, state.table.all(), state.products);
  return r;
}

async function start(opts: ImportOptions): Promise<ImportState> {
  const map = mappingFrom(opts.preset, opts.map);
  const dictionary = await readDictionary(opts.dictionary);
  const keys = new LabelKeysBuilder();
  dictionary.forEach((i, ord) => keys.ingredient(ord, i.name, i.other_names));
  const index = keys.index();
  // A CAS number printed in a label decides its join as in the served catalogue (src/labels/joiner.ts).
  dictionary.forEach((i, ord) => index.addCasNumbers(i.cas_number, ord));
  return {
    map,
    joiner: new LabelJoiner(index),
    table: new IngredientTable(dictionary),
    dedup: new Dedup(),
    products: [],
    unjoined: new Map(),
    report: {
      rows: 0,
      products: 0,
      withoutText: 0,
      skipped: [],
      notes: [],
      entries: 0,
      joined: 0,
      joinedBy: {},
      labelOnly: 0,
      unjoined: [],
    },
  };
}

async function importFile(file: string, given: Format | undefined, state: ImportState): Promise<void> {
  const format = given ?? formatOf(file);
  if (format === null)
    throw new Error(`${file}: unknown format (name it .csv, .tsv or .jsonl, optionally .gz, or pass --format)`);
  if (!fs.existsSync(file)) throw new Error(`${file}: file not found`);
  const r = state.report;
  const problems: Problem[] = [];
  for await (const { line, row } of readRows(file, format, problems)) {
    r.rows++;
    const at = `${file}:${line}`;
    const notes: string[] = [];
    const imported = productOf(row, state.map, state.joiner, state.table, notes);
    for (const n of notes) r.notes.push(`${at}: ${n}`);
    const refused = typeof imported === 'string' ? imported : refusal(imported, state);
    const duplicate =
      typeof imported === 'string' || refused !== null ? null : state.dedup.claim(imported.product, at, r.notes);
    if (typeof imported !== 'string' && refused === null && duplicate === null) {
      state.table.commit();
      keep(imported, state);
    } else {
      state.table.rollback();
      r.skipped.push(`${at}: ${refused ?? duplicate}`);
    }
  }
  for (const pr of problems) r.skipped.push(`${file}:${pr.line}: ${pr.message}`);
}

/** Why the build would refuse the row's product or a label-only ingredient it adds (the build's messages), or null. */
function refusal(imported: ImportedRow, state: ImportState): string | null {
  const reasons: string[] = [];
  const report = (m: string) => reasons.push(m);
  const known = (id: string) => (state.table.has(id.toLowerCase()) ? 0 : undefined);
  if (checkProduct(imported.product, known, report) !== null) {
    for (const i of state.table.fresh) if (!checkIngredient(i, report)) break;
  }
  return reasons.length === 0 ? null : reasons.join('; ');
}

function keep(imported: ImportedRow, state: ImportState): void {
  const r = state.report;
  const p = imported.product;
  state.products.push(p);
  r.products++;
  if (!imported.hadText) r.withoutText++;
  imported.joinedBy.forEach((how, i) => {
    r.joinedBy[how] = (r.joinedBy[how] ?? 0) + 1;
    r.entries++;
    if (how !== 'none') r.joined++;
    else state.unjoined.set(p.ingredients[i].label_name, (state.unjoined.get(p.ingredients[i].label_name) ?? 0) + 1);
  });
}

/** One product per id and one product per barcode (after removing leading zeros), as the build requires. */
class Dedup {
  private readonly ids = new Map<string, string>();
  private readonly codes = new Map<string, string>();

  /** Null when the product is new (its barcodes already taken are dropped, noted); else why it is skipped. */
  claim(p: SourceProduct, at: string, notes: string[]): string | null {
    const first = this.ids.get(p.id);
    if (first !== undefined) return `the same product as ${first} (same barcode, or same brand and name)`;
    this.ids.set(p.id, at);
    p.barcodes = p.barcodes.filter((b) => {
      const prev = this.codes.get(gtinKey(b));
      if (prev !== undefined) notes.push(`${at}: barcode ${b} already belongs to ${prev} (dropped)`);
      else this.codes.set(gtinKey(b), at);
      return prev === undefined;
    });
    return null;
  }
}

/** The report as Markdown lines (what the command prints). */
export function renderImportReport(r: ImportReport): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);
  const L = [
    '# Import report',
    '',
    `- rows read: ${r.rows}`,
    `- products written: ${r.products} (${r.withoutText} without ingredient text)`,
    `- rows skipped: ${r.skipped.length}`,
    `- label entries: ${r.entries}; joined to the dictionary: ${r.joined} (${pct(r.joined, r.entries)})`,
    `- joined by: ${
      Object.entries(r.joinedBy)
        .filter(([k]) => k !== 'none')
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || '–'
    }`,
    `- label-only ingredients added: ${r.labelOnly}`,
    '',
    '## Most frequent names that did not join',
    '',
    ...r.unjoined.map(([n, c]) => `- ${n} (${c})`),
    '',
    '## Rows skipped',
    '',
    ...r.skipped.slice(0, 100).map((s) => `- ${s}`),
    ...(r.skipped.length > 100 ? [`- … and ${r.skipped.length - 100} more`] : []),
    '',
    '## Values dropped',
    '',
    ...r.notes.slice(0, 100).map((s) => `- ${s}`),
    ...(r.notes.length > 100 ? [`- … and ${r.notes.length - 100} more`] : []),
  ];
  return L.join('\n') + '\n';
}
