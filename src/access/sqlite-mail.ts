// The mail outbox and log in the SQLite store (MailStore of backend.ts): one row per mail,
// keyed by the event's id. Guarantees: adding is one INSERT that does nothing when the id is
// kept (the first writer of an event wins, whichever process it is); a mail marked sent keeps
// no bodies; rows past their purge time are deleted at most once a minute, when a mail is added.
import type Database from 'better-sqlite3';
import type { MailRecord, MailState, MailStore } from './backend';

export const MAIL_SCHEMA = `
CREATE TABLE IF NOT EXISTS mails (
  id TEXT PRIMARY KEY, recipient TEXT NOT NULL, subject TEXT NOT NULL, text TEXT NOT NULL, html TEXT NOT NULL,
  created_at INTEGER NOT NULL, state TEXT NOT NULL, error TEXT NOT NULL, purge_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mails_created ON mails (created_at);
`;

const PURGE_MS = 60_000;
const COLUMNS = 'id, recipient AS "to", subject, text, html, created_at AS createdAt, state, error';

function prepare(db: Database.Database) {
  return {
    add: db.prepare<[MailRecord & { purgeAt: number }]>(
      `INSERT OR IGNORE INTO mails (id, recipient, subject, text, html, created_at, state, error, purge_at)
       VALUES (@id, @to, @subject, @text, @html, @createdAt, @state, @error, @purgeAt)`,
    ),
    state: db.prepare<[{ id: string; state: MailState; error: string; drop: number }]>(
      `UPDATE mails SET state = @state, error = @error,
         text = CASE WHEN @drop THEN '' ELSE text END, html = CASE WHEN @drop THEN '' ELSE html END
       WHERE id = @id`,
    ),
    page: db.prepare<[number, number], MailRecord>(
      `SELECT ${COLUMNS} FROM mails ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    ),
    count: db.prepare<[], number>(`SELECT count(*) FROM mails`).pluck(),
    one: db.prepare<[string], MailRecord>(`SELECT ${COLUMNS} FROM mails WHERE id = ?`),
    purge: db.prepare<[number]>(`DELETE FROM mails WHERE purge_at < ?`),
  };
}

/** `attempt` runs a step as the backend runs all of its own (busy retries, file checks). */
export class SqliteMail implements MailStore {
  private st: ReturnType<typeof prepare> | undefined;
  private purgedAt = 0;

  constructor(
    private readonly db: () => Database.Database,
    private readonly attempt: <T>(step: () => T) => Promise<T>,
  ) {}

  private get s() {
    return (this.st ??= prepare(this.db()));
  }

  async addMail(m: MailRecord, ttlMs: number): Promise<boolean> {
    return this.attempt(() => {
      const now = Date.now();
      if (now - this.purgedAt >= PURGE_MS) {
        this.purgedAt = now;
        this.s.purge.run(now);
      }
      return this.s.add.run({ ...m, purgeAt: now + ttlMs }).changes === 1;
    });
  }

  async setMailState(id: string, state: MailState, error: string): Promise<void> {
    await this.attempt(() => this.s.state.run({ id, state, error, drop: state === 'sent' ? 1 : 0 }));
  }

  mails(offset: number, limit: number): Promise<{ total: number; mails: MailRecord[] }> {
    return this.attempt(() => ({ total: this.s.count.get()!, mails: this.s.page.all(limit, offset) }));
  }

  mail(id: string): Promise<MailRecord | null> {
    return this.attempt(() => this.s.one.get(id) ?? null);
  }
}
