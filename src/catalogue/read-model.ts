// The read model: one opened catalogue file, immutable while it is served.
// Guarantees: every answer is UTF-8 JSON bytes rendered at build time — a product is its
// packed blob with the ingredient records (kept in memory) copied back in, or its
// gzip form as stored; lists and batches are copies of such fragments (no
// serialisation, string encoding or compression per request); all indexes are loaded once
// at open (a swap opens in steps, openInSteps: every loader pauses after a bounded amount of
// work, a few thousand rows or a few hundred thousand postings, so that requests are served
// meanwhile; the label join tables are made by the label threads, label-pool.ts), so request
// work is lookups and bitset/posting-list passes
// only. Reads of the file per request: a product's packed answer with one pread of its own
// bytes, at the place found for it at open (packed-places.ts), a batch's the same way, one
// pread a distinct product (when the places could not be found as expected, or a place no
// longer holds its answer because the file changed under the server: through SQLite,
// by primary key, a batch's in one statement returning one row — the blobs concatenated, no
// Buffer per product); SQL for the rest — a product's compressed answer by primary key, and
// for a barcode first one primary-key read of the barcode's product ord. A file that is not
// a catalogue of this schema version is refused at open. The file is read with read(),
// never memory-mapped, so a file truncated or rewritten under it can fail a read but never
// stop the process: such a read (SQLite finding the file damaged or short, a row its indexes
// name missing) throws a 503 ApiError, never anything the server would answer 500.
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  FORMAT,
  SCHEMA_VERSION,
  TERMS_INGREDIENT_NAME,
  TERMS_INGREDIENT_OTHER,
  TERMS_PRODUCT,
  ANSWER_SLAB_BYTES,
  EntryTails,
  packedLength,
} from './format';
import type { IngredientCategory } from '../source/records';
import { TextIndex } from './text-index';
import { Fragments } from './fragments';
import { UuidOrds } from './uuid-ords';
import { PackedPlaces } from './packed-places';
import { Searcher } from './search';
import {
  FilterIndex,
  type FilterCount,
  type IngredientProducts,
  type ProductFilter,
  type ProductRowMeta,
} from './filter-index';
import { brandKey, gtinKey } from '../shared/text';
import { PAGE_SIZE } from '../shared/paging';
import { completed, type Steps } from '../shared/steps';
import type { LabelAnalyser } from './label-analysis';
import { analyserOf, labelSourceOf, type LabelSource } from './label-source';
import { SharedRecords } from './shared-records';
import { ApiError } from '../shared/errors';

/** Slabs the unpacking arena holds for batch answers (one per connection with a batch in flight). */
const ANSWER_SLABS = 32;

/** SQLite's page cache, KiB (better-sqlite3's default is 16,000). */
const PAGE_CACHE_KIB = 4096;

/** The forms a product answer is served in: as JSON, and as compressed at build time. */
export type AnswerEncoding = 'identity' | 'gzip';

export interface FilterQuery {
  category?: string;
  brand?: string;
  origin?: string;
  freeOf: IngredientCategory[];
  hasIngredient?: string;
  excludesIngredients: string[];
}

/** The catalogue being served; replaced whole when a newly built file is switched in. */
export interface CatalogueRef {
  current: Catalogue;
}

