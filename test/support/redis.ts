// The shared Redis of the tests (127.0.0.1:6379, db 14): whether it answers, and removing every
// key a test made under its random prefix.
export const REDIS = 'redis://127.0.0.1:6379/14';

export async function redisUp(): Promise<boolean> {
  const { default: Redis } = await import('ioredis');
  const r = new Redis(REDIS, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export async function dropPrefixes(prefixes: string[]): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const r = new Redis(REDIS);
  for (const prefix of prefixes) {
    const keys: string[] = [];
    for await (const batch of r.scanStream({ match: `${prefix}*`, count: 1000 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await r.del(...keys);
  }
  r.disconnect();
}
