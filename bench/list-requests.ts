// A list request of the benchmark's mixes (bench/workload.ts) read as the routes read it:
// its query parameters, its page, and a filter's query. Guarantees: the same parameters and
// defaults as the filter and search routes, so an in-process replay asks what the server would.
import type { FilterQuery } from '../src/catalogue/read-model';
import { INGREDIENT_CATEGORIES } from '../src/source/records';
import { FREE_PARAM } from '../src/http/no-match';
import type { BenchRequest } from './workload';

export function query(r: BenchRequest): URLSearchParams {
  return new URLSearchParams(r.path.slice(r.path.indexOf('?') + 1));
}

export function page(p: URLSearchParams): number {
  return Number(p.get('page') ?? 1);
}

export function filterQuery(p: URLSearchParams): FilterQuery {
  const opt = (k: string) => p.get(k) ?? undefined;
  return {
    category: opt('category'),
    brand: opt('brand'),
    origin: opt('origin'),
    freeOf: INGREDIENT_CATEGORIES.filter((c) => p.get(FREE_PARAM[c]) === 'true'),
    hasIngredient: opt('has_ingredient')?.toLowerCase(),
    excludesIngredients: p.get('excludes_ingredient')?.toLowerCase().split(',') ?? [],
  };
}
