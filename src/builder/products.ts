// Pass 2: products.jsonl, streamed. Guarantees: every line is checked (line-local
// rules, including ingredient ids that exist in ingredients.jsonl, plus unique id and barcodes
// unique across the catalogue after leading zeros are removed — a collision names
// both products); while the source holds no error, each product is rendered and
// written in line order with its barcodes, and its ord is added to the postings of
// each of its ingredients and to the product term index; its answer's compressed forms
// are written before this pass ends (encodings.ts), and its label spellings are joined by
// the label join index while the pass goes on (label-joins.ts).
import { renderProduct, TermIndexBuilder, TERMS_PRODUCT } from '../catalogue/format';
import { PostingsBuilder } from './postings';
import type { SourceProduct } from '../source/records';
import { readLines } from '../source/lines';
import { gtinKey, isBarcode, isUuid } from '../shared/text';
import type { ErrorLog } from './errors';
import type { Dictionary, LineProgress } from './ingredients';
import type { CatalogueWriter } from './output';
import { AnswerCompressor } from './encodings';
import { LabelJoins } from './label-joins';
import { checkProduct, show, type Report } from '../source/check';
import { parseLine } from '../source/json-line';

export interface ProductCounts {
  products: number;
  barcodes: number;
}

interface BarcodeOwner {
  line: number;
  id: string;
  code: string;
}

/** The rules that span product lines: one line per id, one product per barcode. */
class CrossLineRules {
  private readonly idLine = new Map<string, number>();
  private readonly owners = new Map<string, BarcodeOwner>();

  check(o: Record<string, unknown>, line: number, report: Report): void {
    const id = isUuid(o.id) ? o.id.toLowerCase() : null;
    if (id !== null) {
      const earlier = this.idLine.get(id);
      if (earlier !== undefined) report(`id ${show(o.id)} duplicates the id on line ${earlier}`);
      else this.idLine.set(id, line);
    }
    if (!Array.isArray(o.barcodes)) return;
    const who = id ?? show(o.id);
    o.barcodes.forEach((code: unknown, i: number) => {
      if (!isBarcode(code)) return;
      const key = gtinKey(code);
      const owner = this.owners.get(key);
      if (owner === undefined) this.owners.set(key, { line, id: who, code });
      else if (owner.line !== line) {
        report(
          `barcodes[${i}] ${show(code)} of product ${who} collides with barcode ${show(owner.code)} of product ` +
            `${owner.id} (line ${owner.line}): codes must be unique once leading zeros are removed`,
        );
      }
    });
  }
}

/** What the pass builds from the valid products: postings per ingredient and the product term index. */
class ProductIndexes {
  readonly postings: PostingsBuilder;
  readonly terms = new TermIndexBuilder();

  constructor(ingredients: number) {
    this.postings = new PostingsBuilder(ingredients);
  }

  add(ord: number, p: SourceProduct, ords: readonly number[], dict: Dictionary): void {
    for (let i = 0; i < ords.length; i++) dict.labels.entry(p.ingredients[i].label_name, ords[i]);
    this.postings.add(ord, ords);
    this.terms.add(ord, p.brand);
    this.terms.add(ord, p.name);
  }

  write(out: CatalogueWriter): void {
    for (const [iord, postings] of this.postings.encoded()) out.postings(iord, postings);
    out.terms(TERMS_PRODUCT, this.terms.entries());
  }
}

export async function readProducts(
  file: string,
  dict: Dictionary,
  log: ErrorLog,
  out: CatalogueWriter,
  progress: LineProgress,
): Promise<ProductCounts> {
  const cross = new CrossLineRules();
  const indexes = new ProductIndexes(dict.count);
  const ordOf = (id: string) => dict.ordById.get(id);
  const compressor = new AnswerCompressor(out, dict.record);
  const labels = new LabelJoins(dict.labels);
  let ord = 0;
  let barcodes = 0;
  try {
    for await (const { line, text } of readLines(file, (b) => log.add(`${file}:${b.line}: ${b.problem}`))) {
      const report = (m: string) => log.add(`${file}:${line}: ${m}`);
      const o = parseLine(text, report);
      const ords = o === null ? null : checkProduct(o, ordOf, report);
      if (o !== null) cross.check(o, line, report);
      if (ords !== null && log.total === 0) {
        const p = o as SourceProduct;
        const waiting = write(ord, p, ords, dict, out, compressor);
        barcodes += p.barcodes.length;
        indexes.add(ord, p, ords, dict);
        if (waiting) await waiting;
      }
      ord++;
      if (line % 1024 === 0) {
        labels.send();
        if (line % 4096 === 0) progress(line, ord);
      }
    }
    await compressor.done();
    if (log.total === 0) dict.labels.joined = await labels.done();
  } finally {
    // when the pass failed: their results are no longer wanted
    await Promise.all([compressor.close(), labels.close()]);
  }
  if (log.total === 0) indexes.write(out);
  return { products: ord, barcodes };
}

/** Writes a valid product's row, barcodes and answer; a promise when the compressor asks to wait. */
function write(
  ord: number,
  p: SourceProduct,
  ords: readonly number[],
  dict: Dictionary,
  out: CatalogueWriter,
  compressor: AnswerCompressor,
): Promise<void> | void {
  const row = renderProduct(ord, p, {
    ords: () => ords,
    category: (o: number) => dict.category[o],
    record: (o: number) => dict.record[o],
  });
  out.product(row);
  const waiting = compressor.add(ord, row.packed);
  for (const code of p.barcodes) out.barcode(gtinKey(code), ord);
  return waiting;
}
