// `catalogue import`: products whose ingredients are label text in (CSV, TSV, JSON Lines,
// gzip too), a catalogue source directory out (docs/catalogue-source.md), joined to an
// ingredient dictionary by the one label parser and joiner (src/labels/). Guarantees:
// rows are streamed; a row that cannot become a product is skipped and reported as
// FILE:LINE with the reason; nothing is written unless the whole import succeeds, and
// then both files are renamed into place; the output always builds (the same product
// or barcode twice keeps the first and reports the others).
import * as fs from 'node:fs';
import { LabelKeysBuilder } from '../builder/label-keys';
import { readLines, type BadLine } from '../source/lines';
import { compactKey } from '../labels/aliases';
import { LabelJoiner } from '../labels/joiner';
import { labelOnlyIngredient } from '../source/ids';
import type { SourceIngredient } from '../source/records';
import { writeSource } from '../source/writer';
import { gtinKey } from '../shared/text';
import { mappingFrom } from './fields';
import { productOf, type ImportedProduct } from './product';
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

export async function runImport(opts: ImportOptions): Promise<ImportReport> {
  const map = mappingFrom(opts.preset, opts.map);
  const dictionary = await readDictionary(opts.dictionary);
  const keys = new LabelKeysBuilder();
  dictionary.forEach((i, ord) => keys.ingredient(ord, i.name, i.other_names));
  const joiner = new LabelJoiner(keys.index());
  const r: ImportReport = {
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
  };
  const products: ImportedProduct[] = [];
  const seenIds = new Map<string, string>();
  const seenCodes = new Map<string, string>();
  for (const file of opts.inputs) {
    const format = opts.format ?? formatOf(file);
    if (format === null)
      throw new Error(`${file}: unknown format (name it .csv, .tsv or .jsonl, optionally .gz, or pass --format)`);
    if (!fs.existsSync(file)) throw new Error(`${file}: file not found`);
    const problems: Problem[] = [];
    for await (const { line, row } of readRows(file, format, problems)) {
      r.rows++;
      const at = `${file}:${line}`;
      const notes: string[] = [];
      const p = productOf(row, map, joiner, notes);
      for (const n of notes) r.notes.push(`${at}: ${n}`);
      if (typeof p === 'string') {
        r.skipped.push(`${at}: ${p}`);
        continue;
      }
      const first = seenIds.get(p.id);
      if (first !== undefined) {
        r.skipped.push(`${at}: the same product as ${first} (same barcode, or same brand and name)`);
        continue;
      }
      seenIds.set(p.id, at);
      p.barcodes = p.barcodes.filter((b) => {
        const prev = seenCodes.get(gtinKey(b));
        if (prev !== undefined) r.notes.push(`${at}: barcode ${b} already belongs to ${prev} (dropped)`);
        else seenCodes.set(gtinKey(b), at);
        return prev === undefined;
      });
      products.push(p);
    }
    for (const pr of problems) r.skipped.push(`${file}:${pr.line}: ${pr.message}`);
  }
  if (products.length === 0)
    throw new Error(`no products: every row was skipped (${r.skipped.slice(0, 3).join('; ') || 'the input is empty'})`);
  const source = toSource(products, dictionary, r);
  writeSource(opts.out, source.ingredients, source.products);
  return r;
}

/** Source records; label-only ingredients get the sample's ids for the same printed key. */
function toSource(products: readonly ImportedProduct[], dictionary: readonly SourceIngredient[], r: ImportReport) {
  const labelOnly = new Map<string, SourceIngredient>();
  const unjoined = new Map<string, number>();
  const out = products.map((p) => {
    r.products++;
    if (!p.hadText) r.withoutText++;
    p.joinedBy.forEach((how) => (r.joinedBy[how] = (r.joinedBy[how] ?? 0) + 1));
    const ingredients = p.entries.map((e) => {
      r.entries++;
      if (e.ord !== null) {
        r.joined++;
        return { id: dictionary[e.ord].id, label_name: e.label_name, concentration: e.concentration };
      }
      unjoined.set(e.label_name, (unjoined.get(e.label_name) ?? 0) + 1);
      const k = compactKey(e.label_name) || e.label_name;
      const lo = labelOnly.get(k) ?? labelOnlyIngredient(k, e.label_name);
      labelOnly.set(k, lo);
      return { id: lo.id, label_name: e.label_name, concentration: e.concentration };
    });
    const { id, brand, name, category, origin, image_url, barcodes } = p;
    return { id, brand, name, category, origin, image_url, barcodes, ingredients };
  });
  const known = new Set(dictionary.map((i) => i.id));
  const extra = [...labelOnly.values()].filter((i) => !known.has(i.id));
  r.labelOnly = extra.length;
  r.unjoined = [...unjoined].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
  return { ingredients: [...dictionary, ...extra], products: out };
}

async function readDictionary(dir: string): Promise<SourceIngredient[]> {
  const plain = `${dir}/ingredients.jsonl`;
  const file = fs.existsSync(plain) ? plain : `${plain}.gz`;
  if (!fs.existsSync(file)) throw new Error(`${plain}(.gz): dictionary not found`);
  const out: SourceIngredient[] = [];
  const bad = (b: BadLine) => {
    throw new Error(`${file}:${b.line}: ${b.problem}`);
  };
  for await (const { text } of readLines(file, bad)) out.push(JSON.parse(text) as SourceIngredient);
  return out;
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
