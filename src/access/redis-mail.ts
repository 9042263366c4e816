// The mail outbox and log on Redis (MailStore of backend.ts): a hash per mail that expires with
// its time to keep, and a sorted set of the ids by creation time for the pages. Guarantees:
// adding is one script (the hash is made only when absent, so the first writer of an event
// wins across every instance); a mail marked sent keeps no bodies; ids whose hash has expired
// are dropped from the set when a mail is added; on a cluster both keys share the `{ctl}` slot.
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import type { MailRecord, MailState, MailStore } from './backend';

export const MAIL_SCRIPTS = {
  // KEYS: the mail's hash, the id set. ARGV: id, ttl ms, created at, cut-off (older ids leave
  // the set), then the hash's field/value pairs.
  addMail: {
    numberOfKeys: 2,
    lua: `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
return 1`,
  },
  // KEYS: the mail's hash. ARGV: state, error, '1' to empty the bodies.
  setMailState: {
    numberOfKeys: 1,
    lua: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'error', ARGV[2])
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'text', '', 'html', '') end
return 1`,
  },
} as const;

type Client = (Redis | Cluster) & {
  addMail(...args: (string | number)[]): Promise<number>;
  setMailState(...args: (string | number)[]): Promise<number>;
};

const FIELDS = ['to', 'subject', 'text', 'html', 'createdAt', 'state', 'error'] as const;

export class RedisMail implements MailStore {
  constructor(
    private readonly r: Redis | Cluster,
    /** The hash of a mail is `prefix + id`. */
    private readonly prefix: string,
    private readonly set: string,
  ) {}

  private get c(): Client {
    return this.r as Client;
  }

  async addMail(m: MailRecord, ttlMs: number): Promise<boolean> {
    const pairs = FIELDS.flatMap((f) => [f, String(m[f])]);
    const cutoff = m.createdAt - ttlMs;
    return (await this.c.addMail(this.prefix + m.id, this.set, m.id, ttlMs, m.createdAt, cutoff, ...pairs)) === 1;
  }

  async setMailState(id: string, state: MailState, error: string): Promise<void> {
    await this.c.setMailState(this.prefix + id, state, error, state === 'sent' ? '1' : '0');
  }

  async mails(offset: number, limit: number): Promise<{ total: number; mails: MailRecord[] }> {
    const [total, ids] = await Promise.all([
      this.r.zcard(this.set),
      this.r.zrevrange(this.set, offset, offset + limit - 1),
    ]);
    const found = await Promise.all(ids.map((id) => this.mail(id)));
    return { total, mails: found.filter((m) => m !== null) };
  }

  async mail(id: string): Promise<MailRecord | null> {
    const v = await this.r.hmget(this.prefix + id, ...FIELDS);
    if (v[0] === null) return null;
    const [to, subject, text, html, createdAt, state, error] = v as string[];
    return { id, to, subject, text, html, createdAt: Number(createdAt), state: state as MailState, error };
  }
}
