// Paging of the dashboard's long lists. Guarantees: a page number is read only from `?page=N`
// (a positive integer of at most 6 digits); anything else is page 1.

/** The page asked for in the query (1 when none or not a number). */
export function pageOf(query: unknown): number {
  const p = (query as Record<string, unknown> | undefined)?.page;
  return typeof p === 'string' && /^[1-9][0-9]{0,5}$/.test(p) ? Number(p) : 1;
}