export class Catalogue {
  readonly products: number;
  readonly ingredients: number;
  readonly builtAt: string;
  readonly healthJson: string;
  private readonly db: Database.Database;
  /** The file open a second time, for the product reads by pread (places). */
  private readonly fd: number;
  /** Where each product's packed answer lies in the file; none when not found as expected (read through SQLite). */
  private readonly places: PackedPlaces | undefined;
  private readonly byOrd: Record<AnswerEncoding, Database.Statement<[number], Buffer>>;
  private readonly byGtin: Database.Statement<[string], number>;
  /** By number of ords: the batch's one read (packedOf). */
  private readonly packedReads: Array<Database.Statement<number[], [string, Buffer]>> = [];
  private readonly productIds: UuidOrds;
  private readonly summaries: Fragments;
  /** The ingredient records (2.5), shared with the label threads. */
  private readonly records: SharedRecords;
  /** The records as the ends of product entries (format.ts unpackInto). */
  private readonly tails: EntryTails;
  private readonly searchItems: Fragments;
  private readonly ingredientNames: string[];
  private readonly ingredientKeys: string[];
  private readonly ingredientIds: UuidOrds;
  private readonly productSearch: Searcher;
  private readonly ingredientSearch: Searcher;
  private readonly filter: FilterIndex;
  /** What the label workers read (label-pool.ts), and the analyser of this thread: made on first use, not at open. */
  private labels: { source: LabelSource; here?: LabelAnalyser } | undefined;

  static open(file: string): Catalogue {
    return completed(Catalogue.opening(file));
  }

  /**
   * open() in steps, letting the event loop run between them (each index loaded in steps of a
   * few thousand rows or a few hundred thousand postings): a catalogue swap opens the new file
   * this way, so that requests are served while it loads.
   */
  static async openInSteps(file: string): Promise<Catalogue> {
    const steps = Catalogue.opening(file);
    let r = steps.next();
    for (; r.done !== true; r = steps.next()) await new Promise(setImmediate);
    return r.value;
  }

  /** open(), pausing (yield) between steps of each index's loading. */
  private static *opening(file: string): Generator<void, Catalogue> {
    // Closed after SQLite's connection (close()): closing any descriptor of a file drops the
    // process's POSIX locks on it, SQLite's shared lock included.
    const fd = openSync(file, 'r');
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    try {
      // Take the shared lock once and keep it, rather than lock and re-check the file
      // around every read (about 5 of the 11 µs a product read took). Builds never write a served
      // file: they rename a new one over it.
      db.pragma('locking_mode = EXCLUSIVE');
      // No memory map (mmap_size stays 0): pages are read with pread into SQLite's page cache.
      // A mapped file truncated under the process (an operator's `cp` over it) kills it with
      // SIGBUS on the next read of a page past the new end; a read() just comes back short.
      // The map saved about 1 µs a product and 50–120 µs a batch of 50 in process
      // (docs/performance.md, "Memory map").
      return new Catalogue(db, fd, yield* loadInSteps(db, fd));
    } catch (err) {
      db.close();
      closeSync(fd);
      throw err;
    }
  }

