// The request mixes of the benchmark, drawn from the built catalogue itself (ids,
// barcodes, brand and name words, common ingredients). Guarantees: the mixes are
// reproducible (seeded), every request is valid (200 expected), and each list is long
// enough that the load generator cycles through many distinct requests.
import Database from 'better-sqlite3';
import { words } from '../src/shared/text';
import { LAST_PAGE } from '../src/shared/paging';
import { PRODUCT_CATEGORIES } from '../src/source/records';
import { FREE_PARAM } from '../src/http/no-match';
import { EntryTails } from '../src/catalogue/format';
import { mulberry32 } from '../src/synth/prng';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Workload {
  health: BenchRequest[];
  productById: BenchRequest[];
  barcode: BenchRequest[];
  batch: BenchRequest[];
  productSearch: BenchRequest[];
  filter: BenchRequest[];
  ingredientSearch: BenchRequest[];
  ingredientById: BenchRequest[];
  labelAnalysis: BenchRequest[];
  /** The label texts of labelAnalysis (40 entries each), for the in-process figure. */
  labelTexts: string[];
  productIds: string[];
  /** Mean byte length of the answers productById asks for (the bare server's large body matches it). */
  productBytes: number;
}

/** Requests per list: enough distinct requests, few enough that every connection prebuilds its copy quickly. */
const SIZE = 5_000;
const FREE = Object.values(FREE_PARAM);

