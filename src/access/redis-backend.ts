// The access store on Redis shared by several instances: one server, a Sentinel-managed
// primary or a Cluster. Guarantees: every check-and-count runs inside one Lua script
// (EVALSHA), atomic across all clients — the hits and charges of one event-loop turn share
// one call (on a cluster, one call per hash slot: an op's keys always share the slot of its
// account, see redis-keys.ts), each checked in turn, each counting its month and its day
// (two fields of the month's hash); a turn that ends while a call is still out holds its
// steps one turn: they go at the end of the next turn, in that turn's call (never a call
// more, each step sent once, at most one turn later); a call's charges nothing can refuse
// (no ceiling, no trial) of one key and day are one op; commands fail fast while no primary
// answers and time out after the given bound (never resent).
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import calculateSlot from 'cluster-key-slot';
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
import { RedisKeys } from './redis-keys';
import { MAIL_SCRIPTS, RedisMail } from './redis-mail';
import { RECORD_SCRIPTS, RedisRecords } from './redis-records';
import { describeSpec, parseRedisSpec, redisClient } from './redis-spec';

const SCRIPTS = {
  // The hits and charges of one event-loop turn, checked and counted in turn. Each op has
  // 2 KEYS and 8 ARGV, the 7th the day of the month (DD). Hit: KEYS rate window counter,
  // usage hash; ARGV 'h', limit, key id. Charge: KEYS usage hash of the month, trial hash;
  // ARGV 'c', key id, account, units, ceiling (-1: none), trial limit (-1: none), DD, and
  // the pool: '' (per key), or every key id of a dashboard account joined by ',' — then the
  // account's calls of the month (field t:ACCOUNT, started from its keys' c: fields when
  // absent) are counted too and the ceiling is checked on them. Results: hit 1 admitted /
  // 0 refused; charge trial requests left (0 when not a trial), -1 trial used up, -2
  // ceiling reached. Every count goes to the month's field and the day's.
  meter: {
    lua: `local out = {}
for i = 0, #KEYS / 2 - 1 do
  local k1, k2, b = KEYS[2 * i + 1], KEYS[2 * i + 2], 8 * i
  local dd = ':' .. ARGV[b + 7]
  if ARGV[b + 1] == 'h' then
    local n = redis.call('INCR', k1)
    if n == 1 then redis.call('PEXPIRE', k1, 3000) end
    if n > tonumber(ARGV[b + 2]) then
      redis.call('HINCRBY', k2, 'r:' .. ARGV[b + 3], 1)
      redis.call('HINCRBY', k2, 'r:' .. ARGV[b + 3] .. dd, 1)
      out[i + 1] = 0
    else
      out[i + 1] = 1
    end
  else
    local id, account = ARGV[b + 2], ARGV[b + 3]
    local u, ceil, tl = tonumber(ARGV[b + 4]), tonumber(ARGV[b + 5]), tonumber(ARGV[b + 6])
    local left, refused, pool, total = 0, nil, ARGV[b + 8], nil
    if tl >= 0 then
      left = tl - tonumber(redis.call('HGET', k2, account) or '0') - u
      if left < 0 then refused = -1 end
    end
    if pool ~= '' then
      total = tonumber(redis.call('HGET', k1, 't:' .. account) or '-1')
      if total < 0 then
        total = 0
        for kid in string.gmatch(pool, '[^,]+') do total = total + tonumber(redis.call('HGET', k1, 'c:' .. kid) or '0') end
      end
    end
    if not refused and ceil >= 0 and (total or tonumber(redis.call('HGET', k1, 'c:' .. id) or '0')) + u > ceil then refused = -2 end
    if refused then
      redis.call('HINCRBY', k1, 'r:' .. id, 1)
      redis.call('HINCRBY', k1, 'r:' .. id .. dd, 1)
      out[i + 1] = refused
    else
      redis.call('HINCRBY', k1, 'c:' .. id, u)
      redis.call('HINCRBY', k1, 'c:' .. id .. dd, u)
      if total then redis.call('HSET', k1, 't:' .. account, total + u) end
      if tl >= 0 then redis.call('HINCRBY', k2, account, u) end
      out[i + 1] = left
    end
  end
end
return out`,
  },
  // KEYS: account hash, key hash, key id set, version, the account's key set, account set.
  // ARGV: created at, hash, account, plan, id, name.
  createKey: {
    numberOfKeys: 6,
    lua: `if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'paymentRequired', '0', 'firstKeyAt', ARGV[1], 'createdAt', ARGV[1])
elseif (redis.call('HGET', KEYS[1], 'firstKeyAt') or '0') == '0' then
  redis.call('HSET', KEYS[1], 'firstKeyAt', ARGV[1])
end
redis.call('HSET', KEYS[2], 'hash', ARGV[2], 'account', ARGV[3], 'plan', ARGV[4], 'disabled', '0', 'createdAt', ARGV[1], 'name', ARGV[6])
redis.call('SADD', KEYS[3], ARGV[5])
redis.call('SADD', KEYS[5], ARGV[5])
redis.call('SADD', KEYS[6], ARGV[3])
return redis.call('INCR', KEYS[4])`,
  },
  // KEYS: key hash, version. ARGV: new hash, previous accepted until (ms; 0: not at all).
  rollKey: {
    numberOfKeys: 2,
    lua: `local old = redis.call('HGET', KEYS[1], 'hash')
if not old then return 0 end
if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[1], 'previousHash', old) else redis.call('HDEL', KEYS[1], 'previousHash') end
redis.call('HSET', KEYS[1], 'hash', ARGV[1], 'previousUntil', ARGV[2]) redis.call('INCR', KEYS[2]) return 1`,
  },
  // KEYS: email index, account hash, account set, version. ARGV: name, email, password hash, role, plan, created at.
  createAccount: {
    numberOfKeys: 4,
    lua: `if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'paymentRequired', '0', 'firstKeyAt', '0', 'email', ARGV[2], 'pw', ARGV[3], 'role', ARGV[4], 'plan', ARGV[5], 'disabled', '0', 'createdAt', ARGV[6])
redis.call('SADD', KEYS[3], ARGV[1]) redis.call('INCR', KEYS[4]) return 1`,
  },
  // KEYS: account hash, version, the account's key set. ARGV: key hash prefix, plan, payment
  // required, disabled, role ('' leaves a field as it is). A new plan is also every key's.
  updateAccount: {
    numberOfKeys: 3,
    lua: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'plan', ARGV[2])
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if redis.call('EXISTS', ARGV[1] .. id) == 1 then redis.call('HSET', ARGV[1] .. id, 'plan', ARGV[2]) end
  end
end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'paymentRequired', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'disabled', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'role', ARGV[5]) end
redis.call('INCR', KEYS[2]) return 1`,
  },
  // KEYS: account hash, the account's session set. ARGV: password hash, session prefix.
  setPassword: {
    numberOfKeys: 2,
    lua: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'pw', ARGV[1])
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('DEL', ARGV[2] .. id) end
redis.call('DEL', KEYS[2]) return 1`,
  },
  // KEYS: key hash, version.
  disableKey: {
    numberOfKeys: 2,
    lua: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'disabled', '1') redis.call('INCR', KEYS[2]) return 1`,
  },
  // KEYS: key hash, version. ARGV: account hash prefix, '1' or '0'.
  setPaymentRequired: {
    numberOfKeys: 2,
    lua: `local acct = redis.call('HGET', KEYS[1], 'account')
