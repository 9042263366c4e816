// Stable identifiers: RFC 4122 version-5 (SHA-1, name-based) uuids derived from
// source keys (the `uuid` package), so the same source record keeps its id across
// rebuilds and re-imports. Guarantees: lower-case 8-4-4-4-12 hex; same key → same uuid.
import { v5 } from 'uuid';

/** The namespace of this catalogue's ids (a fixed, randomly chosen uuid); docs/import.md names it. */
export const ID_NAMESPACE = '5b0d3c1e-8f2a-4c6e-9d71-2a4e6b8c0f13';

export function uuidV5(name: string, namespace: string = ID_NAMESPACE): string {
  return v5(name, namespace);
}
