// A catalogue file cut short under an open read model (an operator copying over the served
// file instead of renaming): every product, barcode and batch read either answers from what
// is still readable or refuses with a 503 ApiError; none throws anything else (which the
// server would answer 500) and none stops the process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Catalogue } from '../src/catalogue/read-model';
import { ApiError } from '../src/shared/errors';
import { buildFixture, productId, products } from './support/fixture';

function outcome(read: () => unknown): 'answer' | 503 {
  try {
    read();
    return 'answer';
  } catch (err) {
    assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
    assert.equal(err.statusCode, 503);
    return 503;
  }
}

test('reads of a catalogue file truncated under the read model answer or refuse with 503', async () => {
  const { file, dir } = await buildFixture();
  const c = Catalogue.open(file);
  try {
    fs.truncateSync(file, Math.floor(fs.statSync(file).size * 0.4));
    const seen = { answer: 0, 503: 0 };
    products.forEach((p, ord) => {
      seen[outcome(() => c.product(productId(ord)))]++;
      seen[outcome(() => c.product(productId(ord), 'gzip'))]++;
      for (const b of p.barcodes ?? []) seen[outcome(() => c.productByBarcode(b))]++;
    });
    for (let ord = 0; ord < products.length; ord += 50) {
      const ids = products.slice(ord, ord + 50).map((_, i) => productId(ord + i));
      seen[outcome(() => c.batch(ids))]++;
    }
    assert.ok(seen[503] > 0, 'the cut reached rows read');
  } finally {
    c.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('reads of a catalogue file overwritten with zeros under the read model answer or refuse with 503', async () => {
  const { file, dir } = await buildFixture();
  const c = Catalogue.open(file);
  try {
    assert.ok(c.readsByPlace, 'product answers are read from their places in the file');
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(size - Math.floor(size * 0.4)), 0, undefined, Math.floor(size * 0.4));
    fs.closeSync(fd);
    const seen = { answer: 0, 503: 0 };
    products.forEach((_, ord) => {
      seen[outcome(() => c.product(productId(ord)))]++;
      seen[outcome(() => c.product(productId(ord), 'gzip'))]++;
    });
    assert.ok(seen[503] > 0, 'the zeros reached rows read');
  } finally {
    c.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
