// What label analysis needs of one opened catalogue, as one block of shared memory that
// the label worker threads read (label-pool.ts): its generation and the bytes of its
// label_keys rows and ingredient records. Guarantees: made from the catalogue's own open
// connection and records, never by opening the path again (a file renamed over it in
// between cannot be mixed in); the generation is unique in the process, so a worker
// tells two catalogues of one path apart; the bytes are shared between threads, never
// copied; analyserOf gives the same analyser on every thread (same keys, same records).
import type Database from 'better-sqlite3';
import { LabelAnalyser } from './label-analysis';

export interface LabelSource {
  /** Unique in the process: one per opened catalogue. */
  generation: number;
  /** Layout: u32 key rows K, u32 records N, K × (u32 kind, u32 bytes), N × u32 bytes, then the bytes in that order. */
  bytes: SharedArrayBuffer;
}

let generations = 0;

/** The label source of a catalogue: its open connection (label_keys) and its records (2.5) as bytes. */
export function labelSourceOf(db: Database.Database, records: readonly Buffer[]): LabelSource {
  const keys = db.prepare('SELECT kind, CAST(entries AS BLOB) FROM label_keys ORDER BY kind').raw().all() as [
    number,
    Buffer,
  ][];
  const head = 2 + keys.length * 2 + records.length;
  let size = head * 4;
  for (const [, b] of keys) size += b.length;
  for (const r of records) size += r.length;
  const bytes = new SharedArrayBuffer(size);
  const words = new Uint32Array(bytes, 0, head);
  const out = Buffer.from(bytes);
  words[0] = keys.length;
  words[1] = records.length;
  let w = 2;
  let at = head * 4;
  for (const [kind, b] of keys) {
    words[w++] = kind;
    words[w++] = b.length;
    at += b.copy(out, at);
  }
  for (const r of records) {
    words[w++] = r.length;
    at += r.copy(out, at);
  }
  return { generation: ++generations, bytes };
}

/** The analyser of a label source (what LabelAnalyser needs, read back from the shared bytes). */
export function analyserOf(source: LabelSource): LabelAnalyser {
  const buf = Buffer.from(source.bytes);
  const words = new Uint32Array(source.bytes, 0, 2);
  const [k, n] = [words[0], words[1]];
  const lengths = new Uint32Array(source.bytes, 8, k * 2 + n);
  let at = (2 + k * 2 + n) * 4;
  const text = (length: number) => buf.toString('utf8', at, (at += length));
  const keys: [number, string][] = [];
  for (let i = 0; i < k; i++) keys.push([lengths[i * 2], text(lengths[i * 2 + 1])]);
  const records: string[] = [];
  for (let i = 0; i < n; i++) records.push(text(lengths[k * 2 + i]));
  return new LabelAnalyser(keys, records);
}
