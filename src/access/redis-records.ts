// The dashboard's small records on Redis (RecordStore of backend.ts): per kind and group, a
// hash of id → "at|JSON" and a sorted set of the ids by time. Guarantees: each write is one
// script (with `onlyNew` the hash field is set only when absent: the first writer wins across
// instances); on a cluster both keys share the `{ctl}` slot.
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import type { RecordStore, StoredRecord } from './backend';

export const RECORD_SCRIPTS = {
  // KEYS: hash, sorted set. ARGV: id, at, value ("at|data"), '1' only when new.
  putRecord: {
    numberOfKeys: 2,
    lua: `if ARGV[4] == '1' then
  if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then return 0 end
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) return 1`,
  },
  // KEYS: hash, sorted set. ARGV: id.
  deleteRecord: {
    numberOfKeys: 2,
    lua: `redis.call('ZREM', KEYS[2], ARGV[1]) return redis.call('HDEL', KEYS[1], ARGV[1])`,
  },
} as const;

type Client = (Redis | Cluster) & {
  putRecord(...args: (string | number)[]): Promise<number>;
  deleteRecord(...args: (string | number)[]): Promise<number>;
};

function parse(id: string, v: string): StoredRecord {
  const bar = v.indexOf('|');
  return { id, at: Number(v.slice(0, bar)), data: v.slice(bar + 1) };
}

export class RedisRecords implements RecordStore {
  constructor(
    private readonly r: Redis | Cluster,
    /** The keys of (kind, group): `prefix + kind:group` (hash) and the same + ':t' (sorted set). */
    private readonly prefix: string,
  ) {}

  private keys(kind: string, group: string): [string, string] {
    const k = `${this.prefix}${kind}:${group}`;
    return [k, `${k}:t`];
  }

  async putRecord(kind: string, group: string, r: StoredRecord, onlyNew: boolean): Promise<boolean> {
    const c = this.r as Client;
    return (await c.putRecord(...this.keys(kind, group), r.id, r.at, `${r.at}|${r.data}`, onlyNew ? '1' : '0')) === 1;
  }

  async getRecord(kind: string, group: string, id: string): Promise<StoredRecord | null> {
    const v = await this.r.hget(this.keys(kind, group)[0], id);
    return v === null ? null : parse(id, v);
  }

  async listRecords(kind: string, group: string, offset: number, limit: number) {
    const [hash, set] = this.keys(kind, group);
    const [total, ids] = await Promise.all([this.r.zcard(set), this.r.zrevrange(set, offset, offset + limit - 1)]);
    const values = ids.length === 0 ? [] : await this.r.hmget(hash, ...ids);
    const records: StoredRecord[] = [];
    values.forEach((v, i) => v !== null && records.push(parse(ids[i], v)));
    return { total, records };
  }

  async deleteRecord(kind: string, group: string, id: string): Promise<boolean> {
    return (await (this.r as Client).deleteRecord(...this.keys(kind, group), id)) === 1;
  }
}
