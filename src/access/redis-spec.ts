// Parsing a Redis store spec and making its ioredis client. Guarantees: every form (single
// server, Sentinel-managed primary, Cluster) gets the same failure behaviour — no offline
// queue, no automatic resend of a command (a resend could count a request twice), each
// command bounded by the given timeout; error messages never contain a password.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import { sentinelClient } from './sentinel-client';

export interface RedisSpec {
  kind: 'server' | 'sentinel' | 'cluster';
  /** host:port of each seed, sentinel or the server; for messages. */
  hosts: { host: string; port: number }[];
  username?: string;
  password?: string;
  db: number;
  /** Sentinel: the monitored master's name. */
  master?: string;
  tls?: ConnectionOptions;
  sentinelPassword?: string;
  prefix: string;
  /** Bound on one command (`timeout_ms`), overriding the caller's default. */
  timeoutMs?: number;
}

const FORMS =
  'redis://[USER:PASS@]HOST:PORT[/DB], rediss://… (TLS), redis-sentinel://[USER:PASS@]S1:P1,S2:P2/MASTER[/DB] or redis-cluster://[USER:PASS@]H1:P1,H2:P2';
const OPTIONS = ['prefix', 'tls', 'ca', 'sentinel_password', 'timeout_ms'];

/** `SCHEME://[USER:PASS@]HOSTS[/PATH][?QUERY]`; see docs/metering.md for every form. */
export function parseRedisSpec(spec: string): RedisSpec {
  const m = /^(redis|rediss|redis-sentinel|redis-cluster):\/\/(?:([^@/]*)@)?([^/?]+)(\/[^?]*)?(?:\?(.*))?$/.exec(spec);
  if (!m) throw new Error(`a redis access store is written ${FORMS}`);
  const [, scheme, userinfo, hostList, path = '', query = ''] = m;
  const params = new URLSearchParams(query);
  for (const k of params.keys()) {
    if (!OPTIONS.includes(k)) throw new Error(`unknown redis store option "${k}" (known: ${OPTIONS.join(', ')})`);
  }
  const kind = scheme === 'redis-sentinel' ? 'sentinel' : scheme === 'redis-cluster' ? 'cluster' : 'server';
  const hosts = hostList.split(',').map(parseHost);
  if (kind === 'server' && hosts.length !== 1)
    throw new Error(`${scheme}:// takes one HOST:PORT; use redis-cluster:// or redis-sentinel:// for several`);
  const segments = path.split('/').filter((s) => s !== '');
  const master = kind === 'sentinel' ? segments.shift() : undefined;
  if (kind === 'sentinel' && master === undefined)
    throw new Error('redis-sentinel:// needs the master name: redis-sentinel://S1:P1,S2:P2/MASTER[/DB]');
  if (kind === 'cluster' && segments.length > 0)
    throw new Error('redis-cluster:// takes no database number (a cluster has only database 0)');
  const db = segments.shift() ?? '0';
  if (!/^\d+$/.test(db) || segments.length > 0)
    throw new Error(`redis database must be a number, not "${segments.length > 0 ? path : db}"`);
  const [user, pass] = splitUserinfo(userinfo);
  const prefix = params.get('prefix') ?? 'catalogue:';
  if (kind === 'cluster' && /[{}]/.test(prefix))
    throw new Error('the redis-cluster:// prefix must not contain { or } (hash tags are chosen by the store)');
  return {
    kind,
    hosts,
    username: user,
    password: pass,
    db: Number(db),
    master,
    tls: tlsOptions(scheme === 'rediss' || params.get('tls') === '1', params.get('ca')),
    sentinelPassword: params.get('sentinel_password') ?? undefined,
    prefix,
    timeoutMs: timeoutOption(params.get('timeout_ms')),
  };
}

function timeoutOption(v: string | null): number | undefined {
  if (v === null) return undefined;
  if (!/^\d{1,6}$/.test(v) || Number(v) < 1)
    throw new Error(`redis store option timeout_ms must be a whole number of milliseconds from 1, not "${v}"`);
  return Number(v);
}

function parseHost(h: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(h);
  if (!m) throw new Error(`redis host must be HOST:PORT, not "${h}"`);
  return { host: m[1].replace(/^\[|\]$/g, ''), port: m[2] === undefined ? 6379 : Number(m[2]) };
}

function splitUserinfo(userinfo: string | undefined): [string | undefined, string | undefined] {
  if (userinfo === undefined || userinfo === '') return [undefined, undefined];
  const i = userinfo.indexOf(':');
  const user = decodeURIComponent(i < 0 ? userinfo : userinfo.slice(0, i));
  const pass = i < 0 ? undefined : decodeURIComponent(userinfo.slice(i + 1));
  return [user === '' ? undefined : user, pass];
}

function tlsOptions(on: boolean, ca: string | null): ConnectionOptions | undefined {
  if (!on) return ca === null ? undefined : { ca: readFileSync(ca) };
  return ca === null ? {} : { ca: readFileSync(ca) };
}

/** Where the spec points, without credentials: for messages. */
export function describeSpec(s: RedisSpec): string {
  const hosts = s.hosts.map((h) => `${h.host}:${h.port}`).join(',');
  return s.kind === 'sentinel'
    ? `sentinels ${hosts} (master ${s.master})`
    : s.kind === 'cluster'
      ? `cluster ${hosts}`
      : hosts;
}

/** The ioredis client for a spec; it reconnects by itself and fails commands fast meanwhile. */
export function redisClient(s: RedisSpec, timeoutMs: number): Redis | Cluster {
  const common: RedisOptions = {
    username: s.username,
    password: s.password,
    tls: s.tls,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: s.timeoutMs ?? timeoutMs,
    retryStrategy: (times) => Math.min(times * 50, 500),
    // A demoted primary answers READONLY: reconnect (to the new primary), never resend.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  };
  if (s.kind === 'cluster') {
    return new Cluster(s.hosts, {
      redisOptions: common,
      enableOfflineQueue: false,
      enableAutoPipelining: false,
      clusterRetryStrategy: (times) => Math.min(times * 50, 500),
      slotsRefreshTimeout: 1000,
      retryDelayOnClusterDown: 50,
      retryDelayOnFailover: 50,
      // Managed TLS clusters announce names their certificates hold; keep them as given.
      dnsLookup: (address, callback) => callback(null, address),
    });
  }
  // Sentinel: followed by sentinel-client.ts (ioredis' own Sentinel mode missed switches).
  if (s.kind === 'sentinel') return sentinelClient(s, common);
  return new Redis({ ...common, host: s.hosts[0].host, port: s.hosts[0].port, db: s.db });
}
