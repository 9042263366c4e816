// The client of a Sentinel-managed primary. Guarantees: it connects only to the address the
// Sentinels name with the highest configuration epoch (a Sentinel not yet told of a failover
// names the old primary, which takes writes until Sentinel demotes it 8–18 s later, and
// writes there are lost); it asks every Sentinel again on each `+switch-master`, each lost
// connection and each second without a connection, and moves to a newly named primary at
// once; from the moment a Sentinel starts promoting a replica (`+failover-state-send-slaveof-
// noone`) until a newer epoch is named (at most FENCE_MS) it writes nowhere: requests get 503
// rather than counts the old primary would lose. See docs/metering.md, Failover.
import { createConnection, Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import Redis, { AbstractConnector, type RedisOptions } from 'ioredis';

/** What a Sentinel client needs of a parsed store spec (redis-spec.ts's RedisSpec is one; no import back to it). */
export interface SentinelSpec {
  hosts: { host: string; port: number }[];
  db: number;
  master?: string;
  tls?: ConnectionOptions;
  sentinelPassword?: string;
}

/** Longest time without a primary once a promotion has started (a failover may be aborted). */
const FENCE_MS = 5000;

interface Named {
  host: string;
  port: number;
  epoch: number;
}

/** Where to connect: the primary named, unless a promotion newer than it has started. */
interface Target {
  named: Named | null;
  /** While > now: a promotion started; connect only to a primary of an epoch above `fencedEpoch`. */
  fencedUntil: number;
  fencedEpoch: number;
}

/** A client of the primary the Sentinels of `s` name `s.master`, with `common`'s behaviour. */
export function sentinelClient(s: SentinelSpec, common: RedisOptions): Redis {
  const target: Target = { named: null, fencedUntil: 0, fencedEpoch: 0 };
  const redis = new Redis({ ...common, db: s.db, Connector: connectorTo(target, s) });
  const follower = new Follower(s, redis, target);
  follower.start();
  // Closed by its owner: the Sentinel connections too (ioredis emits no `end` for a client
  // closed while it waits to reconnect, and they would keep the process alive).
  const disconnect = redis.disconnect.bind(redis);
  redis.disconnect = (reconnect = false) => {
    if (!reconnect) follower.stop();
    disconnect(reconnect);
  };
  return redis;
}

/** The address to connect to, or why there is none. */
function current(t: Target, s: SentinelSpec): Named | string {
  if (t.named === null)
    return `no Sentinel at ${s.hosts.map((h) => `${h.host}:${h.port}`).join(',')} names ${s.master}`;
  if (t.named.epoch <= t.fencedEpoch && Date.now() < t.fencedUntil) return `${s.master} is failing over`;
  return t.named;
}

/**
 * Ioredis' connector to the current target at each (re)connection; without one, a connection
 * that fails at once (ioredis retries it as any failed connection).
 */
function connectorTo(t: Target, s: SentinelSpec) {
  return class extends AbstractConnector {
    constructor(o: unknown) {
      super((o as RedisOptions).disconnectTimeout ?? 2000);
    }

    connect(): Promise<Socket> {
      this.connecting = true;
      const to = current(t, s);
      return new Promise((resolve) => {
        process.nextTick(() => {
          // Closed meanwhile (a move to another primary): a failed connection, never a rejection,
          // which would end the client for good (ioredis' own Sentinel mode did that).
          const stream = !this.connecting
            ? refused('connection closed while connecting')
            : typeof to === 'string'
              ? refused(to)
              : s.tls
                ? tlsConnect({ ...s.tls, host: to.host, port: to.port })
                : createConnection(to.port, to.host);
          stream.once('error', (err: Error) => {
            this.firstError = err;
          });
          this.stream = stream;
          resolve(stream);
        });
      });
    }
  };
}

/** A socket that fails with `message` once its listeners are in place. */
function refused(message: string): Socket {
  const socket = new Socket();
  (socket as unknown as { connecting: boolean }).connecting = true; // so that ioredis waits for its connection, and sees it fail
  setImmediate(() => socket.destroy(new Error(message)));
  return socket;
}

/** Keeps the target of `redis` what the Sentinels say, until `redis` ends. */
class Follower {
  private readonly sentinels: Redis[];
  private readonly subscribers: Redis[];
  private locating = false;
  private again = false;
  private ended = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly s: SentinelSpec,
    private readonly redis: Redis,
    private readonly t: Target,
  ) {
    const opts: RedisOptions = {
      password: s.sentinelPassword,
      tls: s.tls,
      connectTimeout: 1000,
      commandTimeout: 1000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 500,
    };
    this.sentinels = s.hosts.map((h) => quiet(new Redis({ ...opts, ...h })));
    this.subscribers = s.hosts.map((h) => quiet(new Redis({ ...opts, ...h, enableOfflineQueue: true })));
    this.timer = setInterval(() => this.redis.status !== 'ready' && this.locate(), 1000).unref();
  }

  start(): void {
    for (const sub of this.subscribers) {
      // Resubscribed by ioredis on every reconnection.
      sub.subscribe('+switch-master', '+failover-state-send-slaveof-noone').catch(() => {});
      sub.on('message', (channel: string, message: string) => this.heard(channel, message));
    }
    this.redis.on('close', () => this.locate());
    this.redis.once('end', () => this.stop());
    this.locate();
  }

  /** `+switch-master NAME …`, `+failover-state-send-slaveof-noone slave … @ NAME IP PORT`. */
  private heard(channel: string, message: string): void {
    const words = message.split(' ');
    if (channel === '+switch-master' && words[0] === this.s.master) return this.locate();
    if (channel !== '+failover-state-send-slaveof-noone' || words[words.length - 3] !== this.s.master) return;
    this.t.fencedEpoch = this.t.named?.epoch ?? 0;
    this.t.fencedUntil = Date.now() + FENCE_MS;
    this.redis.disconnect(true); // reconnects only once a newer primary is named (or the fence ends)
  }

  stop(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    for (const c of [...this.sentinels, ...this.subscribers]) c.disconnect();
  }

  /** Asks every Sentinel (one round at a time) and follows the answer of the highest epoch. */
  private locate(): void {
    if (this.locating) {
      this.again = true;
      return;
    }
    this.locating = true;
    void Promise.all(this.sentinels.map((c) => this.ask(c))).then((answers) => {
      this.locating = false;
      if (this.ended) return;
      const best = answers.reduce<Named | null>((a, b) => (b && (!a || b.epoch > a.epoch) ? b : a), null);
      if (best) this.follow(best);
      if (this.again) {
        this.again = false;
        this.locate();
      }
    });
  }

  /** One Sentinel's primary for the master name, with its epoch; null if it cannot tell. */
  private async ask(c: Redis): Promise<Named | null> {
    try {
      const reply = (await c.call('SENTINEL', 'MASTER', this.s.master!)) as string[];
      const f = new Map<string, string>();
      for (let i = 0; i + 1 < reply.length; i += 2) f.set(reply[i], reply[i + 1]);
      const [host, port, epoch] = [f.get('ip'), Number(f.get('port')), Number(f.get('config-epoch') ?? 0)];
      return host && port > 0 ? { host, port, epoch } : null;
    } catch {
      return null;
    }
  }

  /** Makes `n` the target; a connection elsewhere is closed (ioredis reconnects, to `n`). */
  private follow(n: Named): void {
    const was = this.t.named;
    if (was && n.epoch < was.epoch) return; // an answer older than one followed already
    this.t.named = n;
    const moved = was?.host !== n.host || was.port !== n.port;
    const unfenced = this.t.fencedUntil > Date.now() && n.epoch > this.t.fencedEpoch;
    if (unfenced) this.t.fencedUntil = 0;
    if (!moved && !unfenced) return;
    if (this.redis.status === 'reconnecting') this.redis.connect().catch(() => {});
    else this.redis.disconnect(true);
  }
}

function quiet(c: Redis): Redis {
  c.on('error', () => {});
  return c;
}
