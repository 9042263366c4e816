// The dashboard as an attacker tries it (issue 31), over real HTTP, on SQLite and on Redis (db
// 14, a random prefix): a visitor's page views store no session; a form sent twice (a reload,
// a double press) acts once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import Database from 'better-sqlite3';
import { Client, startDashboard, type DashboardServer } from './support/dashboard';
import { buildFixture, productId } from './support/fixture';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

const PASSWORD = 'a fine password';

interface Store {
  name: string;
  spec(dir: string): string;
  /** Sessions kept in the store now. */
  sessions(spec: string): Promise<number>;
}

const prefixes: string[] = [];
const STORES: Store[] = [
  {
    name: 'sqlite',
    spec: (dir) => `sqlite:${dir}/abuse.sqlite`,
    sessions: async (spec) => {
      const db = new Database(spec.slice('sqlite:'.length), { readonly: true });
      try {
        return db.prepare<[], number>('SELECT count(*) FROM sessions').pluck().get()!;
      } finally {
        db.close();
      }
    },
  },
  {
    name: 'redis',
    spec: () => {
      const prefix = `abuse-${randomBytes(4).toString('hex')}:`;
      prefixes.push(prefix);
      return `${REDIS}?prefix=${prefix}`;
    },
    sessions: async (spec) => {
      const { default: Redis } = await import('ioredis');
      const prefix = new URL(spec).searchParams.get('prefix')!;
      const r = new Redis(REDIS);
      let n = 0;
      for await (const batch of r.scanStream({ match: `${prefix}sess:*`, count: 1000 }))
        n += (batch as string[]).length;
      r.disconnect();
      return n;
    },
  },
];

let dir = '';
let catalogue = '';
let redisSkip: string | false = false;

before(async () => {
  ({ dir, file: catalogue } = await buildFixture());
  if (!(await redisUp())) {
    if (process.env.CI) throw new Error(`no Redis reachable at ${REDIS}, and CI is set: Redis tests must run`);
    redisSkip = `SKIPPED: no Redis reachable at ${REDIS}`;
  }
});

after(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (!redisSkip) await dropPrefixes(prefixes);
});

for (const store of STORES) {
  describe(store.name, () => {
    let t: DashboardServer;
    let n = 0;
    const skip = () => (store.name === 'redis' ? redisSkip : false);

    before(async () => {
      if (skip()) return;
      t = await startDashboard({ signup: 'open', trustProxy: true }, { catalogue, dir, store: store.spec(dir) });
    });
    after(() => t?.server.close());

    /** A new developer account, signed in, from an address of its own. */
    async function developer(): Promise<{ c: Client; email: string }> {
      const email = `${store.name}-dev${++n}@example.com`;
      const c = new Client(t.url, { 'x-forwarded-for': `10.20.0.${n}` });
      const res = await c.signUp(email, PASSWORD);
      assert.equal(res.status, 303, await res.text());
      return { c, email };
    }
    const api = (key: string) =>
      fetch(`${t.url}/v1/products/${productId(0)}`, { headers: { 'x-api-key': key } }).then((r) => r.status);

    test("a visitor's page views store no session (item 7)", async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const before = await store.sessions(t.store);
      const visits = 60;
      for (let i = 0; i < visits; i++) {
        const res = await fetch(`${t.url}/dashboard/${i % 2 ? 'sign-in' : 'sign-up'}`);
        assert.equal(res.status, 200);
        await res.text();
      }
      const after = await store.sessions(t.store);
      ctx.diagnostic(`sessions stored after ${visits} cookieless visits: ${after - before}`);
      assert.equal(after - before, 0);
      const { c } = await developer();
      assert.equal(await store.sessions(t.store), before + 1, 'a sign-up is someone to remember');
      assert.equal((await c.get('/dashboard/keys')).status, 200);
    });

    test('a form sent twice acts once: a roll keeps the old secret for its grace, a create makes one key (item 9)', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const { c } = await developer();
      const first = await c.createKey('production');
      assert.equal(await api(first.key), 200);
      const { csrf } = await c.page('/dashboard/keys');
      const roll = { _csrf: csrf, grace: '1h' };
      const rolled = await c.post(`/dashboard/keys/${first.id}/roll`, roll);
      assert.equal(rolled.status, 200);
      const fresh = /id="secret-value">([^<]+)</.exec(await rolled.text())![1];
      const again = await c.post(`/dashboard/keys/${first.id}/roll`, roll); // the reload of the answer
      assert.equal(again.status, 409);
      assert.match(await again.text(), /This form was already sent/);
      assert.equal(await api(first.key), 200, 'the original secret is still in its grace period');
      assert.equal(await api(fresh), 200);

      const create = { _csrf: (await c.page('/dashboard/keys')).csrf, name: 'twice' };
      const [one, two] = await Promise.all([c.post('/dashboard/keys', create), c.post('/dashboard/keys', create)]);
      assert.deepEqual([one.status, two.status].sort(), [200, 409], 'a double press');
      const keys = await (await c.get('/dashboard/keys')).text();
      assert.equal(keys.match(/>twice</g)?.length, 1, 'one key made');
    });

    test('every form of a page has a token of its own', async (ctx) => {
      if (skip()) return ctx.skip(skip() as string);
      const { c } = await developer();
      const { id } = await c.createKey('a');
      await c.createKey('b');
      const { html } = await c.page('/dashboard/keys');
      const tokens = [...html.matchAll(/name="_csrf" value="([^"]+)"/g)].map((m) => m[1]);
      assert.ok(tokens.length >= 4, `${tokens.length} forms`); // sign-out, create, a roll per key
      assert.equal(new Set(tokens).size, tokens.length);
      const disable = tokens[tokens.length - 1];
      assert.equal((await c.post(`/dashboard/keys/${id}/disable`, { _csrf: disable })).status, 303);
    });
  });
}
