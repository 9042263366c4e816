// The dashboard's small records in the SQLite store (RecordStore of backend.ts): one row per
// (kind, group, id) with its time and JSON. Guarantees: a write with `onlyNew` is one
// INSERT OR IGNORE (the first writer wins across processes); lists are newest first by an index.
import type Database from 'better-sqlite3';
import type { RecordStore, StoredRecord } from './backend';

export const RECORDS_SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  kind TEXT NOT NULL, grp TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (kind, grp, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_at ON records (kind, grp, at);
`;

type Row = { kind: string; grp: string } & StoredRecord;

function prepare(db: Database.Database) {
  return {
    add: db.prepare<[Row]>(
      `INSERT OR IGNORE INTO records (kind, grp, id, at, data) VALUES (@kind, @grp, @id, @at, @data)`,
    ),
    put: db.prepare<[Row]>(
      `INSERT OR REPLACE INTO records (kind, grp, id, at, data) VALUES (@kind, @grp, @id, @at, @data)`,
    ),
    get: db.prepare<[string, string, string], StoredRecord>(
      `SELECT id, at, data FROM records WHERE kind = ? AND grp = ? AND id = ?`,
    ),
    page: db.prepare<[string, string, number, number], StoredRecord>(
      `SELECT id, at, data FROM records WHERE kind = ? AND grp = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
    ),
    count: db.prepare<[string, string], number>(`SELECT count(*) FROM records WHERE kind = ? AND grp = ?`).pluck(),
    del: db.prepare<[string, string, string]>(`DELETE FROM records WHERE kind = ? AND grp = ? AND id = ?`),
  };
}

export class SqliteRecords implements RecordStore {
  private st: ReturnType<typeof prepare> | undefined;

  constructor(
    private readonly db: () => Database.Database,
    private readonly attempt: <T>(step: () => T) => Promise<T>,
  ) {}

  private get s() {
    return (this.st ??= prepare(this.db()));
  }

  putRecord(kind: string, grp: string, r: StoredRecord, onlyNew: boolean): Promise<boolean> {
    return this.attempt(() => (onlyNew ? this.s.add : this.s.put).run({ kind, grp, ...r }).changes === 1);
  }

  getRecord(kind: string, grp: string, id: string): Promise<StoredRecord | null> {
    return this.attempt(() => this.s.get.get(kind, grp, id) ?? null);
  }

  listRecords(kind: string, grp: string, offset: number, limit: number) {
    return this.attempt(() => ({
      total: this.s.count.get(kind, grp)!,
      records: this.s.page.all(kind, grp, limit, offset),
    }));
  }

  deleteRecord(kind: string, grp: string, id: string): Promise<boolean> {
    return this.attempt(() => this.s.del.run(kind, grp, id).changes === 1);
  }
}
