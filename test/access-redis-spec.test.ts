// Redis store specs (single server, TLS, Sentinel, Cluster) parse into what they say, bad ones are
// refused with a message naming the problem and never the password, on a cluster every key
// one atomic metering step touches lies in the slot of its account, and a Sentinel store that
// cannot be reached is refused with the reason and lets the process exit once closed.
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import assert from 'node:assert/strict';
import calculateSlot from 'cluster-key-slot';
import { parseRedisSpec } from '../src/access/redis-spec';
import { RedisKeys } from '../src/access/redis-keys';
import { openAdmin } from '../src/access';

test('a single server, with user, password, database and prefix', () => {
  const s = parseRedisSpec('redis://app:p%40ss@10.0.0.5:6380/3?prefix=cat:');
  assert.deepEqual(
    {
      kind: s.kind,
      hosts: s.hosts,
      username: s.username,
      password: s.password,
      db: s.db,
      prefix: s.prefix,
      tls: s.tls,
    },
    {
      kind: 'server',
      hosts: [{ host: '10.0.0.5', port: 6380 }],
      username: 'app',
      password: 'p@ss',
      db: 3,
      prefix: 'cat:',
      tls: undefined,
    },
  );
});

test('rediss:// and tls=1 turn TLS on; a password alone is written :PASS@', () => {
  assert.deepEqual(parseRedisSpec('rediss://h:6379').tls, {});
  const s = parseRedisSpec('redis-cluster://:secret@a:7000,b:7001?tls=1');
  assert.deepEqual([s.tls, s.username, s.password], [{}, undefined, 'secret']);
});

test('a Sentinel spec names its sentinels, the master and a database', () => {
  const s = parseRedisSpec(
    'redis-sentinel://s1:26379,s2:26380,[::1]:26381/mymaster/2?sentinel_password=x&timeout_ms=900',
  );
  assert.deepEqual(
    { kind: s.kind, hosts: s.hosts, master: s.master, db: s.db, sp: s.sentinelPassword, t: s.timeoutMs },
    {
      kind: 'sentinel',
      hosts: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      master: 'mymaster',
      db: 2,
      sp: 'x',
      t: 900,
    },
  );
});

test('a Cluster spec takes seed nodes and no database', () => {
  const s = parseRedisSpec('redis-cluster://a:7000,b');
  assert.deepEqual(
    [s.kind, s.hosts, s.prefix],
    [
      'cluster',
      [
        { host: 'a', port: 7000 },
        { host: 'b', port: 6379 },
      ],
      'catalogue:',
    ],
  );
});

test('bad specs are refused with the reason', () => {
  const cases: [string, RegExp][] = [
    ['redis://a:1,b:2', /takes one HOST:PORT/],
    ['redis-sentinel://s1:26379', /needs the master name/],
    ['redis-cluster://a:7000/1', /no database number/],
    ['redis://a:1/x', /database must be a number/],
    ['redis://a:1?prefx=p', /unknown redis store option "prefx"/],
    ['redis-cluster://a:1?prefix={p}', /must not contain \{ or \}/],
    ['redis://a:1?timeout_ms=0', /timeout_ms must be a whole number/],
    ['redis://a:port', /HOST:PORT/],
  ];
  for (const [spec, message] of cases) assert.throws(() => parseRedisSpec(spec), message, spec);
});

test('an unknown store scheme is refused without echoing the password', async () => {
  await assert.rejects(openAdmin('redis+cluster://u:hunter2@a:1'), (err: Error) => {
    assert.match(err.message, /access store must be/);
    assert.doesNotMatch(err.message, /hunter2/);
    return true;
  });
});

test('a store that cannot be reached is named without its password', async () => {
  await assert.rejects(openAdmin('redis://u:hunter2@127.0.0.1:1', { timeoutMs: 200 }), (err: Error) => {
    assert.match(err.message, /cannot reach the access store at 127\.0\.0\.1:1/);
    assert.doesNotMatch(err.message, /hunter2/);
    return true;
  });
});

test('on a cluster, every key of an atomic step is in its account slot; control data is in one slot', () => {
  const k = new RedisKeys('catalogue:', true);
  for (const account of ['acct_1', 'team.example@x+y', 'b-2']) {
    const slot = calculateSlot(k.trial(account));
    assert.equal(calculateSlot(k.rate('key_a', account, 1_700_000_000)), slot, account);
    assert.equal(calculateSlot(k.usage(account, '2026-11')), slot, account);
  }
  const ctl = calculateSlot(k.version);
  for (const key of [k.keySet, k.key('key_a'), k.acctPrefix + 'acct_1']) assert.equal(calculateSlot(key), ctl, key);
  assert.notEqual(calculateSlot(k.trial('acct_1')), calculateSlot(k.trial('acct_2'))); // accounts spread over slots
});

test('a single server keeps the flat key names of earlier releases', () => {
  const k = new RedisKeys('catalogue:', false);
  assert.deepEqual(
    [k.version, k.keySet, k.key('i'), k.acctPrefix, k.rate('i', 'a', 5), k.usage('a', '2026-11'), k.trial('a')],
    [
      'catalogue:version',
      'catalogue:keys',
      'catalogue:key:i',
      'catalogue:acct:',
      'catalogue:rate:i:5',
      'catalogue:usage:2026-11',
      'catalogue:trial',
    ],
  );
});

test('a Sentinel store whose Sentinels do not answer: the admin is refused with the reason, and the process can exit', async () => {
  // The Sentinel client keeps connections to every Sentinel; closing the store must close them
  // (a client closed while it waits to reconnect gets no `end` from ioredis).
  const port = 7100 + Math.floor(Math.random() * 800); // nothing listens there for a Sentinel
  const script = `
    const { openAdmin } = require(${JSON.stringify(require.resolve('../src/access'))});
    openAdmin('redis-sentinel://127.0.0.1:${port}/nobody').then(
      () => console.log('opened'),
      (err) => console.log(err.message),
    );`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = await Promise.race([
    once(child, 'exit').then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
  ]);
  if (!exited) child.kill('SIGKILL');
  assert.match(out, /cannot reach the access store at sentinels 127\.0\.0\.1:\d+ \(master nobody\)/);
  assert.ok(exited, 'the process exits once the store is closed');
});