export function buildWorkload(file: string, seed: number): Workload {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const times = (n: number, f: () => BenchRequest) => Array.from({ length: n }, f);
    const get = (path: string): BenchRequest => ({ method: 'GET', path });
    const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

    // n distinct rows drawn with the seeded generator (a partial Fisher–Yates shuffle), so a seed gives the same mix.
    const sample = (sql: string, n: number) => {
      const rows = db.prepare(sql).pluck().all() as string[];
      for (let i = 0; i < Math.min(n, rows.length); i++) {
        const j = i + Math.floor(rnd() * (rows.length - i));
        [rows[i], rows[j]] = [rows[j], rows[i]];
      }
      return rows.slice(0, n);
    };
    const productIds = sample('SELECT id FROM products ORDER BY ord', SIZE);
    const gtins = sample('SELECT gtin FROM barcodes ORDER BY gtin', SIZE);
    const ingredientIds = db.prepare('SELECT id FROM ingredients').pluck().all() as string[];
    const summaries = sample('SELECT summary FROM products ORDER BY ord', 4 * SIZE).map(
      (s) => JSON.parse(s) as { brand: string | null; name: string | null },
    );
    const brands = summaries.map((s) => s.brand).filter((b): b is string => b !== null);
    const brandWords = brands.flatMap((b) => words(b));
    const nameWords = summaries.flatMap((s) => (s.name === null ? [] : words(s.name)));
    const titles = summaries.map((s) => words(`${s.brand ?? ''} ${s.name ?? ''}`)).filter((w) => w.length >= 2);
    // The most common ingredients by posting-list size (4 bytes per product).
    const common = db
      .prepare(
        'SELECT i.id FROM ingredient_products p JOIN ingredients i ON i.ord = p.ingredient_ord ORDER BY length(p.postings) DESC LIMIT 30',
      )
      .pluck()
      .all() as string[];
    const ingredientText = (
      db.prepare('SELECT name, search_item FROM ingredients').raw().all() as [string, string][]
    ).map(([name, item]) => ({
      name: words(name),
      other: words((JSON.parse(item) as { other_names: string | null }).other_names ?? ''),
    }));
    if (productIds.length === 0 || ingredientIds.length === 0)
      throw new Error(`${file} has no products or no ingredients`);

    const records = new EntryTails(
      (db.prepare('SELECT record FROM ingredients ORDER BY ord').pluck().all() as string[]).map((r) => Buffer.from(r)),
    );
    const packed = db.prepare('SELECT packed FROM products WHERE id = ?').pluck();
    const answers = productIds.map((id) => records.product(packed.get(id) as Buffer));
    const productBytes = answers.reduce((n, a) => n + a.length, 0) / answers.length;
    // Label texts of 40 entries, printed as labels print them, from the catalogue's own label names.
    const labelNames = (db.prepare('SELECT packed FROM products ORDER BY ord LIMIT 2000').pluck().all() as Buffer[])
      .map((p) => records.product(p))
      .flatMap((b) =>
        (JSON.parse(b.toString()) as { ingredients: { label_name: string }[] }).ingredients.map((e) => e.label_name),
      );
    const labelText = () => {
      const names = Array.from({ length: 40 }, () => pick(labelNames));
      return `Ingredients: ${names.slice(0, 37).join(', ')}. May contain: ${names.slice(37).join(', ')}.`;
    };
    const labelTexts =
      labelNames.length === 0
        ? []
        : times(1_000, () => ({ method: 'GET' as const, path: labelText() })).map((r) => r.path);

    const nonsense = () =>
      Array.from({ length: int(5, 8) }, () => String.fromCharCode(int(0, 25) + 97)).join('') + 'qzx';
    const prefix = (w: string) => w.slice(0, Math.min(w.length, int(1, 3)));
    const search = (path: string, q: string, page = 1) =>
      get(`${path}?${qs(page === 1 ? { q } : { q, page: String(page) })}`);
    const run = (ws: string[]) => {
      const start = int(0, Math.max(0, ws.length - 3));
      return ws.slice(start, start + int(2, 3)).join(' ');
    };

    const productSearch = (): BenchRequest => {
      const r = rnd();
      const p = '/v1/products/search';
      if (r < 0.2) return search(p, pick(brandWords));
      if (r < 0.4) return search(p, pick(nameWords));
      if (r < 0.6) return search(p, run(pick(titles)));
      if (r < 0.75) return search(p, prefix(pick(rnd() < 0.5 ? brandWords : nameWords)));
      if (r < 0.85) return search(p, rnd() < 0.5 ? nonsense() : `${pick(brandWords)} ${nonsense()}`);
      return search(p, pick(nameWords), int(10, LAST_PAGE));
    };

    const filter = (): BenchRequest => {
      const r = rnd();
      const params: Record<string, string> = {};
      const flags = (n: number) => {
        for (const f of [...FREE].sort(() => rnd() - 0.5).slice(0, n)) params[f] = 'true';
      };
      if (r < 0.2) flags(1);
      else if (r < 0.4) {
        flags(int(2, 4));
        if (rnd() < 0.5) params.category = pick(PRODUCT_CATEGORIES);
      } else if (r < 0.55) {
        params.brand = pick(brands);
        if (rnd() < 0.3) flags(1);
      } else if (r < 0.7) {
        params.has_ingredient = pick(common);
        if (rnd() < 0.5) flags(1);
      } else if (r < 0.85) {
        params.excludes_ingredient = Array.from({ length: int(1, 3) }, () => pick(common)).join(',');
        if (rnd() < 0.5) flags(1);
      } else {
        params.has_ingredient = pick(common);
        params.excludes_ingredient = pick(common);
        params.category = pick(PRODUCT_CATEGORIES);
      }
      if (rnd() < 0.15) params.page = String(int(10, LAST_PAGE));
      return get(`/v1/products?${qs(params)}`);
    };

    const ingredientSearch = (): BenchRequest => {
      const r = rnd();
      const p = '/v1/ingredients/search';
      const ing = pick(ingredientText);
      const ws = ing.name.length > 0 ? ing.name : ['acid'];
      if (r < 0.35) return search(p, pick(ws));
      if (r < 0.55) return search(p, ws.slice(0, 2).join(' '));
      if (r < 0.75) return search(p, prefix(pick(ws)) + (rnd() < 0.5 ? '' : pick(['a', 'e', 'o', 'i'])));
      if (r < 0.85 && ing.other.length > 0) return search(p, pick(ing.other));
      if (r < 0.92) return search(p, nonsense());
      return search(p, pick(ws), int(2, 10));
    };

    // Barcodes in random zero-padded forms: every form of a stored code resolves.
    const barcode = (code: string) => code.padStart(Math.max(8, code.length, pick([8, 12, 13, 14])), '0');

    return {
      health: [get('/health')],
      productById: productIds.map((id) => get(`/v1/products/${id}`)),
      barcode: gtins.length === 0 ? [] : times(SIZE, () => get(`/v1/products/barcode/${barcode(pick(gtins))}`)),
      batch: times(1_000, () => ({
        method: 'POST',
        path: '/v1/products/batch',
        body: JSON.stringify({ ids: Array.from({ length: 50 }, () => pick(productIds)) }),
      })),
      productSearch: times(SIZE, productSearch),
      filter: times(SIZE, filter),
      ingredientSearch: times(SIZE, ingredientSearch),
      ingredientById: times(SIZE, () => get(`/v1/ingredients/${pick(ingredientIds)}`)),
      labelAnalysis: labelTexts.map((text) => ({
        method: 'POST',
        path: '/v1/labels/analyze',
        body: JSON.stringify({ text }),
      })),
      labelTexts,
      productIds,
      productBytes,
    };
  } finally {
    db.close();
  }
}
