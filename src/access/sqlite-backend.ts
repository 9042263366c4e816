// The access store in an embedded SQLite file (WAL mode), safe for several processes on
// one file. Guarantees: every check-and-count runs inside one IMMEDIATE transaction — the
// hits and charges of one event-loop turn share it (group commit), each checked in turn, and
// that turn's charges nothing can refuse (no ceiling, no trial) of one key and day are
// counted by one statement per counter (month and day);
// a lock held by another connection never blocks the event loop: SQLite is asked not to
// wait, and a busy store is retried every RETRY_MS on a timer until the busy timeout,
// then surfaces as an error. After every transaction the file at the path is checked to
// still be the one opened and a SQLite database: a store replaced or overwritten while
// serving fails every operation (so requests get 503) instead of counting into a file
// nothing else can read. The write-ahead log is flushed to disk off the request thread
// (an fdatasync on libuv's pool every WAL_SYNC_MS after a commit) and checkpointed by a
// commit only every WAL_CHECKPOINT_PAGES pages, so the checkpoint's own fsyncs, which run
// on the request thread, find little left to write and come rarely.
import { close, closeSync, fdatasync, mkdirSync, open, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { MAIL_SCHEMA, SqliteMail } from './sqlite-mail';
import { RECORDS_SCHEMA, SqliteRecords } from './sqlite-records';
import type {
  AccountRecord,
  Backend,
  ChargeRequest,
  ChargeResult,
  DailyRow,
  KeyRecord,
  MailRecord,
  MailState,
  RecordStore,
  Role,
  SessionRecord,
  Snapshot,
  TokenRecord,
  UsageRow,
  UserRecord,
} from './backend';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO meta VALUES ('version', 0);
CREATE TABLE IF NOT EXISTS accounts (
  name TEXT PRIMARY KEY, payment_required INTEGER NOT NULL DEFAULT 0, first_key_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, account TEXT NOT NULL REFERENCES accounts(name),
  plan TEXT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rate (key_id TEXT PRIMARY KEY, second INTEGER NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage (
  key_id TEXT NOT NULL, month TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0, refused INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS trial (account TEXT PRIMARY KEY, used INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS account_usage (
  account TEXT NOT NULL, month TEXT NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (account, month)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS daily (
  key_id TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0, refused INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, data TEXT NOT NULL, expires_at INTEGER NOT NULL, purge_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY, kind TEXT NOT NULL, account TEXT NOT NULL, plan TEXT NOT NULL,
  expires_at INTEGER NOT NULL, purge_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS attempts (
  name TEXT NOT NULL, win INTEGER NOT NULL, n INTEGER NOT NULL, purge_at INTEGER NOT NULL, PRIMARY KEY (name, win)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS claims (hash TEXT PRIMARY KEY, purge_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

/** Columns added since the first release: added to a store file that lacks them when it is opened. */
const ADDED_COLUMNS: [table: string, column: string, definition: string][] = [
  ['accounts', 'disabled', 'INTEGER NOT NULL DEFAULT 0'],
  ['accounts', 'plan', 'TEXT'],
  ['accounts', 'email', 'TEXT'],
  ['accounts', 'password_hash', 'TEXT'],
  ['accounts', 'role', "TEXT NOT NULL DEFAULT 'developer'"],
  ['accounts', 'created_at', 'INTEGER NOT NULL DEFAULT 0'],
  ['keys', 'previous_hash', 'TEXT'],
  ['keys', 'previous_until', 'INTEGER NOT NULL DEFAULT 0'],
  ['keys', 'name', "TEXT NOT NULL DEFAULT ''"],
];
const INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS accounts_email ON accounts (email);
CREATE INDEX IF NOT EXISTS keys_account ON keys (account);
`;

function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SCHEMA);
    db.exec(MAIL_SCHEMA);
    db.exec(RECORDS_SCHEMA);
    for (const [table, column, definition] of ADDED_COLUMNS) {
      const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
      if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
    db.exec(INDEXES);
  }).immediate();
}

interface KeyRow {
  id: string;
  hash: string;
  account: string;
  plan: string;
  disabled: number;
  created_at: number;
  previous_hash: string | null;
  previous_until: number;
  name: string;
}
const KEY_COLUMNS = 'id, hash, account, plan, disabled, created_at, previous_hash, previous_until, name';

interface AccountRow {
  name: string;
  payment_required: number;
  first_key_at: number;
  disabled: number;
  plan: string | null;
  email: string | null;
  role: string;
  created_at: number;
}
const ACCOUNT_COLUMNS = 'name, payment_required, first_key_at, disabled, plan, email, role, created_at';

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  return {
    version: db.prepare<[], number>(`SELECT v FROM meta WHERE k = 'version'`).pluck(),
    bump: db.prepare(`UPDATE meta SET v = v + 1 WHERE k = 'version'`),
    keys: db.prepare<[], KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys`),
    keysOf: db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE account = ?`),
    accounts: db.prepare<[], AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts`),
    userByEmail: db.prepare<[string], AccountRow & { password_hash: string }>(
      `SELECT ${ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE email = ? AND password_hash IS NOT NULL`,
    ),
    user: db.prepare<[string], AccountRow & { password_hash: string }>(
      `SELECT ${ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE name = ? AND password_hash IS NOT NULL`,
    ),
    hit: db
      .prepare<[string, number], number>(
        `INSERT INTO rate (key_id, second, n) VALUES (?, ?, 1)
         ON CONFLICT (key_id) DO UPDATE SET
           n = CASE WHEN excluded.second > second THEN 1 ELSE n + 1 END,
           second = max(second, excluded.second)
         RETURNING n`,
      )
      .pluck(),
    calls: db.prepare<[string, string], number>(`SELECT calls FROM usage WHERE key_id = ? AND month = ?`).pluck(),
    trialUsed: db.prepare<[string], number>(`SELECT used FROM trial WHERE account = ?`).pluck(),
    accountCalls: db
      .prepare<[string, string], number>(`SELECT calls FROM account_usage WHERE account = ? AND month = ?`)
      .pluck(),
    /** A dashboard account's calls of the month from its keys' counts (a store of an earlier release). */
    keysCalls: db
      .prepare<[string, string], number>(
        `SELECT COALESCE(SUM(calls), 0) FROM usage WHERE month = ? AND key_id IN (SELECT id FROM keys WHERE account = ?)`,
      )
      .pluck(),
    setAccountCalls: db.prepare<[string, string, number]>(
      `INSERT INTO account_usage (account, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (account, month) DO UPDATE SET calls = excluded.calls`,
    ),
    addCalls: db.prepare<[string, string, number]>(
      `INSERT INTO usage (key_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (key_id, month) DO UPDATE SET calls = calls + excluded.calls`,
    ),
    addTrial: db.prepare<[string, number]>(
      `INSERT INTO trial (account, used) VALUES (?, ?) ON CONFLICT (account) DO UPDATE SET used = used + excluded.used`,
    ),
    addDailyCalls: db.prepare<[string, string, number]>(
      `INSERT INTO daily (key_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (key_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    ),
    addRefused: db.prepare<[string, string]>(
      `INSERT INTO usage (key_id, month, refused) VALUES (?, ?, 1)
       ON CONFLICT (key_id, month) DO UPDATE SET refused = refused + 1`,
    ),
    addDailyRefused: db.prepare<[string, string]>(
      `INSERT INTO daily (key_id, day, refused) VALUES (?, ?, 1)
       ON CONFLICT (key_id, day) DO UPDATE SET refused = refused + 1`,
    ),
    addAccount: db.prepare<[{ name: string; at: number }]>(
      `INSERT INTO accounts (name, first_key_at, created_at) VALUES (@name, @at, @at)
       ON CONFLICT (name) DO UPDATE SET first_key_at = @at WHERE first_key_at = 0`,
    ),
    addKey: db.prepare<[string, string, string, string, number, string]>(
      `INSERT INTO keys (id, hash, account, plan, created_at, name) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    disable: db.prepare<[string]>(`UPDATE keys SET disabled = 1 WHERE id = ?`),
    roll: db.prepare<[{ hash: string; until: number; id: string }]>(
      `UPDATE keys SET previous_hash = CASE WHEN @until > 0 THEN hash END, previous_until = @until, hash = @hash
       WHERE id = @id`,
    ),
    addUser: db.prepare<[string, string, string, string, string | null, number]>(
      `INSERT OR IGNORE INTO accounts (name, first_key_at, email, password_hash, role, plan, created_at)
       VALUES (?, 0, ?, ?, ?, ?, ?)`,
    ),
    setPassword: db.prepare<[string, string]>(`UPDATE accounts SET password_hash = ? WHERE name = ?`),
    accountPlan: db.prepare<[string, string]>(`UPDATE accounts SET plan = ? WHERE name = ?`),
    keysPlan: db.prepare<[string, string]>(`UPDATE keys SET plan = ? WHERE account = ?`),
    accountPayment: db.prepare<[number, string]>(`UPDATE accounts SET payment_required = ? WHERE name = ?`),
    accountDisabled: db.prepare<[number, string]>(`UPDATE accounts SET disabled = ? WHERE name = ?`),
    accountRole: db.prepare<[string, string]>(`UPDATE accounts SET role = ? WHERE name = ?`),
    accountExists: db.prepare<[string], number>(`SELECT 1 FROM accounts WHERE name = ?`).pluck(),
    daily: db.prepare<[string, string, string], DailyRow>(
      `SELECT key_id AS keyId, day, calls, refused FROM daily
       WHERE key_id IN (SELECT value FROM json_each(?)) AND day >= ? AND day < ? ORDER BY day, key_id`,
    ),
    putSession: db.prepare<[string, string, string, number, number]>(
      `INSERT OR REPLACE INTO sessions (id, account, data, expires_at, purge_at) VALUES (?, ?, ?, ?, ?)`,
    ),
    getSession: db.prepare<[string], SessionRecord>(
      `SELECT account, data, expires_at AS expiresAt FROM sessions WHERE id = ?`,
    ),
    deleteSession: db.prepare<[string]>(`DELETE FROM sessions WHERE id = ?`),
    deleteSessionsOf: db.prepare<[string]>(`DELETE FROM sessions WHERE account = ?`),
    putToken: db.prepare<[string, string, string, string, number, number]>(
      `INSERT OR REPLACE INTO tokens (hash, kind, account, plan, expires_at, purge_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    token: db.prepare<[string], TokenRecord>(
      `SELECT kind, account, plan, expires_at AS expiresAt FROM tokens WHERE hash = ?`,
    ),
    deleteToken: db.prepare<[string]>(`DELETE FROM tokens WHERE hash = ?`),
    attempt: db
      .prepare<[string, number, number, number], number>(
        `INSERT INTO attempts (name, win, n, purge_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name, win) DO UPDATE SET n = n + excluded.n RETURNING n`,
      )
      .pluck(),
    claim: db.prepare<[string, number]>(`INSERT OR IGNORE INTO claims (hash, purge_at) VALUES (?, ?)`),
    unclaim: db.prepare<[string]>(`DELETE FROM claims WHERE hash = ?`),
    addSetting: db.prepare<[string, string]>(`INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)`),
    setting: db.prepare<[string], string>(`SELECT value FROM settings WHERE name = ?`).pluck(),
    purge: [
      db.prepare<[number]>(`DELETE FROM sessions WHERE purge_at < ?`),
      db.prepare<[number]>(`DELETE FROM tokens WHERE purge_at < ?`),
      db.prepare<[number]>(`DELETE FROM attempts WHERE purge_at < ?`),
      db.prepare<[number]>(`DELETE FROM claims WHERE purge_at < ?`),
    ],
    payment: db.prepare<[number, string]>(
      `UPDATE accounts SET payment_required = ? WHERE name = (SELECT account FROM keys WHERE id = ?)`,
    ),
    usage: db.prepare<[string], UsageRow>(
      `SELECT key_id AS keyId, calls, refused FROM usage WHERE month = ? ORDER BY key_id`,
    ),
  };
}

interface Waiter {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** One step of a turn's transaction, and every caller told its result. */
interface Op {
  run(s: Statements): unknown;
  waiters: Waiter[];
}

/** A turn's charges of one key and day that nothing can refuse: counted as one. */
interface Summed extends Op {
  keyId: string;
  account: string;
  /** A dashboard account's key: the account's calls of the month are counted too. */
  pooled: boolean;
  month: string;
  day: string;
  units: number;
}

/** How often a store locked by another connection is tried again. */
const RETRY_MS = 5;
/** The first 16 bytes of every SQLite database file. */
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** Expired sessions, tokens, attempt counters and claims are deleted at most this often. */
const PURGE_MS = 60_000;
/**
 * The log is flushed to disk this often while commits come. A checkpoint (SQLite's, on the
 * request thread) first fsyncs the log: with 4 MB of it unflushed that took 19-34 ms here,
 * holding every request in flight; flushed ahead, the checkpoint's fsyncs find little to write.
 */
const WAL_SYNC_MS = 100;
/**
 * Log pages a commit checkpoints at (SQLite's default: 1000). A commit writes a page or two
 * per counter touched, so at 1000 a saturated server checkpointed every 4-8 s; the log file
 * is reused after each checkpoint, so it stays at most this many pages (32 MiB).
 */
const WAL_CHECKPOINT_PAGES = 8000;

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

export class SqliteBackend implements Backend {
  private readonly db: Database.Database;
  private readonly file: { fd: number; dev: number; ino: number };
  private readonly header = Buffer.alloc(MAGIC.length);
  private st: Statements | undefined;
  private runBatch: ((ops: Op[], s: Statements) => unknown[]) | undefined;
  private queue: Op[] = [];
  /** This turn's queued charges that cannot be refused, by key id and month. */
  private summed = new Map<string, Summed>();
  private closed = false;
  private purgedAt = 0;
  /** A commit since the log was last flushed; a flush in progress. */
  private walDirty = false;
  private walSyncing = false;
  private readonly walTimer: NodeJS.Timeout;

  /** `busyTimeoutMs`: how long an operation keeps retrying while another connection holds the lock. */
  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { timeout: 0 });
    const { dev, ino } = statSync(path);
    this.file = { fd: openSync(path, 'r'), dev, ino };
    this.walTimer = setInterval(this.syncWal, WAL_SYNC_MS).unref();
    const db = () => (this.s, this.db);
    this.outbox = new SqliteMail(db, (step) => this.attempt(step));
    this.records = new SqliteRecords(db, (step) => this.attempt(step));
  }

  private readonly outbox: SqliteMail;
  private readonly records: SqliteRecords;
  readonly putRecord: RecordStore['putRecord'] = (...a) => this.records.putRecord(...a);
  readonly getRecord: RecordStore['getRecord'] = (...a) => this.records.getRecord(...a);
  readonly listRecords: RecordStore['listRecords'] = (...a) => this.records.listRecords(...a);
  readonly deleteRecord: RecordStore['deleteRecord'] = (...a) => this.records.deleteRecord(...a);

  addMail(m: MailRecord, ttlMs: number): Promise<boolean> {
    return this.outbox.addMail(m, ttlMs);
  }

  setMailState(id: string, state: MailState, error: string): Promise<void> {
    return this.outbox.setMailState(id, state, error);
  }

  mails(offset: number, limit: number): Promise<{ total: number; mails: MailRecord[] }> {
    return this.outbox.mails(offset, limit);
  }

  mail(id: string): Promise<MailRecord | null> {
    return this.outbox.mail(id);
  }

  /** Runs a synchronous SQLite step, retried on a timer while the store is busy; then checks the file. */
  private async attempt<T>(step: () => T): Promise<T> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (;;) {
      if (this.closed) throw new Error('access store closed');
      try {
        const result = step();
        this.checkFile();
        return result;
      } catch (err) {
        if (!isBusy(err) || Date.now() >= deadline) throw err;
      }
      await sleep(RETRY_MS);
    }
  }

  /** Throws when the path no longer names the file opened, or that file is no longer a SQLite database. */
  private checkFile(): void {
    const now = statSync(this.path, { throwIfNoEntry: false });
    if (now === undefined || now.dev !== this.file.dev || now.ino !== this.file.ino) {
      throw new Error(`access store ${this.path} was replaced or removed while serving; restart with a valid store`);
    }
    const n = readSync(this.file.fd, this.header, 0, MAGIC.length, 0);
    if (n !== MAGIC.length || !this.header.equals(MAGIC)) {
      throw new Error(`access store ${this.path} is no longer a SQLite database (overwritten while serving)`);
    }
  }

  /** Schema and statements, set up on first use so that a locked file at start-up is an outage, not a crash. */
  private get s(): Statements {
    if (this.st) return this.st;
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    migrate(this.db);
    const st = prepare(this.db);
    const batch = this.db.transaction((ops: Op[], s: Statements) => ops.map((op) => op.run(s)));
    this.runBatch = (ops, s) => batch.immediate(ops, s);
    return (this.st = st);
  }

  /** Queues a check-and-count for this turn's transaction. */
  private enqueue<T>(run: (s: Statements) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.push({ run, waiters: [{ resolve, reject }] });
    });
  }

  private push(op: Op): void {
    if (this.queue.length === 0) setImmediate(this.flush);
    this.queue.push(op);
  }

  private readonly flush = (): void => {
    const ops = this.queue;
    if (ops.length === 0) return;
    this.queue = [];
    this.summed.clear();
    this.attempt(() => this.runBatch!(ops, this.s)).then(
      (results) => {
        this.walDirty = true;
        for (let i = 0; i < ops.length; i++) for (const w of ops[i].waiters) w.resolve(results[i]);
      },
      (err) => {
        for (const op of ops) for (const w of op.waiters) w.reject(err);
      },
    );
  };

  /** Flushes the log file to disk on libuv's pool when commits came since the last flush (failures: the checkpoint flushes it anyway). */
  private readonly syncWal = (): void => {
    if (!this.walDirty || this.walSyncing) return;
    this.walDirty = false;
    this.walSyncing = true;
    open(`${this.path}-wal`, 'r', (err, fd) => {
      if (err) {
        this.walSyncing = false;
        return;
      }
      fdatasync(fd, () => close(fd, () => (this.walSyncing = false)));
    });
  };

  version(): Promise<number> {
    return this.attempt(() => this.s.version.get()!);
  }

  snapshot(): Promise<Snapshot> {
    return this.attempt(() => this.read());
  }

  private read(): Snapshot {
    const s = this.s;
    return this.db.transaction(() => ({
      version: s.version.get()!,
      keys: s.keys.all().map(keyRecord),
      accounts: s.accounts.all().map(accountRecord),
    }))();
  }

  hit(keyId: string, rateId: string, second: number, limit: number, month: string, day: string): Promise<boolean> {
    return this.enqueue((s) => {
      if (s.hit.get(rateId, second)! <= limit) return true;
      s.addRefused.run(keyId, month);
      s.addDailyRefused.run(keyId, day);
      return false;
    });
  }

  charge(r: ChargeRequest): Promise<ChargeResult> {
    if (r.ceiling === null && r.trialLimit === null) return this.chargeSummed(r);
    return this.enqueue((s): ChargeResult => {
      let left = 0;
      if (r.trialLimit !== null) {
        left = r.trialLimit - (s.trialUsed.get(r.account) ?? 0) - r.units;
        if (left < 0) return refuse(s, r, 'trial');
      }
      const pooled = r.pool === null ? null : pooledCalls(s, r.account, r.month);
      const used = pooled ?? s.calls.get(r.keyId, r.month) ?? 0;
      if (r.ceiling !== null && used + r.units > r.ceiling) return refuse(s, r, 'ceiling');
      s.addCalls.run(r.keyId, r.month, r.units);
      s.addDailyCalls.run(r.keyId, r.day, r.units);
      if (pooled !== null) s.setAccountCalls.run(r.account, r.month, pooled + r.units);
      if (r.trialLimit !== null) s.addTrial.run(r.account, r.units);
      return left;
    });
  }

  /** A charge nothing can refuse (its result is 0): added to this turn's one of the same key and day. */
  private chargeSummed({ keyId, account, pool, month, day, units }: ChargeRequest): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const waiter = { resolve, reject };
      const id = `${keyId}\n${day}`;
      const queued = this.summed.get(id);
      if (queued !== undefined) {
        queued.units += units;
        queued.waiters.push(waiter);
        return;
      }
      const op: Summed = {
        keyId,
        account,
        pooled: pool !== null,
        month,
        day,
        units,
        waiters: [waiter],
        run: runSummed,
      };
      this.summed.set(id, op);
      this.push(op);
    });
  }

  async createKey(k: KeyRecord): Promise<void> {
    await this.attempt(() => {
      const s = this.s;
      this.db
        .transaction(() => {
          s.addAccount.run({ name: k.account, at: k.createdAt });
          s.addKey.run(k.id, k.hash, k.account, k.plan, k.createdAt, k.name ?? '');
          s.bump.run();
        })
        .immediate();
    });
  }

  disableKey(id: string): Promise<boolean> {
    return this.changed((s) => s.disable.run(id).changes);
  }

  rollKey(id: string, hash: string, previousUntil: number): Promise<boolean> {
    return this.changed((s) => s.roll.run({ hash, until: previousUntil, id }).changes);
  }

  setPaymentRequired(keyId: string, on: boolean): Promise<boolean> {
    return this.changed((s) => s.payment.run(on ? 1 : 0, keyId).changes);
  }

  createAccount(u: UserRecord): Promise<boolean> {
    return this.changed((s) => s.addUser.run(u.name, u.email, u.passwordHash, u.role, u.plan, u.createdAt).changes);
  }

  userByEmail(email: string): Promise<UserRecord | null> {
    return this.attempt(() => userRecord(this.s.userByEmail.get(email)));
  }

  user(name: string): Promise<UserRecord | null> {
    return this.attempt(() => userRecord(this.s.user.get(name)));
  }

  updateAccount(
    name: string,
    c: { plan?: string; paymentRequired?: boolean; disabled?: boolean; role?: Role },
  ): Promise<boolean> {
    return this.changed((s) => {
      if (s.accountExists.get(name) === undefined) return 0;
      if (c.plan !== undefined) {
        s.accountPlan.run(c.plan, name);
        s.keysPlan.run(c.plan, name);
      }
      if (c.paymentRequired !== undefined) s.accountPayment.run(c.paymentRequired ? 1 : 0, name);
      if (c.disabled !== undefined) s.accountDisabled.run(c.disabled ? 1 : 0, name);
      if (c.role !== undefined) s.accountRole.run(c.role, name);
      return 1;
    });
  }

  setPassword(name: string, passwordHash: string): Promise<boolean> {
    return this.attempt(() =>
      this.db
        .transaction(() => {
          this.s.deleteSessionsOf.run(name);
          return this.s.setPassword.run(passwordHash, name).changes > 0;
        })
        .immediate(),
    );
  }

  keysOf(account: string): Promise<KeyRecord[]> {
    return this.attempt(() => this.s.keysOf.all(account).map(keyRecord));
  }

  trialUsed(account: string): Promise<number> {
    return this.attempt(() => this.s.trialUsed.get(account) ?? 0);
  }

  accountCalls(account: string, month: string): Promise<number> {
    return this.attempt(() => this.s.accountCalls.get(account, month) ?? this.s.keysCalls.get(month, account)!);
  }

  dailyUsage(_account: string, keyIds: string[], month: string): Promise<DailyRow[]> {
    return this.attempt(() => this.s.daily.all(JSON.stringify(keyIds), `${month}-01`, `${month}-32`));
  }

  putSession(idHash: string, r: SessionRecord, ttlMs: number): Promise<void> {
    return this.attempt(() => {
      this.purge();
      this.s.putSession.run(idHash, r.account, r.data, r.expiresAt, Date.now() + ttlMs);
    });
  }

  getSession(idHash: string): Promise<SessionRecord | null> {
    return this.attempt(() => this.s.getSession.get(idHash) ?? null);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.attempt(() => this.s.deleteSession.run(idHash));
  }

  async putToken(hash: string, t: TokenRecord, ttlMs: number): Promise<void> {
    await this.attempt(() => this.s.putToken.run(hash, t.kind, t.account, t.plan, t.expiresAt, Date.now() + ttlMs));
  }

  peekToken(hash: string): Promise<TokenRecord | null> {
    return this.attempt(() => this.s.token.get(hash) ?? null);
  }

  takeToken(hash: string): Promise<TokenRecord | null> {
    return this.attempt(() =>
      this.db
        .transaction(() => {
          const t = this.s.token.get(hash);
          if (t !== undefined) this.s.deleteToken.run(hash);
          return t ?? null;
        })
        .immediate(),
    );
  }

  attempts(name: string, window: number, windowMs: number, add: number): Promise<number> {
    return this.attempt(() => this.s.attempt.get(name, window, add, Date.now() + windowMs)!);
  }

  claim(hash: string, ttlMs: number): Promise<boolean> {
    return this.attempt(() => {
      this.purge();
      return this.s.claim.run(hash, Date.now() + ttlMs).changes === 1;
    });
  }

  async unclaim(hash: string): Promise<void> {
    await this.attempt(() => this.s.unclaim.run(hash));
  }

  settingOr(name: string, value: string): Promise<string> {
    return this.attempt(() => {
      this.s.addSetting.run(name, value);
      return this.s.setting.get(name)!;
    });
  }

  /** Deletes expired sessions, tokens, attempt counters and claims, at most once a minute. */
  private purge(): void {
    const now = Date.now();
    if (now - this.purgedAt < PURGE_MS) return;
    this.purgedAt = now;
    for (const p of this.s.purge) p.run(now);
  }

  /** Runs a change and bumps the version in one transaction; false when it changed nothing. */
  private changed(change: (s: Statements) => number): Promise<boolean> {
    return this.attempt(() => {
      const s = this.s;
      return this.db
        .transaction(() => {
          if (change(s) === 0) return false;
          s.bump.run();
          return true;
        })
        .immediate();
    });
  }

  usage(month: string): Promise<UsageRow[]> {
    return this.attempt(() => this.s.usage.all(month));
  }

  close(): Promise<void> {
    this.flush();
    clearInterval(this.walTimer);
    this.closed = true; // operations still waiting to retry fail instead of touching a closed file
    this.db.close();
    closeSync(this.file.fd);
    return Promise.resolve();
  }
}

function runSummed(this: Summed, s: Statements): number {
  if (this.pooled)
    s.setAccountCalls.run(this.account, this.month, pooledCalls(s, this.account, this.month) + this.units);
  s.addCalls.run(this.keyId, this.month, this.units);
  s.addDailyCalls.run(this.keyId, this.day, this.units);
  return 0;
}

/** A dashboard account's calls of the month: its own count, or (none yet) the sum of its keys' counts. */
function pooledCalls(s: Statements, account: string, month: string): number {
  return s.accountCalls.get(account, month) ?? s.keysCalls.get(month, account)!;
}

function refuse(s: Statements, r: ChargeRequest, why: 'trial' | 'ceiling'): ChargeResult {
  s.addRefused.run(r.keyId, r.month);
  s.addDailyRefused.run(r.keyId, r.day);
  return why;
}

function keyRecord(k: KeyRow): KeyRecord {
  return {
    id: k.id,
    hash: k.hash,
    account: k.account,
    plan: k.plan,
    disabled: k.disabled !== 0,
    createdAt: k.created_at,
    previousHash: k.previous_hash,
    previousUntil: k.previous_until,
    name: k.name,
  };
}

function accountRecord(a: AccountRow): AccountRecord {
  return {
    name: a.name,
    paymentRequired: a.payment_required !== 0,
    firstKeyAt: a.first_key_at,
    disabled: a.disabled !== 0,
    plan: a.plan,
    email: a.email,
    role: a.role as Role,
    createdAt: a.created_at,
  };
}

function userRecord(a: (AccountRow & { password_hash: string }) | undefined): UserRecord | null {
  if (a === undefined) return null;
  return { ...accountRecord(a), email: a.email!, passwordHash: a.password_hash, role: a.role as Role } as UserRecord;
}
