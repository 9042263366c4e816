// The paging of list answers (api-spec.md 2.8 and 8): results a page and the last page a
// client may ask for, named once for the read model, the request schemas and the bench.

/** Results a page. */
export const PAGE_SIZE = 20;
/** The last page served; page 52 is a 400. */
export const LAST_PAGE = 51;
/** Rows a client can reach by paging: 51 pages of 20. */
export const REACHABLE = PAGE_SIZE * LAST_PAGE;
