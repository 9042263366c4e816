// Pass 2: products.jsonl, streamed. Guarantees: every line is checked (line-local
// rules, including ingredient ids that exist in ingredients.jsonl, plus unique id and barcodes
// unique across the catalogue after leading zeros are removed — a collision names
// both products); while the source holds no error, each product is rendered and
// written in line order with its barcodes, and its ord is added to the postings of
// each of its ingredients and to the product term index; its answer's compressed forms
// are written before this pass ends (encodings.ts).
import { encodePostings, renderProduct, TermIndexBuilder, TERMS_PRODUCT } from '../catalogue/format';
import type { SourceProduct } from '../source/records';
import { gtinKey, isBarcode, isUuid } from '../shared/text';
import type { ErrorLog } from './errors';
import type { Dictionary, LineProgress } from './ingredients';
import type { CatalogueWriter } from './output';
import { AnswerCompressor } from './encodings';
import { readLines } from '../source/lines';
import { checkProduct, parseLine, show } from './validate';

export interface ProductCounts {
  products: number;
  barcodes: number;
}

interface BarcodeOwner {
  line: number;
  id: string;
  code: string;
}

export async function readProducts(
  file: string,
  dict: Dictionary,
  log: ErrorLog,
  out: CatalogueWriter,
  progress: LineProgress,
): Promise<ProductCounts> {
  const idLine = new Map<string, number>();
  const owners = new Map<string, BarcodeOwner>();
  const postings: number[][] = [];
  const terms = new TermIndexBuilder();
  // Each entry's ingredient ord, looked up once: checkProduct asks `known` about each entry's
  // id in entry order, so for a product that passes, entryOrds[i] is entry i's ord.
  let entryOrds: number[] = [];
  const known = (id: string) => {
    const iord = dict.ordById.get(id);
    if (iord === undefined) return false;
    entryOrds.push(iord);
    return true;
  };
  const ordsOf = (p: SourceProduct): number[] =>
    entryOrds.length === p.ingredients.length
      ? entryOrds
      : p.ingredients.map((e) => dict.ordById.get(e.id.toLowerCase())!);
  const rendered = {
    ords: ordsOf,
    category: (o: number) => dict.category[o],
    record: (o: number) => dict.record[o],
  };
  const compressor = new AnswerCompressor(out, dict.record);
  let ord = 0;
  let barcodes = 0;
  try {
    for await (const { line, text } of readLines(file, (b) => log.add(`${file}:${b.line}: ${b.problem}`))) {
      const report = (m: string) => log.add(`${file}:${line}: ${m}`);
      const o = parseLine(text, report);
      if (o === null) {
        ord++;
        continue;
      }
      entryOrds = [];
      const ok = checkProduct(o, known, report);
      const id = isUuid(o.id) ? o.id.toLowerCase() : null;
      if (id !== null) {
        const earlier = idLine.get(id);
        if (earlier !== undefined) report(`id ${show(o.id)} duplicates the id on line ${earlier}`);
        else idLine.set(id, line);
      }
      if (Array.isArray(o.barcodes)) {
        const who = id ?? show(o.id);
        o.barcodes.forEach((code: unknown, i: number) => {
          if (!isBarcode(code)) return;
          const key = gtinKey(code);
          const owner = owners.get(key);
          if (owner === undefined) owners.set(key, { line, id: who, code });
          else if (owner.line !== line) {
            report(
              `barcodes[${i}] ${show(code)} of product ${who} collides with barcode ${show(owner.code)} of product ` +
                `${owner.id} (line ${owner.line}): codes must be unique once leading zeros are removed`,
            );
          }
        });
      }
      if (ok && log.total === 0) {
        const row = renderProduct(ord, o, rendered);
        out.product(row);
        const waiting = compressor.add(ord, row.packed);
        for (const code of o.barcodes) out.barcode(gtinKey(code), ord);
        barcodes += o.barcodes.length;
        const ords = ordsOf(o);
        for (let i = 0; i < ords.length; i++) {
          const iord = ords[i];
          dict.labels.entry(o.ingredients[i].label_name, iord);
          const list = postings[iord] ?? (postings[iord] = []);
          if (list[list.length - 1] !== ord) list.push(ord);
        }
        terms.add(ord, o.brand);
        terms.add(ord, o.name);
        if (waiting) await waiting;
      }
      ord++;
      if (line % 4096 === 0) progress(line, ord);
    }
    await compressor.done();
  } finally {
    await compressor.close(); // when the pass failed: its results are no longer wanted
  }
  if (log.total === 0) {
    postings.forEach((list, iord) => out.postings(iord, encodePostings(list)));
    out.terms(TERMS_PRODUCT, terms.entries());
  }
  return { products: ord, barcodes };
}
