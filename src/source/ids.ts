// Stable identifiers of source records, shared by the sample pipeline and the importer:
// RFC 4122 version-5 (SHA-1, name-based) uuids derived from source keys (the `uuid`
// package), so the same record keeps its id across rebuilds and re-imports, and the
// label-only ingredient (a printed name that joins to no dictionary record). Guarantees:
// lower-case 8-4-4-4-12 hex; same key → same uuid; the sample and the importer give the
// same printed key the same label-only id.
import { v5 } from 'uuid';
import type { SourceIngredient } from './records';

/** The namespace of this catalogue's ids (a fixed, randomly chosen uuid); docs/import.md names it. */
export const ID_NAMESPACE = '5b0d3c1e-8f2a-4c6e-9d71-2a4e6b8c0f13';

export function uuidV5(name: string, namespace: string = ID_NAMESPACE): string {
  return v5(name, namespace);
}

/** The id of the label-only ingredient for a printed name's compact key. */
export function labelIngredientId(key: string): string {
  return uuidV5(`label:${key}`);
}

/** A canonical ingredient for a label name that matches no dictionary entry: the name, other fields null. */
export function labelOnlyIngredient(key: string, name: string): SourceIngredient {
  return {
    id: labelIngredientId(key),
    name,
    rating: null,
    irritancy: null,
    comedogenicity: null,
    functions: [],
    cas_number: null,
    ec_number: null,
    ph_eur_name: null,
    iupac_name: null,
    other_names: null,
    category: null,
  };
}
