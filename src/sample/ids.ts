// Stable identifiers: RFC 4122 version-5 (SHA-1, name-based) uuids derived from
// source keys, so the same source record keeps its id across rebuilds.
// Guarantees: lower-case 8-4-4-4-12 hex; same key → same uuid.
import { createHash } from 'node:crypto';

/** The namespace of this catalogue's sample data (a fixed, randomly chosen uuid). */
const NAMESPACE = '5b0d3c1e-8f2a-4c6e-9d71-2a4e6b8c0f13';

export function uuidV5(name: string, namespace: string = NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
