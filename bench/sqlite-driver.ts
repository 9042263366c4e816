// The SQLite driver question (issue 34): better-sqlite3 (what the read model uses) against
// Node's built-in node:sqlite, on one catalogue file, for exactly the SQL the read model runs.
// Per request that is one primary-key read for a product by id (its packed or gzip blob), two
// for a barcode, one group_concat statement for a batch of up to 50; searches, filters and
// ingredient reads run no SQL (their indexes are loaded at open), so the open's full-table
// reads are measured too. Guarantees: reads only; both drivers open the file read-only with the
// read model's pragma (locking_mode EXCLUSIVE) and the same page cache, run the same statements on the same keys in
// the same order, after a warm-up pass; prints CPU µs per call (process.cpuUsage, user +
// system) for each, node:sqlite's blobs wrapped as Buffers as the read model would need them.
// Usage: npm run bench:sqlite -- [catalogue.db] [scale of the rounds]
import Database from 'better-sqlite3';
import { DatabaseSync } from 'node:sqlite';

type Call = () => unknown;

/**
 * The page cache both connections get: better-sqlite3's compiled-in default (16 MB, where
 * SQLite's own and so node:sqlite's is 2 MB, which alone doubles node:sqlite's cost of a random
 * product read on a 200,000-product file).
 */
const CACHE_KIB = -16000;

interface Driver {
  name: string;
  /** Statement runner returning the first row as an array (or undefined). */
  row(sql: string): (...params: Array<number | string>) => unknown[] | undefined;
  /** Every row of a statement, as arrays. */
  rows(sql: string): () => unknown[][];
  close(): void;
}

function betterSqlite(file: string): Driver {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma(`cache_size = ${CACHE_KIB}`);
  return {
    name: 'better-sqlite3',
    row(sql) {
      const s = db.prepare(sql).raw();
      return (...p) => s.get(...p) as unknown[] | undefined;
    },
    rows(sql) {
      const s = db.prepare(sql).raw();
      return () => s.all() as unknown[][];
    },
    close: () => db.close(),
  };
}

function nodeSqlite(file: string): Driver {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  db.exec(`PRAGMA cache_size = ${CACHE_KIB}`);
  const buffers = (row: unknown[]) =>
    row.map((v) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
  return {
    name: 'node:sqlite',
    row(sql) {
      const s = db.prepare(sql);
      s.setReturnArrays(true);
      return (...p) => {
        const r = s.get(...p) as unknown[] | undefined;
        return r === undefined ? r : buffers(r);
      };
    },
    rows(sql) {
      const s = db.prepare(sql);
      s.setReturnArrays(true);
      return () => (s.all() as unknown as unknown[][]).map(buffers);
    },
    close: () => db.close(),
  };
}

function cpuPerCall(calls: Call[], rounds: number): number {
  for (const c of calls) c();
  const t = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const c of calls) c();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / (rounds * calls.length);
}

/** A deterministic spread of n picks from 0..size-1. */
function picks(n: number, size: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % size;
  });
}

function workloads(d: Driver, products: number, gtins: string[]): Array<[string, Call[], number]> {
  const packed = d.row('SELECT packed FROM products WHERE ord = ?');
  const gzip = d.row('SELECT gzip FROM product_encodings WHERE ord = ?');
  const byGtin = d.row('SELECT product_ord FROM barcodes WHERE gtin = ?');
  const marks = Array(50).fill('?').join(',');
  const batch = d.row(
    `SELECT group_concat(ord), CAST(group_concat(packed, '') AS BLOB) FROM products WHERE ord IN (${marks})`,
  );
  const ords = picks(2000, products, 7);
  const batches = Array.from({ length: 100 }, (_, i) => [...new Set(picks(50, products, 1000 + i))]);
  return [
    ['product by id (packed blob)', ords.map((o) => () => packed(o)), 20],
    ['product by id (gzip blob)', ords.map((o) => () => gzip(o)), 20],
    ['barcode (ord, then blob)', gtins.map((g) => () => packed(byGtin(g)![0] as number)), 20],
    ['batch of 50 (one statement)', batches.map((b) => () => batch(...b.concat(b.slice(0, 50 - b.length)))), 5],
    ['open: products table scan', [d.rows('SELECT ord, brand_key, category, origin, flags, summary FROM products')], 1],
    ['open: search terms scan', [d.rows('SELECT term, postings FROM search_terms')], 1],
  ];
}

function main(): void {
  const file = process.argv[2] ?? 'var/bench/p200000-i30000-s1/catalogue.db';
  const scale = Number(process.argv[3] ?? 1);
  const probe = new Database(file, { readonly: true, fileMustExist: true });
  const products = probe.prepare('SELECT count(*) FROM products').pluck().get() as number;
  const gtins = probe.prepare('SELECT gtin FROM barcodes ORDER BY gtin LIMIT 2000').pluck().all() as string[];
  probe.close();
  console.log(`${file}: ${products} products; CPU µs per call (lower is better), ${process.version}`);
  const drivers = [betterSqlite(file), nodeSqlite(file)];
  try {
    const runs = drivers.map((d) => workloads(d, products, gtins));
    console.log(`${''.padEnd(30)} ${drivers.map((d) => d.name.padStart(15)).join(' ')}   ratio`);
    for (let i = 0; i < runs[0].length; i++) {
      const [name, , rounds] = runs[0][i];
      // Alternate the drivers twice, keeping each one's best, so a busy moment hits both alike.
      const best = [Infinity, Infinity];
      for (let pass = 0; pass < 2; pass++) {
        runs.forEach((r, d) => (best[d] = Math.min(best[d], cpuPerCall(r[i][1], Math.max(1, rounds * scale)))));
      }
      const figures = best.map((b) => b.toFixed(b < 100 ? 2 : 0).padStart(15)).join(' ');
      console.log(`${name.padEnd(30)} ${figures}   ${(best[1] / best[0]).toFixed(2)} ×`);
    }
  } finally {
    for (const d of drivers) d.close();
  }
}

main();