if not acct then return 0 end
redis.call('HSET', ARGV[1] .. acct, 'paymentRequired', ARGV[2]) redis.call('INCR', KEYS[2]) return 1`,
  },
} as const;

type Scripted = { [K in Exclude<keyof typeof SCRIPTS, 'meter'>]: (...args: (string | number)[]) => Promise<number> } & {
  meter(numberOfKeys: number, ...args: (string | number)[]): Promise<number[]>;
};
type Client = (Redis | Cluster) & Scripted;

interface Waiter {
  resolve(result: number): void;
  reject(err: unknown): void;
}

/** One op of the script: its keys, its 8 ARGV, and every caller told its result. */
interface Op {
  keys: [string, string];
  args: (string | number)[];
  waiters: Waiter[];
}

export class RedisBackend implements Backend {
  private readonly r: Client;
  private queue: Op[] = [];
  /** Queued charges that cannot be refused, by key id and day: later ones add their units. */
  private summed = new Map<string, Op>();
  /** `meter` calls sent and not answered yet. */
  private out = 0;
  /** Whether the queued steps have already waited one turn for a call out. */
  private held = false;
  /** Key id → account, from the last snapshot: a rate hit's keys are named by its account on a cluster. */
  private accounts = new Map<string, string>();

  private constructor(
    redis: Redis | Cluster,
    private readonly k: RedisKeys,
  ) {
    for (const [name, def] of Object.entries(SCRIPTS)) redis.defineCommand(name, def);
    for (const [name, def] of Object.entries({ ...MAIL_SCRIPTS, ...RECORD_SCRIPTS })) redis.defineCommand(name, def);
    this.r = redis as Client;
    this.outbox = new RedisMail(redis, k.mailPrefix, k.mailSet);
    this.records = new RedisRecords(redis, k.recordPrefix);
  }

  private readonly outbox: RedisMail;
  private readonly records: RedisRecords;
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

  /** A store spec of redis-spec.ts; keys live under its prefix (default "catalogue:"). */
  static async open(spec: string, purpose: 'serve' | 'admin', timeoutMs: number): Promise<RedisBackend> {
    const s = parseRedisSpec(spec);
    const redis = redisClient(s, timeoutMs);
    let lastError: Error | undefined;
    redis.on('error', (err: Error) => (lastError = err)); // reconnects by itself; requests meanwhile get 503
    // Scripts loaded on every (re)connection, so that requests never pay a NOSCRIPT round trip.
    redis.on('ready', () => loadScripts(redis));
    const ready = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), purpose === 'serve' ? 500 : 3000);
      redis.once('ready', () => (clearTimeout(t), resolve(true)));
    });
    if (!ready && purpose === 'admin') {
      redis.disconnect();
      throw new Error(`cannot reach the access store at ${describeSpec(s)} (${lastError?.message ?? 'timed out'})`);
    }
    return new RedisBackend(redis, new RedisKeys(s.prefix, s.kind === 'cluster'));
  }

  async version(): Promise<number> {
    return Number((await this.r.get(this.k.version)) ?? 0);
  }

  async snapshot(): Promise<Snapshot> {
    const [version, keys, named] = await Promise.all([
      this.version(),
      this.keyRecords(),
      this.r.smembers(this.k.accountSet),
    ]);
    this.accounts = new Map(keys.map((k) => [k.id, k.account]));
    const names = [...new Set([...keys.map((k) => k.account), ...named])];
    if (names.length === 0) return { version, keys, accounts: [] };
    const acctPipe = this.r.pipeline();
    for (const name of names) acctPipe.hmget(this.k.acctPrefix + name, ...ACCOUNT_FIELDS);
    const accounts = ((await acctPipe.exec()) ?? []).map(([err, h], i) => {
      if (err) throw err;
      return accountRecord(names[i], h as (string | null)[]);
    });
    return { version, keys, accounts };
  }

  /** Every key record (control data: one slot on a cluster, so one pipeline). */
  private async keyRecords(): Promise<KeyRecord[]> {
    return this.keysById(await this.r.smembers(this.k.keySet));
  }

  private async keysById(ids: string[]): Promise<KeyRecord[]> {
    if (ids.length === 0) return [];
    const keyPipe = this.r.pipeline();
    for (const id of ids) keyPipe.hgetall(this.k.key(id));
    const keys: KeyRecord[] = [];
    for (const [i, [err, h]] of ((await keyPipe.exec()) ?? []).entries()) {
      if (err) throw err;
      const f = h as Record<string, string>;
      if (f.hash === undefined) continue;
      keys.push({
        id: ids[i],
        hash: f.hash,
        account: f.account,
        plan: f.plan,
        disabled: f.disabled === '1',
        createdAt: Number(f.createdAt),
        previousHash: f.previousHash ?? null,
        previousUntil: Number(f.previousUntil ?? 0),
        name: f.name ?? '',
      });
    }
    return keys;
  }

  async hit(
    keyId: string,
    rateId: string,
    second: number,
    limit: number,
    month: string,
    day: string,
  ): Promise<boolean> {
    const account = this.k.slotted ? await this.accountOf(keyId) : '';
    const keys: [string, string] = [this.k.rate(rateId, account, second), this.k.usage(account, month)];
    return (await this.enqueue(keys, ['h', limit, keyId, '', '', '', day.slice(8), ''])) === 1;
  }

  private async accountOf(keyId: string): Promise<string> {
    const known = this.accounts.get(keyId);
    if (known !== undefined) return known;
    const account = await this.r.hget(this.k.key(keyId), 'account');
    if (account === null) throw new Error(`no key ${keyId} in the access store`);
    this.accounts.set(keyId, account);
    return account;
  }

  charge(q: ChargeRequest): Promise<ChargeResult> {
    if (q.ceiling === null && q.trialLimit === null) return this.chargeSummed(q);
    const keys: [string, string] = [this.k.usage(q.account, q.month), this.k.trial(q.account)];
    const args = ['c', q.keyId, q.account, q.units, q.ceiling ?? -1, q.trialLimit ?? -1, q.day.slice(8), poolArg(q)];
    return this.enqueue(keys, args).then((left) => (left === -1 ? 'trial' : left === -2 ? 'ceiling' : left));
  }

  /** A charge nothing can refuse (the script answers 0): added to a queued one of the same key and day. */
  private chargeSummed(q: ChargeRequest): Promise<number> {
    const id = `${q.keyId}\n${q.day}`;
    const op = this.summed.get(id);
    if (op === undefined) {
      const keys: [string, string] = [this.k.usage(q.account, q.month), this.k.trial(q.account)];
      const promise = this.enqueue(keys, ['c', q.keyId, q.account, q.units, -1, -1, q.day.slice(8), poolArg(q)]);
      this.summed.set(id, this.queue[this.queue.length - 1]);
      return promise;
    }
    (op.args[3] as number) += q.units;
    return new Promise<number>((resolve, reject) => op.waiters.push({ resolve, reject }));
  }

  /** Queues an op for the next `meter` script call (one per hash slot on a cluster), sent by `flush`. */
  private enqueue(keys: [string, string], args: (string | number)[]): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push({ keys, args, waiters: [{ resolve, reject }] });
    });
  }

  /**
   * At the end of a turn (setImmediate: the check phase, after the poll phase has read every
   * reply that came): sends the queued steps, unless a call is still out and they have not
   * waited yet — then they wait for the end of the next turn and go with its steps in one
   * call. Under load, when the reply comes within a turn, a call carries two turns' steps
   * (docs/metering.md). No timer: the timers phase comes before the poll phase.
   */
  private readonly flush = (): void => {
    if (this.out > 0 && !this.held) {
      this.held = true;
      setImmediate(this.flush);
      return;
    }
    this.held = false;
    const ops = this.queue;
    this.queue = [];
    this.summed.clear();
    if (!this.k.slotted) return this.run(ops);
    const bySlot = new Map<number, Op[]>();
    for (const op of ops) {
      const slot = calculateSlot(op.keys[0]);
      const group = bySlot.get(slot);
      if (group) group.push(op);
      else bySlot.set(slot, [op]);
    }
    for (const group of bySlot.values()) this.run(group);
  };

  private run(ops: Op[]): void {
    this.out++;
    this.send(ops).then(
      (results) => {
        this.out--;
        for (let i = 0; i < ops.length; i++) for (const w of ops[i].waiters) w.resolve(results[i]);
      },
      (err) => {
        this.out--;
        for (const op of ops) for (const w of op.waiters) w.reject(err);
      },
    );
  }

  /** The `meter` script call for `ops` (keys, then every op's 8 ARGV). */
  private send(ops: Op[]): Promise<number[]> {
    const k = ops.length * 2;
    const args = new Array<string | number>(ops.length * 10);
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      args[2 * i] = op.keys[0];
      args[2 * i + 1] = op.keys[1];
      for (let j = 0; j < 8; j++) args[k + 8 * i + j] = op.args[j];
    }
    return this.r.meter(k, ...args);
  }

  async createKey(k: KeyRecord): Promise<void> {
    const { acctPrefix, keySet, version, accountSet } = this.k;
    await this.r.createKey(
      acctPrefix + k.account,
      this.k.key(k.id),
      keySet,
      version,
      this.k.keysOf(k.account),
      accountSet,
      k.createdAt,
      k.hash,
      k.account,
      k.plan,
      k.id,
      k.name ?? '',
    );
    this.accounts.set(k.id, k.account);
  }

  async disableKey(id: string): Promise<boolean> {
    return (await this.r.disableKey(this.k.key(id), this.k.version)) === 1;
  }

  async rollKey(id: string, hash: string, previousUntil: number): Promise<boolean> {
    return (await this.r.rollKey(this.k.key(id), this.k.version, hash, previousUntil)) === 1;
  }

  async setPaymentRequired(keyId: string, on: boolean): Promise<boolean> {
    return (
      (await this.r.setPaymentRequired(this.k.key(keyId), this.k.version, this.k.acctPrefix, on ? '1' : '0')) === 1
    );
  }

  async usage(month: string): Promise<UsageRow[]> {
    const accounts = this.k.slotted ? [...new Set((await this.keyRecords()).map((k) => k.account))] : [''];
    const hashes = await Promise.all(accounts.map((a) => this.r.hgetall(this.k.usage(a, month))));
    const rows = new Map<string, UsageRow>();
    for (const [field, value] of hashes.flatMap((h) => Object.entries(h))) {
      if (field.lastIndexOf(':') > 1 || field.startsWith('t:')) continue; // a day's field (c:KEYID:DD), an account's total
      const keyId = field.slice(2);
      const row = rows.get(keyId) ?? { keyId, calls: 0, refused: 0 };
      if (field.startsWith('c:')) row.calls = Number(value);
      else row.refused = Number(value);
      rows.set(keyId, row);
    }
    return [...rows.values()].sort((a, b) => a.keyId.localeCompare(b.keyId));
  }

  async accountCalls(account: string, month: string): Promise<number> {
    const usage = this.k.usage(this.k.slotted ? account : '', month);
    const total = await this.r.hget(usage, `t:${account}`);
    if (total !== null) return Number(total);
    const ids = await this.r.smembers(this.k.keysOf(account));
    if (ids.length === 0) return 0;
    return (await this.r.hmget(usage, ...ids.map((id) => `c:${id}`))).reduce((s, v) => s + Number(v ?? 0), 0);
  }

  async trialUsed(account: string): Promise<number> {
    return Number((await this.r.hget(this.k.trial(account), account)) ?? 0);
  }

  async dailyUsage(account: string, keyIds: string[], month: string): Promise<DailyRow[]> {
    if (keyIds.length === 0) return [];
    const fields: string[] = [];
    for (const id of keyIds)
      for (let d = 1; d <= 31; d++) {
        const dd = String(d).padStart(2, '0');
        fields.push(`c:${id}:${dd}`, `r:${id}:${dd}`);
      }
    const values = await this.r.hmget(this.k.usage(this.k.slotted ? account : '', month), ...fields);
    const rows: DailyRow[] = [];
    for (let i = 0; i < fields.length; i += 2) {
      if (values[i] === null && values[i + 1] === null) continue;
      const [, keyId, dd] = fields[i].split(':');
      rows.push({ keyId, day: `${month}-${dd}`, calls: Number(values[i] ?? 0), refused: Number(values[i + 1] ?? 0) });
    }
    return rows.sort((a, b) => a.day.localeCompare(b.day) || a.keyId.localeCompare(b.keyId));
  }

  async createAccount(u: UserRecord): Promise<boolean> {
    const { acctPrefix, accountSet, version } = this.k;
    const made = await this.r.createAccount(
      this.k.email(u.email),
      acctPrefix + u.name,
      accountSet,
      version,
      u.name,
      u.email,
      u.passwordHash,
      u.role,
      u.plan ?? '',
      u.createdAt,
    );
    return made === 1;
  }

  async userByEmail(email: string): Promise<UserRecord | null> {
    const name = await this.r.get(this.k.email(email));
    return name === null ? null : this.user(name);
  }

  async user(name: string): Promise<UserRecord | null> {
    const f = await this.r.hmget(this.k.acctPrefix + name, ...ACCOUNT_FIELDS, 'pw');
    const pw = f[ACCOUNT_FIELDS.length];
    if (pw === null) return null;
    return { ...accountRecord(name, f), passwordHash: pw } as UserRecord;
  }

  async updateAccount(
    name: string,
    c: { plan?: string; paymentRequired?: boolean; disabled?: boolean; role?: Role },
  ): Promise<boolean> {
    const flag = (v: boolean | undefined) => (v === undefined ? '' : v ? '1' : '0');
    const changed = await this.r.updateAccount(
      this.k.acctPrefix + name,
      this.k.version,
      this.k.keysOf(name),
      this.k.key(''),
      c.plan ?? '',
      flag(c.paymentRequired),
      flag(c.disabled),
      c.role ?? '',
    );
    return changed === 1;
  }

  async setPassword(name: string, passwordHash: string): Promise<boolean> {
    const { acctPrefix, sessionPrefix } = this.k;
    return (await this.r.setPassword(acctPrefix + name, this.k.sessionsOf(name), passwordHash, sessionPrefix)) === 1;
  }

  async keysOf(account: string): Promise<KeyRecord[]> {
    return this.keysById(await this.r.smembers(this.k.keysOf(account)));
  }

  async putSession(idHash: string, s: SessionRecord, ttlMs: number): Promise<void> {
    const m = this.r.multi().set(this.k.sessionPrefix + idHash, JSON.stringify(s), 'PX', Math.max(1, ttlMs));
    if (s.account !== '') {
      const set = this.k.sessionsOf(s.account);
      m.sadd(set, idHash).pexpire(set, Math.max(1, ttlMs), 'GT');
    }
    failed(await m.exec());
  }

  async getSession(idHash: string): Promise<SessionRecord | null> {
    const json = await this.r.get(this.k.sessionPrefix + idHash);
    return json === null ? null : (JSON.parse(json) as SessionRecord);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.r.del(this.k.sessionPrefix + idHash);
  }

  async putToken(hash: string, t: TokenRecord, ttlMs: number): Promise<void> {
    await this.r.set(this.k.token(hash), JSON.stringify(t), 'PX', Math.max(1, ttlMs));
  }

  async peekToken(hash: string): Promise<TokenRecord | null> {
    const json = await this.r.get(this.k.token(hash));
    return json === null ? null : (JSON.parse(json) as TokenRecord);
  }

  async takeToken(hash: string): Promise<TokenRecord | null> {
    const json = await this.r.getdel(this.k.token(hash));
    return json === null ? null : (JSON.parse(json) as TokenRecord);
  }

  async attempts(name: string, window: number, windowMs: number, add: number): Promise<number> {
    const key = this.k.attempts(name, window);
    const [n] = failed(await this.r.multi().incrby(key, add).pexpire(key, windowMs).exec());
    return n;
  }

  async claim(hash: string, ttlMs: number): Promise<boolean> {
    return (await this.r.set(this.k.claim(hash), '1', 'PX', Math.max(1, ttlMs), 'NX')) === 'OK';
  }

  async unclaim(hash: string): Promise<void> {
    await this.r.del(this.k.claim(hash));
  }

  async settingOr(name: string, value: string): Promise<string> {
    await this.r.hsetnx(this.k.settings, name, value);
    return (await this.r.hget(this.k.settings, name))!;
  }

  close(): Promise<void> {
    this.r.disconnect();
    return Promise.resolve();
  }
}

const ACCOUNT_FIELDS = ['paymentRequired', 'firstKeyAt', 'disabled', 'plan', 'email', 'role', 'createdAt'] as const;

/** An account from the values of ACCOUNT_FIELDS (null for a field not set). */
function accountRecord(name: string, f: (string | null)[]): AccountRecord {
  const [paymentRequired, firstKeyAt, disabled, plan, email, role, createdAt] = f;
  return {
    name,
    paymentRequired: paymentRequired === '1',
    firstKeyAt: Number(firstKeyAt ?? 0),
    disabled: disabled === '1',
    plan: plan === null || plan === '' ? null : plan,
    email,
    role: (role ?? 'developer') as Role,
    createdAt: Number(createdAt ?? 0),
  };
}

/** The results of a pipeline or transaction; throws the first command's error. */
function failed(results: [Error | null, unknown][] | null): number[] {
  if (results === null) throw new Error('redis transaction aborted');
  return results.map(([err, value]) => {
    if (err) throw err;
    return Number(value);
  });
}

/** SCRIPT LOAD on the server, or on every primary of a cluster. */
function loadScripts(redis: Redis | Cluster): void {
  const nodes = redis.isCluster ? (redis as Cluster).nodes('master') : [redis];
  for (const node of nodes)
    for (const def of [...Object.values(SCRIPTS), ...Object.values(MAIL_SCRIPTS), ...Object.values(RECORD_SCRIPTS)])
      node.script('LOAD', def.lua).catch(() => {});
}

/** The meter script's pool argument: '' for a key's own allowances, else the account's key ids. */
function poolArg(q: ChargeRequest): string {
  return q.pool === null ? '' : q.pool.join(',');
}
