// What `catalogue demo` prints to try: requests that answer something on the catalogue it
// serves, made from the first products of its source (the service itself never lists a
// product's barcodes). Guarantees: every path returned answers 200 with a product or a
// non-empty page on a catalogue built from that source (test/readme-examples.test.ts runs
// them on the bundled sample); only the first few lines of the source are read.
import * as path from 'node:path';
import { readLines } from '../source/lines';

export interface DemoTries {
  /** Paths with their query, each answering something. */
  paths: string[];
  /** More product ids, for /v1/products/{id} and the batch. */
  ids: string[];
  brand: string;
  barcode: string;
}

interface SourceProductLine {
  id: string;
  brand: string;
  barcodes?: string[];
  ingredients?: unknown[];
}

/** Requests to try, from the first products of the source directory (products.jsonl or .jsonl.gz). */
export async function demoTries(sourceDir: string): Promise<DemoTries> {
  const products: SourceProductLine[] = [];
  for await (const { text } of readLines(productsFile(sourceDir))) {
    products.push(JSON.parse(text) as SourceProductLine);
    if (products.length >= 50) break;
  }
  const first = products.find((p) => (p.barcodes?.length ?? 0) > 0 && (p.ingredients?.length ?? 0) > 0);
  if (first === undefined) throw new Error(`no product with a barcode among the first lines of ${sourceDir}`);
  const q = encodeURIComponent(first.brand.toLowerCase());
  return {
    paths: [
      `/v1/products/search?q=${q}`,
      `/v1/products?brand=${q}`,
      `/v1/products/${first.id}`,
      `/v1/products/barcode/${first.barcodes![0]}`,
    ],
    ids: products
      .filter((p) => p !== first)
      .slice(0, 3)
      .map((p) => p.id),
    brand: first.brand,
    barcode: first.barcodes![0],
  };
}

function productsFile(sourceDir: string): string {
  return path.join(sourceDir, 'products.jsonl.gz');
}

/** The lines `demo` prints after the key. */
export function triesText(t: DemoTries, base: string, key: string): string {
  return [
    `try (brand ${t.brand}, barcode ${t.barcode}; more product ids: ${t.ids.join(', ')}):`,
    ...t.paths.map((p) => `  curl -H 'x-api-key: ${key}' '${base}${p}'`),
    '',
  ].join('\n');
}
