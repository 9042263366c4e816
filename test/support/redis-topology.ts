// Real Redis topologies for the tests, from the Debian redis-server binary on ports 7100–7199:
// a Cluster of three primaries and three replicas, and a primary + replica watched by three
// Sentinels (redis-server --sentinel). Every process is killed and its directory removed by
// stop(), and also if the test process exits first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

export interface Topology {
  /** ACCESS_STORE spec for the given key prefix. */
  spec(prefix: string): string;
  /** A plain client to one node (127.0.0.1:port). */
  node(port: number): Redis;
  ports: number[];
  /** SIGKILLs the server on `port`. */
  kill(port: number): void;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** Whether redis-server and redis-cli are installed. */
export function redisBinariesPresent(): boolean {
  return ['redis-server', 'redis-cli'].every((b) => spawnSync(b, ['--version']).status === 0);
}

function startServer(dir: string, args: string[]): ChildProcess {
  const child = spawn('redis-server', args, { cwd: dir, stdio: 'ignore' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function serverArgs(port: number): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis topology: timed out waiting for ${what}`);
}

function client(port: number): Redis {
  const r = new Redis({
    port,
    host: '127.0.0.1',
    maxRetriesPerRequest: 1,
    retryStrategy: () => 100,
    lazyConnect: false,
  });
  r.on('error', () => {});
  return r;
}

function topology(dir: string, ports: number[], children: ChildProcess[], spec: (p: string) => string): Topology {
  const clients: Redis[] = [];
  return {
    spec,
    ports,
    kill(port) {
      children[ports.indexOf(port)].kill('SIGKILL');
    },
    node(port) {
      const r = client(port);
      clients.push(r);
      return r;
    },
    async stop() {
      for (const r of clients) r.disconnect();
      await Promise.all(
        children.map((c) =>
          c.exitCode !== null || c.signalCode !== null
            ? Promise.resolve()
            : new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGKILL'))),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Three primaries and three replicas on base..base+5, every slot covered, every replica synced. */
export async function startCluster(base: number): Promise<Topology> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const ports = [0, 1, 2, 3, 4, 5].map((i) => base + i);
  const children = ports.map((port) =>
    startServer(dir, [
      ...serverArgs(port),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      '1000',
      '--cluster-replica-validity-factor',
      '0',
    ]),
  );
  const t = topology(
    dir,
    ports,
    children,
    (p) =>
      `redis-cluster://${ports
        .slice(0, 3)
        .map((x) => `127.0.0.1:${x}`)
        .join(',')}?prefix=${p}`,
  );
  try {
    const nodes = ports.map((p) => t.node(p));
    await until('cluster nodes up', async () =>
      (await Promise.all(nodes.map((n) => n.ping()))).length ? true : undefined,
    );
    const made = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (made.status !== 0) throw new Error(`redis-cli --cluster create failed: ${made.stdout}${made.stderr}`);
    await until('cluster state ok, replicas synced', async () => {
      for (const n of nodes) {
        if (!(await n.cluster('INFO')).includes('cluster_state:ok')) return undefined;
        const repl = await n.info('replication');
        if (repl.includes('role:slave') && !repl.includes('master_link_status:up')) return undefined;
      }
      return true;
    });
    return t;
  } catch (err) {
    await t.stop();
    throw err;
  }
}

/**
 * Resolves once the replica of the primary on `port` is sent each write as it is made: once it
 * has acknowledged (WAIT 1) a write made after it acknowledged an earlier one (to `key`, which
 * must be served by that primary). A replica's `master_link_status:up` is not that: after a
 * full resync (diskless, as Redis 7 does by default) it reports the link up as soon as it has
 * loaded the snapshot, but its primary sends it the writes made since only from the replica's
 * next REPLCONF ACK, up to a second later when the first one reached the primary before it
 * had reaped the snapshot's child; a primary killed in between takes them all with it. One
 * acknowledged write is not that either: it may have reached the replica in the snapshot.
 */
export async function replicated(t: Topology, port: number, key: string): Promise<void> {
  const primary = t.node(port);
  const acknowledged = async () => {
    await primary.incr(key);
    return Number(await primary.call('WAIT', '1', '1000')) >= 1;
  };
  await until(
    'a write acknowledged by the replica after an earlier one',
    async () => ((await acknowledged()) && (await acknowledged()) ? true : undefined),
    30,
  );
}

/** The port of the replica of the primary serving `key`'s slot. */
export async function replicaOf(t: Topology, key: string): Promise<{ primary: number; replica: number }> {
  const any = t.node(t.ports[0]);
  const slot = Number(await any.cluster('KEYSLOT', key));
  const lines = String(await any.cluster('NODES'))
    .trim()
    .split('\n')
    .map((l) => l.split(' '));
  const owner = lines.find((f) => f[2].includes('master') && f.slice(8).some((r) => inRange(r, slot)));
  const replica = lines.find((f) => f[3] === owner?.[0]);
  if (!owner || !replica) throw new Error(`no primary with a replica for slot ${slot}`);
  return { primary: portOf(owner[1]), replica: portOf(replica[1]) };
}

function inRange(range: string, slot: number): boolean {
  const [a, b = a] = range.split('-').map(Number);
  return slot >= a && slot <= b;
}

function portOf(addr: string): number {
  return Number(/:(\d+)@/.exec(addr)![1]);
}

/** A primary (base), its replica (base+1) and three sentinels (base+10..12), master name "catalogue". */
export async function startSentinel(base: number): Promise<Topology> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-sentinel-'));
  const [primary, replica] = [base, base + 1];
  const sentinels = [base + 10, base + 11, base + 12];
  const children = [
    startServer(dir, serverArgs(primary)),
    startServer(dir, [...serverArgs(replica), '--replicaof', '127.0.0.1', String(primary)]),
  ];
  for (const port of sentinels) {
    const conf = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `sentinel monitor catalogue 127.0.0.1 ${primary} 2`,
        'sentinel down-after-milliseconds catalogue 1000',
        `logfile ${join(dir, `sentinel-${port}.log`)}`,
        'sentinel failover-timeout catalogue 2000', // a new failover of the same primary may start 2 × this after the last
        '',
      ].join('\n'),
    );
    children.push(startServer(dir, [conf, '--sentinel']));
  }
  const t = topology(
    dir,
    [primary, replica, ...sentinels],
    children,
    (p) => `redis-sentinel://${sentinels.map((x) => `127.0.0.1:${x}`).join(',')}/catalogue?prefix=${p}`,
  );
  try {
    const r = t.node(replica);
    await until('replica synced', async () =>
      (await r.info('replication')).includes('master_link_status:up') ? true : undefined,
    );
    for (const port of sentinels) {
      const s = t.node(port);
      await until('sentinels know the replica and each other', async () => {
        const replicas = (await s.call('SENTINEL', 'REPLICAS', 'catalogue')) as unknown[];
        const peers = (await s.call('SENTINEL', 'SENTINELS', 'catalogue')) as unknown[];
        return replicas.length === 1 && peers.length === 2 ? true : undefined;
      });
    }
    return t;
  } catch (err) {
    await t.stop();
    throw err;
  }
}
