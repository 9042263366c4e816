// What label analysis needs of one opened catalogue, as shared memory that the label worker
// threads read (label-pool.ts): its generation, the bytes of its label_keys rows and its
// ingredient records (shared-records.ts: the very block the request thread answers
// ingredients from). Guarantees: made from the catalogue's own open connection and records,
// never by opening the path again (a file renamed over it in between cannot be mixed in); the
// generation is unique in the process, so a worker tells two catalogues of one path apart;
// the bytes are shared between threads, never copied; analyserOf gives the same analyser on
// every thread (same keys, same records), which reads the records from the shared block as
// it renders them rather than holding them as strings.
import type Database from 'better-sqlite3';
import { LabelAnalyser } from './label-analysis';
import { SharedRecords } from './shared-records';

export interface LabelSource {
  /** Unique in the process: one per opened catalogue. */
  generation: number;
  /** Layout: u32 key rows K, K × (u32 kind, u32 bytes), then the rows' bytes in that order. */
  keys: SharedArrayBuffer;
  /** The records (SharedRecords#memory). */
  records: SharedArrayBuffer;
}

let generations = 0;

/** The label source of a catalogue: its open connection (label_keys) and its records (2.5). */
export function labelSourceOf(db: Database.Database, records: SharedRecords): LabelSource {
  const rows = db.prepare('SELECT kind, CAST(entries AS BLOB) FROM label_keys ORDER BY kind').raw().all() as [
    number,
    Buffer,
  ][];
  const head = 1 + rows.length * 2;
  let size = head * 4;
  for (const [, b] of rows) size += b.length;
  const keys = new SharedArrayBuffer(size);
  const words = new Uint32Array(keys, 0, head);
  const out = Buffer.from(keys);
  words[0] = rows.length;
  let w = 1;
  let at = head * 4;
  for (const [kind, b] of rows) {
    words[w++] = kind;
    words[w++] = b.length;
    at += b.copy(out, at);
  }
  return { generation: ++generations, keys, records: records.memory };
}

/** The analyser of a label source (what LabelAnalyser needs, read back from the shared bytes). */
export function analyserOf(source: LabelSource): LabelAnalyser {
  const buf = Buffer.from(source.keys);
  const k = new Uint32Array(source.keys, 0, 1)[0];
  const words = new Uint32Array(source.keys, 4, k * 2);
  let at = (1 + k * 2) * 4;
  const keys: [number, string][] = [];
  for (let i = 0; i < k; i++) keys.push([words[i * 2], buf.toString('utf8', at, (at += words[i * 2 + 1]))]);
  return new LabelAnalyser(keys, new SharedRecords(source.records));
}
