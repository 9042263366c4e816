// `node dist/bench/labels-quality.js RAW_DIR`: how the label parser and joiner do on the
// Sephora product_info export (RAW_DIR/sephora-product-info/product_info.csv.zip): entries
// per product, share of entries over 150 characters, sections, share joined to a CosIng
// name (with the sample pipeline's synonyms) and the most frequent unjoined names.
// Guarantees: reads only; prints figures, changes nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { csvRecords } from '../src/sample/csv';
import { readCosing } from '../src/sample/cosing';
import { groupCosing } from '../src/sample/dictionary';
import { readCosdnaIngredients } from '../src/sample/cosdna';
import { readCurlsIngredients } from '../src/sample/curlsbot';
import { Joiner } from '../src/sample/joiner';
import { mergeSections, parseLabel } from '../src/labels/parser';
import { pythonListText } from '../src/sample/python-list';
import { joinEntries } from '../src/labels/join-entries';

/** The first member of a zip file (stored or deflated), as text. */
export function unzipFirst(file: string): string {
  const b = fs.readFileSync(file);
  if (b.readUInt32LE(0) !== 0x04034b50) throw new Error(`${file} is not a zip file`);
  const method = b.readUInt16LE(8);
  const start = 30 + b.readUInt16LE(26) + b.readUInt16LE(28);
  const data = b.subarray(start);
  return (method === 0 ? data : zlib.inflateRawSync(data)).toString('utf8');
}

/** The sample pipeline's joiner: CosIng names, curated aliases, CosDNA and curlsbot synonyms. */
export function cosingJoiner(rawDir: string): Joiner {
  const joiner = new Joiner([...groupCosing(readCosing(rawDir)).keys()]);
  for (const r of [...readCosdnaIngredients(rawDir), ...readCurlsIngredients(rawDir)]) {
    const inci = joiner.match(r.name) ?? r.synonyms.map((s) => joiner.match(s)).find((m) => m !== null) ?? null;
    if (inci) joiner.addSynonyms(inci, [r.name, ...r.synonyms]);
  }
  return joiner;
}

function main(rawDir: string): void {
  const rows = csvRecords(unzipFirst(path.join(rawDir, 'sephora-product-info', 'product_info.csv.zip')));
  const joiner = cosingJoiner(rawDir);
  let products = 0,
    entries = 0,
    long = 0,
    joined = 0,
    multi = 0,
    notes = 0,
    may = 0,
    concentrations = 0;
  const how: Record<string, number> = {};
  const unjoined = new Map<string, number>();
  for (const r of rows) {
    const text = pythonListText(r.ingredients ?? '') ?? r.ingredients ?? '';
    const parsed = parseLabel(text);
    const list = mergeSections(parsed.sections);
    if (list.length === 0) continue;
    products++;
    if (parsed.sections.length > 1) multi++;
    notes += parsed.notes.length;
    for (const e of joinEntries(list, joiner)) {
      entries++;
      if (e.label_name.length > 150) long++;
      if (e.may_contain) may++;
      if (e.concentration !== null) concentrations++;
      const j = e.join;
      how[j?.how ?? 'none'] = (how[j?.how ?? 'none'] ?? 0) + 1;
      if (j) joined++;
      else unjoined.set(e.label_name, (unjoined.get(e.label_name) ?? 0) + 1);
    }
  }
  const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(2)} %`;
  console.log(
    `rows ${rows.length}, products with a list ${products}, with several sections ${multi}, notes (not entries) ${notes}`,
  );
  console.log(
    `entries ${entries}, per product ${(entries / products).toFixed(1)}, over 150 chars ${long} (${pct(long, entries)}), may-contain ${may}, with a concentration ${concentrations}`,
  );
  console.log(`joined to CosIng ${joined} (${pct(joined, entries)}); by ${JSON.stringify(how)}`);
  console.log('most frequent unjoined:');
  for (const [n, c] of [...unjoined].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`  ${c}\t${n.length > 100 ? n.slice(0, 100) + '…' : n}`);
}

if (require.main === module) main(process.argv[2] ?? path.join(__dirname, '..', '..', '..', 'shared', 'data', 'raw'));