  /** The schema version a catalogue file declares, or undefined when it is not a readable catalogue. */
  static versionOf(file: string): string | undefined {
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        return db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
      } finally {
        db.close();
      }
    } catch {
      return undefined;
    }
  }

  private constructor(db: Database.Database, fd: number, l: Loaded) {
    this.db = db;
    this.fd = fd;
    this.places = l.places;
    this.builtAt = l.meta.get('built_at') ?? 'unknown';
    ({ records: this.records, names: this.ingredientNames, keys: this.ingredientKeys } = l.ingredients);
    ({ ids: this.ingredientIds, searchItems: this.searchItems } = l.ingredients);
    this.ingredients = this.records.length;
    this.tails = l.tails;
    this.summaries = l.summaries;
    this.products = l.products;
    this.productIds = l.productIds;
    this.filter = l.filter;
    this.productSearch = l.productSearch;
    this.ingredientSearch = l.ingredientSearch;
    const answer = (sql: string) => db.prepare(sql).pluck() as Database.Statement<[number], Buffer>;
    this.byOrd = {
      identity: answer('SELECT packed FROM products WHERE ord = ?'),
      gzip: answer('SELECT gzip FROM product_encodings WHERE ord = ?'),
    };
    this.byGtin = db.prepare('SELECT product_ord FROM barcodes WHERE gtin = ?').pluck() as Database.Statement<
      [string],
      number
    >;
    this.healthJson = JSON.stringify({
      status: 'ok',
      products: this.products,
      ingredients: this.ingredients,
      built_at: this.builtAt,
    });
  }

  /** Full product answer (2.3) by uuid (letter case ignored), in the given encoding, or null. */
  product(id: string, encoding: AnswerEncoding = 'identity'): Buffer | null {
    const ord = this.productIds.ord(id);
    return ord < 0 ? null : this.answer(ord, encoding);
  }

  /** Full product answer by any zero-padded form of a barcode, in the given encoding, or null. */
  productByBarcode(code: string, encoding: AnswerEncoding = 'identity'): Buffer | null {
    const ord = readFile(() => this.byGtin.get(gtinKey(code)));
    return ord === undefined ? null : this.answer(ord, encoding);
  }

  /**
   * JSON array of answers (or null) in the order of the ids (letter case ignored); one SQL read for all
   * of them. `alloc` gives the buffer to write it in (at least the size asked; the answer is its first bytes).
   */
  batch(ids: string[], alloc?: (size: number) => Buffer): Buffer {
    const ords = ids.map((id) => this.productIds.ord(id));
    const wanted = [...new Set(ords)].filter((ord) => ord >= 0);
    const starts = new Int32Array(ords.length).fill(-1);
    if (wanted.length === 0) return this.tails.batch(EMPTY, starts, alloc);
    const { packed, startOf } = this.places === undefined ? this.packedRows(wanted) : this.placedMany(wanted);
    ords.forEach((ord, i) => {
      if (ord < 0) return;
      const start = startOf.get(ord);
      if (start === undefined) throw unreadable();
      starts[i] = start;
    });
    return this.tails.batch(packed, starts, alloc);
  }

  /** The packed answers of distinct `wanted` ords read through SQLite in one statement (packedOf), and where each starts. */
  private packedRows(wanted: number[]): { packed: Buffer; startOf: Map<number, number> } {
    const [readOrds, packed] = readFile(() => this.packedOf(wanted).get(...wanted)) ?? [];
    if (readOrds == null || packed == null) throw unreadable();
    const startOf = new Map<number, number>();
    let at = 0;
    for (const ord of parseOrds(readOrds)) {
      startOf.set(ord, at);
      at += packedLength(packed, at);
    }
    return { packed, startOf };
  }

  /** The same from their places in the file, one pread each (reused buffer: unpack at once); as placed() when one fails. */
  private placedMany(wanted: number[]): { packed: Buffer; startOf: Map<number, number> } {
    try {
      return this.places!.readMany(wanted);
    } catch {
      return this.packedRows(wanted);
    }
  }

  /**
   * A buffer to lend for batch answers (ANSWER_SLAB_BYTES): one of the slabs batch() writes
   * in without a copy while there are any (ANSWER_SLABS), then a new one.
   */
  answerSlab(): Buffer {
    return this.tails.slab() ?? Buffer.allocUnsafeSlow(ANSWER_SLAB_BYTES);
  }

  /**
   * The statement reading the packed answers of `ords.length` distinct ords (prepared once per
   * count) as one row: the ords read, comma-separated, and their packed answers one after the
   * other in the same order (one blob rather than a Buffer a row).
   */
  private packedOf(ords: number[]): Database.Statement<number[], [string, Buffer]> {
    let read = this.packedReads[ords.length];
    if (read === undefined) {
      const marks = ords.map(() => '?').join(',');
      read = this.db
        .prepare(
          `SELECT group_concat(ord), CAST(group_concat(packed, '') AS BLOB) FROM products WHERE ord IN (${marks})`,
        )
        .raw() as Database.Statement<number[], [string, Buffer]>;
      this.packedReads[ords.length] = read;
    }
    return read;
  }

  private answer(ord: number, encoding: AnswerEncoding): Buffer {
    const stored =
      (encoding === 'identity' ? this.placed(ord) : undefined) ?? readFile(() => this.byOrd[encoding].get(ord));
    if (stored === undefined) throw unreadable();
    return encoding === 'identity' ? this.tails.product(stored) : stored;
  }

  /** True when product answers are read by pread from their places in the file (packed-places.ts), false: through SQLite. */
  get readsByPlace(): boolean {
    return this.places !== undefined;
  }

  /**
   * The packed answer of `ord` read from its place in the file (reused buffer: unpack it at
   * once), or undefined: no places, or the place no longer holds it (the file changed under
   * the server), when the read goes through SQLite as it did before places, which answers
   * from its cache or refuses with 503.
   */
  private placed(ord: number): Buffer | undefined {
    try {
      return this.places?.read(ord);
    } catch {
      return undefined;
    }
  }

  /** Ingredient record (2.5) by uuid (letter case ignored), or null. */
  ingredient(id: string): Buffer | null {
    const ord = this.ingredientIds.ord(id);
    // A copy (about 280 bytes): fastify sends bytes as they are only when they lie in an ArrayBuffer, not a shared one.
    return ord < 0 ? null : this.records.copy(ord);
  }

  /** List response (2.8) of product summaries for the words of q (already folded, at most 10); `hint` when none match. */
  searchProducts(words: string[], page: number, hint: string): Buffer {
    const r = this.productSearch.search(words, (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return listJson(this.summaries, r.ords, page, r.total, () => ({ hint, terms: terms(words, r.wordCounts) }));
  }

  /** List response (2.8) of ingredient search items: names starting with q first (shortest first), then by relevance. */
  searchIngredients(words: string[], page: number, hint: string): Buffer {
    const key = words.join(' ');
    const boost = (ord: number) =>
      this.ingredientKeys[ord].startsWith(key) ? 1e9 - this.ingredientNames[ord].length : 0;
    const r = this.ingredientSearch.search(words, (page - 1) * PAGE_SIZE, PAGE_SIZE, boost);
    return listJson(this.searchItems, r.ords, page, r.total, () => ({ hint, terms: terms(words, r.wordCounts) }));
  }

  /**
   * List response (2.8) of product summaries matching every filter, in catalogue order; when
   * none match, `hint` words the no_match hint from what each filter matches on its own.
   */
  filterProducts(q: FilterQuery, page: number, hint: (alone: FilterCount[]) => string): Buffer {
    const f: ProductFilter = {
      category: q.category,
      brandKey: q.brand === undefined ? undefined : brandKey(q.brand),
      origin: q.origin,
      freeOf: q.freeOf,
      has: q.hasIngredient === undefined ? undefined : this.ingredientIds.ord(q.hasIngredient),
      excludes: q.excludesIngredients.map((id) => this.ingredientIds.ord(id)).filter((o) => o >= 0),
    };
    const r = this.filter.run(f, (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return listJson(this.summaries, r.ords, page, r.total, () => ({ hint: hint(this.filter.alone(f)) }));
  }

  /**
   * This catalogue's label tables as shared bytes with its generation, for the label
   * workers (label-pool.ts): read from this file's open connection on first use. The
   * join tables themselves are made by whoever analyses (a worker thread), not at open.
   */
  labelSource(): LabelSource {
    return (this.labels ??= { source: labelSourceOf(this.db, this.records) }).source;
  }

  /**
   * Label analysis (JSON) of a label text, joined to this catalogue's ingredients, on this
   * thread (the benches and tests; the HTTP route analyses in a worker, label-pool.ts):
   * the join tables are made on the first call.
   */
  analyseLabel(text: string): string {
    return this.analyser().analyse(text);
  }

  /** The same analysis as UTF-8 bytes, made in slices letting other work run between them (LabelAnalyser.analyseInSlices). */
  analyseLabelInSlices(text: string): Promise<Buffer> {
    return this.analyser().analyseInSlices(text);
  }

  private analyser(): LabelAnalyser {
    const source = this.labelSource();
    return (this.labels!.here ??= analyserOf(source));
  }

  close(): void {
    this.db.close();
    closeSync(this.fd);
  }
}

const EMPTY = Buffer.alloc(0);

/** The numbers of a comma-separated list of integers (group_concat of ords). */
function parseOrds(list: string): number[] {
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list.charCodeAt(i);
    if (c === 0x2c) {
      out.push(n);
      n = 0;
    } else n = n * 10 + c - 0x30;
  }
  out.push(n);
  return out;
}

/** What a catalogue loads at open, one index at a time (loadInSteps). */
interface Loaded {
  meta: Map<string, string>;
  ingredients: IngredientTables;
  tails: EntryTails;
  summaries: Fragments;
  products: number;
  productIds: UuidOrds;
  places: PackedPlaces | undefined;
  filter: FilterIndex;
  productSearch: Searcher;
  ingredientSearch: Searcher;
}

/** Loads every index of an opened file, pausing (yield) between steps of each and after each. */
function* loadInSteps(db: Database.Database, fd: number): Steps<Loaded> {
  const meta = readMeta(db);
  // SQLite's page cache is anonymous memory of the process, filled to its limit by the scans
  // below and by the reads through SQLite (gzip answers, barcodes). Product answers are read
  // by pread (places), and the reads left are random over a file of about 900 MB, where a
  // cache mostly misses anyway: 4 MiB holds the tables' interior pages (PAGE_CACHE_KIB). Set
  // once the file is known to be a catalogue (the pragma reads the schema: on another file it
  // would fail before readMeta could say why).
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const size = (key: string) => Number(meta.get(key) ?? 0);
  const ingredients = yield* loadIngredients(db, size('ingredients'), size('search_item_bytes'));
  yield;
  const { records } = ingredients;
  const recordBytes = Array.from({ length: records.length }, (_, ord) => records.record(ord));
  yield;
  const tails = new EntryTails(recordBytes, ANSWER_SLABS);
  yield;
  const rows = yield* loadProducts(db, size('products'), size('summary_bytes'));
  const products = rows.rows.count;
  yield;
  const productIds = yield* loadProductIds(db, products);
  yield;
  const places = yield* findPlaces(db, fd, products);
  yield;
  const postings = ingredientPostings(db);
  yield;
  const filter = yield* FilterIndex.load(products, rows.rows, postings);
  yield;
  const productSearch = yield* loadProductSearch(db, products);
  yield;
  const ingredientSearch = yield* loadIngredientSearch(db, ingredients.records.length);
  return {
    meta,
    ingredients,
    tails,
    summaries: rows.summaries,
    products,
    productIds,
    places,
    filter,
    productSearch,
    ingredientSearch,
  };
}

/** The meta table, checked: a file of another format or schema version is refused. */
function readMeta(db: Database.Database): Map<string, string> {
  const meta = new Map<string, string>();
  try {
    for (const r of db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[])
      meta.set(r.key, r.value);
  } catch {
    throw new Error('not a catalogue file (no meta table)');
  }
  if (meta.get('format') !== FORMAT) throw new Error('not a catalogue file (format is not ' + FORMAT + ')');
  if (meta.get('schema_version') !== SCHEMA_VERSION) {
    throw new Error(
      `catalogue schema version ${meta.get('schema_version')} is not the supported version ${SCHEMA_VERSION}`,
    );
  }
  return meta;
}

interface IngredientTables {
  ids: UuidOrds;
  names: string[];
  keys: string[];
  /** Each ord's record (2.5) as bytes. */
  records: SharedRecords;
  searchItems: Fragments;
}

/** Rows read between two pauses of a loader. */
const ROWS_PER_STEP = 2048;

/** The ingredients by ord: id lookup, names, records and search items (pausing every ROWS_PER_STEP rows). */
function* loadIngredients(
  db: Database.Database,
  count: number,
  searchItemBytes: number,
): Generator<void, IngredientTables> {
  const ids: Array<[string, number]> = [];
  const records: string[] = [];
  const t: Omit<IngredientTables, 'ids' | 'records'> = {
    names: [],
    keys: [],
    searchItems: new Fragments(count, searchItemBytes),
  };
  for (const [ord, id, name, key, record, item] of db
    .prepare('SELECT ord, id, name, name_key, record, search_item FROM ingredients ORDER BY ord')
    .raw()
    .iterate() as Iterable<[number, string, string, string, string, string]>) {
    ids.push([id, ord]);
    t.names[ord] = name;
    t.keys[ord] = key;
    records[ord] = record;
    t.searchItems.push(item);
    if (ord % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  ids.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  yield;
  const shared = SharedRecords.of(records);
  yield;
  return { ...t, records: shared, ids: yield* UuidOrds.load(ids.length, ids, ROWS_PER_STEP) };
}

/**
 * Each ingredient ord's products, for the filter index to decode row by row (FilterIndex
 * packIngredients): how many each has first (the lists' lengths, without their bytes), then the rows.
 */
function ingredientPostings(db: Database.Database): IngredientProducts {
  const lengths = db.prepare('SELECT ingredient_ord, length(postings) FROM ingredient_products').raw().all() as Array<
    [number, number]
  >;
  const counts = new Int32Array(lengths.reduce((n, [ord]) => Math.max(n, ord + 1), 0));
  for (const [ord, bytes] of lengths) counts[ord] = bytes >>> 2;
  const rows = () =>
    db.prepare('SELECT ingredient_ord, postings FROM ingredient_products').raw().iterate() as Iterable<
      [number, Buffer]
    >;
  return { counts, rows };
}

/**
 * The products' filter fields (ProductRowMeta) as columns, for the filter index to read once
 * at open: a row object is made as it is read (and dies young), rather than one kept per product
 * while the catalogue opens (200,000 objects and their strings, promoted to the old generation
 * and garbage once the filter index is made: 30 MB of heap at open).
 */
class ProductColumns implements Iterable<ProductRowMeta> {
  count = 0;
  private readonly ords: Int32Array;
  private readonly flags: Int32Array;
  /** Index in `values` of each row's brand key, category and origin (-1: null). */
  private readonly fields: Int32Array;
  private readonly values: string[] = [];
  private readonly valueIds = new Map<string, number>();

  /** For at most `capacity` rows (more are refused: the meta's count is wrong). */
  constructor(capacity: number) {
    this.ords = new Int32Array(capacity);
    this.flags = new Int32Array(capacity);
    this.fields = new Int32Array(capacity * 3);
  }

  push(ord: number, brandKey: string | null, category: string | null, origin: string | null, flags: number): void {
    const i = this.count;
    if (i === this.ords.length) throw new Error('catalogue meta does not match its rows (products)');
    this.ords[i] = ord;
    this.flags[i] = flags;
    this.fields[i * 3] = this.id(brandKey);
    this.fields[i * 3 + 1] = this.id(category);
    this.fields[i * 3 + 2] = this.id(origin);
    this.count++;
  }

  *[Symbol.iterator](): Iterator<ProductRowMeta> {
    const value = (i: number) => (this.fields[i] < 0 ? null : this.values[this.fields[i]]);
    for (let i = 0; i < this.count; i++) {
      yield {
        ord: this.ords[i],
        brand_key: value(i * 3),
        category: value(i * 3 + 1),
        origin: value(i * 3 + 2),
        flags: this.flags[i],
      };
    }
  }

  private id(v: string | null): number {
    if (v === null) return -1;
    let id = this.valueIds.get(v);
    if (id === undefined) this.valueIds.set(v, (id = this.values.push(v) - 1));
    return id;
  }
}

/** Each product's filter fields, in ord order, and its summary (2.8 list item; pausing every ROWS_PER_STEP rows). */
function* loadProducts(
  db: Database.Database,
  count: number,
  summaryBytes: number,
): Generator<void, { rows: ProductColumns; summaries: Fragments }> {
  const rows = new ProductColumns(count);
  const summaries = new Fragments(count, summaryBytes, true);
  for (const [ord, bk, category, origin, flags, summary] of db
    .prepare('SELECT ord, brand_key, category, origin, flags, summary FROM products ORDER BY ord')
    .raw()
    .iterate() as Iterable<[number, string | null, string | null, string | null, number, string]>) {
    summaries.push(summary);
    rows.push(ord, bk, category, origin, flags);
    if (ord % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  return { rows, summaries };
}

/** Where the products' packed answers lie in the file (packed-places.ts), checked against SQLite's reads. */
function findPlaces(db: Database.Database, fd: number, products: number): Generator<void, PackedPlaces | undefined> {
  const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'products'").pluck();
  const packed = db.prepare('SELECT packed FROM products WHERE ord = ?').pluck() as Database.Statement<
    [number],
    Buffer
  >;
  return PackedPlaces.find(fd, root.get() as number, products, (ord) => packed.get(ord));
}

/** Product id → ord (pausing every ROWS_PER_STEP rows). */
function loadProductIds(db: Database.Database, products: number): Steps<UuidOrds> {
  const rows = db.prepare('SELECT id, ord FROM products ORDER BY id').raw().iterate() as Iterable<[string, number]>;
  return UuidOrds.load(products, rows, ROWS_PER_STEP);
}

/** One kind of search_terms (the lists' lengths first, then the rows decoded as read: TextIndex). */
function textIndex(db: Database.Database, kind: number, docs: number): Steps<TextIndex> {
  const lengths = db.prepare('SELECT term, length(postings) FROM search_terms WHERE kind = ?').raw().all(kind) as Array<
    [string, number]
  >;
  const rows = () =>
    db.prepare('SELECT term, postings FROM search_terms WHERE kind = ?').raw().iterate(kind) as Iterable<
      [string, Buffer]
    >;
  return TextIndex.load({ counts: lengths.map(([term, bytes]) => [term, bytes >>> 2]), rows }, docs);
}

/** Product search over brand and name words. */
function* loadProductSearch(db: Database.Database, products: number): Steps<Searcher> {
  return new Searcher([{ index: yield* textIndex(db, TERMS_PRODUCT, products), weight: 1 }], products);
}

/** Ingredient search: name words weigh twice the other names' words. */
function* loadIngredientSearch(db: Database.Database, ingredients: number): Steps<Searcher> {
  const names = yield* textIndex(db, TERMS_INGREDIENT_NAME, ingredients);
  const others = yield* textIndex(db, TERMS_INGREDIENT_OTHER, ingredients);
  return new Searcher(
    [
      { index: names, weight: 2 },
      { index: others, weight: 1 },
    ],
    ingredients,
  );
}

function terms(words: string[], counts: number[]): Array<{ term: string; matches: number }> {
  return words.map((term, i) => ({ term, matches: counts[i] }));
}

function listJson(
  items: Fragments,
  ords: ArrayLike<number>,
  page: number,
  total: number,
  noMatch: () => object,
): Buffer {
  const pagination = `],"pagination":{"page":${page},"has_more":${total > page * PAGE_SIZE},"total":${total}}`;
  return items.results(ords, total === 0 ? `${pagination},"no_match":${JSON.stringify(noMatch())}}` : pagination + '}');
}

/** Said when the file fails a read or lacks a row its indexes name: changed under the server (a 503, never a 500). */
export const UNREADABLE = 'the catalogue file could not be read (it changed while being served); retry shortly';

function unreadable(): ApiError {
  return new ApiError('unavailable', UNREADABLE);
}

/** Runs a read of the file; SQLite finding it damaged, short or gone becomes unreadable(). */
function readFile<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(CORRUPT|IOERR|NOTADB|CANTOPEN)/.test(code)) throw unreadable();
    throw err;
  }
}
