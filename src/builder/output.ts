// Writing the catalogue database file (format.ts). Guarantees: everything is written
// to a temporary file next to FILE in one transaction; FILE is replaced only by an
// atomic rename after the temporary file is complete and fsynced, and the temporary
// file is removed on failure — including when the process exits mid-build; the
// temporaries (FILE.tmp-PID and its journal) of a build that was killed are removed
// by the next build for FILE once their PID is no longer alive.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { DDL, type IngredientRow, type ProductRow } from '../catalogue/format';

export class CatalogueWriter {
  private readonly db: Database.Database;
  private readonly removeOnExit = () => unlinkQuietly(this.tmp);
  private summaryBytes = 0;
  private searchItemBytes = 0;
  private readonly stmt: {
    meta: Database.Statement;
    ingredient: Database.Statement;
    product: Database.Statement;
    encodings: Database.Statement;
    barcode: Database.Statement;
    postings: Database.Statement;
    term: Database.Statement;
    labelKey: Database.Statement;
  };

  private constructor(
    readonly outFile: string,
    private readonly tmp: string,
  ) {
    process.on('exit', this.removeOnExit);
    try {
      this.db = new Database(tmp);
      this.db.pragma('page_size = 8192'); // rows of 1–3 KB pack better than in 4 KiB pages
      this.db.pragma('journal_mode = OFF');
      this.db.pragma('synchronous = OFF');
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.pragma('temp_store = MEMORY');
      this.db.pragma('cache_size = -131072'); // 128 MiB
      this.db.exec(DDL);
      this.stmt = {
        meta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)'),
        // Positional parameters: binding a row's fields by name cost about a quarter more per insert.
        ingredient: this.db.prepare(
          'INSERT INTO ingredients (ord, id, name, name_key, record, search_item) VALUES (?, ?, ?, ?, ?, ?)',
        ),
        product: this.db.prepare(
          'INSERT INTO products (ord, id, brand_key, category, origin, flags, summary, packed) ' +
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ),
        encodings: this.db.prepare('INSERT INTO product_encodings (ord, gzip) VALUES (?, ?)'),
        barcode: this.db.prepare('INSERT INTO barcodes (gtin, product_ord) VALUES (?, ?)'),
        postings: this.db.prepare('INSERT INTO ingredient_products (ingredient_ord, postings) VALUES (?, ?)'),
        term: this.db.prepare('INSERT INTO search_terms (kind, term, postings) VALUES (?, ?, ?)'),
        labelKey: this.db.prepare('INSERT INTO label_keys (kind, entries) VALUES (?, ?)'),
      };
      this.db.exec('BEGIN');
    } catch (err) {
      this.discard();
      throw err;
    }
  }

  /** Starts a new catalogue for outFile (its directory is created when missing). */
  static open(outFile: string): CatalogueWriter {
    fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
    const tmp = `${outFile}.tmp-${process.pid}`;
    unlinkQuietly(tmp);
    removeStaleTemporaries(outFile);
    return new CatalogueWriter(outFile, tmp);
  }

  meta(key: string, value: string): void {
    this.stmt.meta.run(key, value);
  }
  ingredient(row: IngredientRow): void {
    this.stmt.ingredient.run(row.ord, row.id, row.name, row.name_key, row.record, row.search_item);
    this.searchItemBytes += Buffer.byteLength(row.search_item);
  }
  product(row: ProductRow): void {
    const { ord, id, brand_key, category, origin, flags, summary, packed } = row;
    this.stmt.product.run(ord, id, brand_key, category, origin, flags, summary, packed);
    this.summaryBytes += Buffer.byteLength(row.summary);
  }
  /** The gzip form of a product's answer (src/builder/encodings.ts). */
  encodings(ord: number, gzip: Buffer): void {
    this.stmt.encodings.run(ord, gzip);
  }
  barcode(gtin: string, productOrd: number): void {
    this.stmt.barcode.run(gtin, productOrd);
  }
  postings(ingredientOrd: number, postings: Buffer): void {
    this.stmt.postings.run(ingredientOrd, postings);
  }
  terms(kind: number, entries: Iterable<[string, Buffer]>): void {
    for (const [term, postings] of entries) this.stmt.term.run(kind, term, postings);
  }
  labelKeys(kind: number, entries: Iterable<[string, number]>): void {
    this.labelKeysText(kind, JSON.stringify([...entries]));
  }
  /** A kind's entries as labelKeys writes them: a JSON array of [key, ingredient ord]. */
  labelKeysText(kind: number, entries: string): void {
    this.stmt.labelKey.run(kind, entries);
  }

  /** Commits, makes the file durable and renames it over outFile. */
  commit(): void {
    try {
      // The read model sizes its fragment buffers from these, so opening makes no garbage.
      this.meta('summary_bytes', String(this.summaryBytes));
      this.meta('search_item_bytes', String(this.searchItemBytes));
      this.db.exec('COMMIT');
      this.db.pragma('journal_mode = DELETE');
      this.db.close();
      fsyncPath(this.tmp, 'r+');
      fs.renameSync(this.tmp, this.outFile);
    } catch (err) {
      this.discard();
      throw err;
    }
    process.off('exit', this.removeOnExit);
    try {
      fsyncPath(path.dirname(path.resolve(this.outFile)), 'r'); // makes the rename durable
    } catch {
      // not every platform can fsync a directory; the file itself is already durable
    }
  }

  /** Abandons the build: closes and removes the temporary file; outFile is untouched. */
  discard(): void {
    try {
      if (this.db?.open) this.db.close();
    } finally {
      unlinkQuietly(this.tmp);
      process.off('exit', this.removeOnExit);
    }
  }
}

function fsyncPath(p: string, flags: string): void {
  const fd = fs.openSync(p, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function unlinkQuietly(p: string): void {
  for (const f of [p, p + '-journal']) {
    try {
      fs.unlinkSync(f);
    } catch {
      // already gone
    }
  }
}

/** Removes FILE.tmp-PID and FILE.tmp-PID-journal left by builds whose process no longer exists. */
export function removeStaleTemporaries(outFile: string): void {
  const dir = path.dirname(path.resolve(outFile));
  const prefix = path.basename(outFile) + '.tmp-';
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)(?:-journal|-wal|-shm)?$/.exec(name.slice(prefix.length));
    if (m && !isAlive(Number(m[1]))) unlinkQuietly(path.join(dir, name));
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
