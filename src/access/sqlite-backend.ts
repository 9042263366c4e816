// The access store in an embedded SQLite file (WAL mode), safe for several processes on
// one file. Guarantees: every check-and-count runs inside one IMMEDIATE transaction — the
// hits and charges of one event-loop turn share it (group commit), each checked in turn, and
// that turn's charges nothing can refuse (no ceiling, no trial) of one key and month are
// counted by one statement;
// a lock held by another connection never blocks the event loop: SQLite is asked not to
// wait, and a busy store is retried every RETRY_MS on a timer until the busy timeout,
// then surfaces as an error. After every transaction the file at the path is checked to
// still be the one opened and a SQLite database: a store replaced or overwritten while
// serving fails every operation (so requests get 503) instead of counting into a file
// nothing else can read.
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { AccountRecord, Backend, ChargeRequest, ChargeResult, KeyRecord, Snapshot, UsageRow } from './backend';

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
`;

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  return {
    version: db.prepare<[], number>(`SELECT v FROM meta WHERE k = 'version'`).pluck(),
    bump: db.prepare(`UPDATE meta SET v = v + 1 WHERE k = 'version'`),
    keys: db.prepare<
      [],
      { id: string; hash: string; account: string; plan: string; disabled: number; created_at: number }
    >(`SELECT id, hash, account, plan, disabled, created_at FROM keys`),
    accounts: db.prepare<[], { name: string; payment_required: number; first_key_at: number }>(
      `SELECT name, payment_required, first_key_at FROM accounts`,
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
    addCalls: db.prepare<[string, string, number]>(
      `INSERT INTO usage (key_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (key_id, month) DO UPDATE SET calls = calls + excluded.calls`,
    ),
    addTrial: db.prepare<[string, number]>(
      `INSERT INTO trial (account, used) VALUES (?, ?) ON CONFLICT (account) DO UPDATE SET used = used + excluded.used`,
    ),
    addRefused: db.prepare<[string, string]>(
      `INSERT INTO usage (key_id, month, refused) VALUES (?, ?, 1)
       ON CONFLICT (key_id, month) DO UPDATE SET refused = refused + 1`,
    ),
    addAccount: db.prepare<[string, number]>(`INSERT OR IGNORE INTO accounts (name, first_key_at) VALUES (?, ?)`),
    addKey: db.prepare<[string, string, string, string, number]>(
      `INSERT INTO keys (id, hash, account, plan, created_at) VALUES (?, ?, ?, ?, ?)`,
    ),
    disable: db.prepare<[string]>(`UPDATE keys SET disabled = 1 WHERE id = ?`),
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

/** A turn's charges of one key and month that nothing can refuse: counted as one. */
interface Summed extends Op {
  keyId: string;
  month: string;
  units: number;
}

/** How often a store locked by another connection is tried again. */
const RETRY_MS = 5;
/** The first 16 bytes of every SQLite database file. */
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

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

  /** `busyTimeoutMs`: how long an operation keeps retrying while another connection holds the lock. */
  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { timeout: 0 });
    const { dev, ino } = statSync(path);
    this.file = { fd: openSync(path, 'r'), dev, ino };
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
    this.db.exec(SCHEMA);
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
        for (let i = 0; i < ops.length; i++) for (const w of ops[i].waiters) w.resolve(results[i]);
      },
      (err) => {
        for (const op of ops) for (const w of op.waiters) w.reject(err);
      },
    );
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
      keys: s.keys.all().map((k): KeyRecord => ({
        id: k.id,
        hash: k.hash,
        account: k.account,
        plan: k.plan,
        disabled: k.disabled !== 0,
        createdAt: k.created_at,
      })),
      accounts: s.accounts.all().map((a): AccountRecord => ({
        name: a.name,
        paymentRequired: a.payment_required !== 0,
        firstKeyAt: a.first_key_at,
      })),
    }))();
  }

  hit(keyId: string, second: number, limit: number, month: string): Promise<boolean> {
    return this.enqueue((s) => {
      if (s.hit.get(keyId, second)! <= limit) return true;
      s.addRefused.run(keyId, month);
      return false;
    });
  }

  charge(r: ChargeRequest): Promise<ChargeResult> {
    if (r.ceiling === null && r.trialLimit === null) return this.chargeSummed(r.keyId, r.month, r.units);
    return this.enqueue((s): ChargeResult => {
      let left = 0;
      if (r.trialLimit !== null) {
        left = r.trialLimit - (s.trialUsed.get(r.account) ?? 0) - r.units;
        if (left < 0) return refuse(s, r, 'trial');
      }
      if (r.ceiling !== null && (s.calls.get(r.keyId, r.month) ?? 0) + r.units > r.ceiling)
        return refuse(s, r, 'ceiling');
      s.addCalls.run(r.keyId, r.month, r.units);
      if (r.trialLimit !== null) s.addTrial.run(r.account, r.units);
      return left;
    });
  }

  /** A charge nothing can refuse (its result is 0): added to this turn's one of the same key and month. */
  private chargeSummed(keyId: string, month: string, units: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const waiter = { resolve, reject };
      const id = `${keyId}\n${month}`;
      const queued = this.summed.get(id);
      if (queued !== undefined) {
        queued.units += units;
        queued.waiters.push(waiter);
        return;
      }
      const op: Summed = { keyId, month, units, waiters: [waiter], run: runSummed };
      this.summed.set(id, op);
      this.push(op);
    });
  }

  async createKey(k: KeyRecord): Promise<void> {
    await this.attempt(() => {
      const s = this.s;
      this.db
        .transaction(() => {
          s.addAccount.run(k.account, k.createdAt);
          s.addKey.run(k.id, k.hash, k.account, k.plan, k.createdAt);
          s.bump.run();
        })
        .immediate();
    });
  }

  disableKey(id: string): Promise<boolean> {
    return this.changed((s) => s.disable.run(id).changes);
  }

  setPaymentRequired(keyId: string, on: boolean): Promise<boolean> {
    return this.changed((s) => s.payment.run(on ? 1 : 0, keyId).changes);
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
    this.closed = true; // operations still waiting to retry fail instead of touching a closed file
    this.db.close();
    closeSync(this.file.fd);
    return Promise.resolve();
  }
}

function runSummed(this: Summed, s: Statements): number {
  s.addCalls.run(this.keyId, this.month, this.units);
  return 0;
}

function refuse(s: Statements, r: ChargeRequest, why: 'trial' | 'ceiling'): ChargeResult {
  s.addRefused.run(r.keyId, r.month);
  return why;
}
