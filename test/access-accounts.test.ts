// Dashboard accounts on real stores (SQLite file and Redis): per-day counters beside the
// monthly ones, key roll with a grace period on the injected clock, account disable and plan
// change reaching a running instance, sign-in answers and attempt limits, sessions with
// expiry and their end at a password change, one-time tokens, shared settings, and a store
// file of the previous release opened without loss.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { LIMITS, openAccess, openAccounts, openAdmin, type AccessAccounts } from '../src/access';
import { MESSAGES } from '../src/shared/errors';
import { ManualClock, outcome as refusal } from './support/access';
import { REDIS, dropPrefixes, redisUp } from './support/redis';

const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 30, 12); // 2025-03-30 12:00 UTC

/** Retries until the instance (polling the store's version) gives `want`. */
async function eventually(op: () => Promise<unknown>, want: string): Promise<string> {
  let last = '';
  for (let i = 0; i < 60; i++) {
    last = await refusal(op());
    if (last === want) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

const dir = mkdtempSync(join(tmpdir(), 'access-accounts-'));
const prefixes: string[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (prefixes.length === 0 || !(await redisUp())) return;
  await dropPrefixes(prefixes);
});

const kinds = [
  { name: 'sqlite', fresh: () => `sqlite:${join(dir, `a-${randomBytes(4).toString('hex')}.sqlite`)}` },
  {
    name: 'redis',
    fresh: () => {
      const prefix = `acct-test-${randomBytes(4).toString('hex')}:`;
      prefixes.push(prefix);
      return `${REDIS}?prefix=${prefix}`;
    },
  },
];

for (const kind of kinds) {
  describe(`dashboard accounts on ${kind.name}`, () => {
    const storeTest = (
      name: string,
      body: (spec: string, accounts: AccessAccounts, clock: ManualClock) => Promise<void>,
    ): void =>
      void test(name, async (t) => {
        if (kind.name === 'redis' && !(await redisUp())) {
          if (process.env.CI) throw new Error(`no Redis at ${REDIS}, and CI is set`);
          return t.skip(`SKIPPED: no Redis reachable at ${REDIS}`);
        }
        const spec = kind.fresh();
        const clock = new ManualClock(START);
        const accounts = await openAccounts(spec, { clock, purpose: 'admin' });
        try {
          await body(spec, accounts, clock);
        } finally {
          await accounts.close();
        }
      });

    storeTest('calls and 429s are counted per key and UTC day, beside the month', async (spec, accounts, clock) => {
      const user = (await accounts.signUp('Day@Example.com', 'correct horse battery', 'sandbox'))!;
      const k = await accounts.createKey(user, 'daily');
      const other = await accounts.createKey(user, 'other');
      const access = await openAccess(spec, { clock });
      const grant = await access.admit(k.key);
      await access.charge(grant, 3);
      clock.ms += DAY; // 2025-03-31
      await access.charge(grant, 2);
      await access.charge(await access.admit(other.key), 1);
      for (let i = 0; i < 4; i++) await access.admit(k.key); // the account's 6th request of this second (both keys)…
      assert.equal(await refusal(access.admit(k.key)), `429 ${MESSAGES.rateLimited}`);
      clock.ms += 1000;
      await access.charge(grant, 94); // the sandbox's 100 a month reached, for the account (both keys)…
      assert.equal(await refusal(access.charge(grant, 1)), `429 ${MESSAGES.monthlyCap}`);
      clock.ms += DAY; // 2025-04-01
      await access.charge(grant, 4);
      const march = await accounts.daily(user.name, '2025-03');
      assert.deepEqual(march.map((r) => [r.day, r.keyId === k.id ? 'k' : 'other', r.calls, r.refused]).sort(), [
        ['2025-03-30', 'k', 3, 0],
        ['2025-03-31', 'k', 96, 2],
        ['2025-03-31', 'other', 1, 0],
      ]);
      assert.deepEqual(
        (await accounts.daily(user.name, '2025-04')).map((r) => [r.day, r.calls]),
        [['2025-04-01', 4]],
      );
      const admin = await openAdmin(spec, { clock });
      assert.deepEqual(
        (await admin.usage('2025-03')).keys.map((r) => [r.id === k.id ? 'k' : 'other', r.calls, r.refused]).sort(),
        [
          ['k', 99, 2],
          ['other', 1, 0],
        ],
      );
      await admin.close();
      await access.close();
    });

    storeTest('charges nothing can refuse, summed in one turn, count their day too', async (spec, accounts, clock) => {
      const admin = await openAdmin(spec, { clock });
      const k = await admin.createKey('starter', 'summed');
      const access = await openAccess(spec, { clock });
      const grant = await access.admit(k.key);
      await Promise.all(
        Array.from({ length: 20 }, () => access.charge({ ...grant, plan: { ...grant.plan, monthlyCeiling: null } }, 2)),
      );
      assert.deepEqual(
        (await accounts.daily('summed', '2025-03')).map((r) => [r.day, r.calls]),
        [['2025-03-30', 40]],
      );
      await access.close();
      await admin.close();
    });

    storeTest(
      'a rolled key: both secrets work during the grace period, then only the new one',
      async (spec, accounts, clock) => {
        const user = (await accounts.signUp('roll@example.com', 'correct horse battery', 'starter'))!;
        const k = await accounts.createKey(user, 'rolled');
        const access = await openAccess(spec, { clock });
        assert.equal(await refusal(access.admit(k.key)), 'ok');
        const rolled = (await accounts.rollKey(user.name, k.id, 3_600_000))!;
        assert.equal(rolled.id, k.id, 'the same key id (usage continues)');
        assert.notEqual(rolled.key, k.key);
        assert.equal(await eventually(() => access.admit(rolled.key), 'ok'), 'ok');
        assert.equal(await refusal(access.admit(k.key)), 'ok', 'the old secret during the grace period');
        clock.ms += 3_600_000;
        assert.equal(await refusal(access.admit(k.key)), `403 ${MESSAGES.invalidKey}`, 'the old secret after it');
        assert.equal(await refusal(access.admit(rolled.key)), 'ok');
        const again = (await accounts.rollKey(user.name, k.id, 0))!;
        assert.equal(
          await eventually(() => access.admit(rolled.key), `403 ${MESSAGES.invalidKey}`),
          `403 ${MESSAGES.invalidKey}`,
        );
        assert.equal(await refusal(access.admit(again.key)), 'ok');
        assert.equal(await accounts.rollKey('someone-else', k.id, 0), null, "another account's key is no key");
        await access.close();
      },
    );

    storeTest(
      "an account's plan, disable and payment-required reach a running instance",
      async (spec, accounts, clock) => {
        const user = (await accounts.signUp('plan@example.com', 'correct horse battery', 'sandbox'))!;
        const k = await accounts.createKey(user, 'a');
        const access = await openAccess(spec, { clock });
        assert.equal((await access.admit(k.key)).plan.name, 'sandbox');
        assert.ok(await accounts.updateAccount(user.name, { plan: 'pro' }));
        for (let i = 0; i < 60 && (await access.admit(k.key)).plan.name !== 'pro'; i++) {
          clock.ms += 1000; // a new rate window each try
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal((await access.admit(k.key)).plan.name, 'pro');
        assert.equal((await accounts.keys(user.name))[0].plan, 'pro');
        assert.equal((await accounts.createKey((await accounts.user(user.name))!, 'b')).plan, 'pro');
        await accounts.updateAccount(user.name, { paymentRequired: true });
        assert.equal(
          await eventually(() => access.admit(k.key), `402 ${MESSAGES.paymentRequired}`),
          `402 ${MESSAGES.paymentRequired}`,
        );
        await accounts.updateAccount(user.name, { paymentRequired: false, disabled: true });
        assert.equal(
          await eventually(() => access.admit(k.key), `403 ${MESSAGES.invalidKey}`),
          `403 ${MESSAGES.invalidKey}`,
        );
        await accounts.updateAccount(user.name, { disabled: false });
        assert.equal(await eventually(() => access.admit(k.key), 'ok'), 'ok');
        assert.equal(await accounts.updateAccount('no-such-account', { disabled: true }), false);
        await access.close();
      },
    );

    storeTest(
      'a trial starts with the first key of a signed-up account and is shared by its keys',
      async (spec, accounts, clock) => {
        const user = (await accounts.signUp('trial@example.com', 'correct horse battery', 'trial'))!;
        clock.ms += 10 * DAY; // signed up ten days before the first key
        const a = await accounts.createKey(user, 'a');
        const b = await accounts.createKey(user, 'b');
        const access = await openAccess(spec, { clock });
        assert.deepEqual(await access.charge(await access.admit(a.key), 60), { trialRemaining: 40 });
        assert.deepEqual(await access.charge(await access.admit(b.key), 40), { trialRemaining: 0 });
        clock.ms += 14 * DAY - 1;
        assert.equal(await refusal(access.admit(b.key)), 'ok');
        clock.ms += 1;
        assert.equal(await refusal(access.admit(b.key)), `402 ${MESSAGES.trialExpired}`);
        await access.close();
      },
    );

    storeTest(
      'sign-in: one answer for an unknown email and a wrong password; failures limited per window',
      async (_spec, accounts, clock) => {
        assert.ok(await accounts.signUp('Someone@Example.com', 'correct horse battery', 'trial'));
        assert.equal(await accounts.signUp('someone@example.com ', 'another password!', 'trial'), null, 'email taken');
        const ok = await accounts.signIn('SOMEONE@example.com', 'correct horse battery', '10.0.0.1');
        assert.ok(ok.ok && ok.user.email === 'someone@example.com');
        assert.deepEqual(await accounts.signIn('nobody@example.com', 'correct horse battery', '10.0.0.1'), {
          ok: false,
          why: 'invalid',
        });
        for (let i = 0; i < LIMITS.pair.max; i++)
          assert.deepEqual(await accounts.signIn('someone@example.com', 'wrong', '10.0.0.2'), {
            ok: false,
            why: 'invalid',
          });
        assert.deepEqual(await accounts.signIn('someone@example.com', 'correct horse battery', '10.0.0.2'), {
          ok: false,
          why: 'pair-limited',
        });
        assert.ok(
          (await accounts.signIn('someone@example.com', 'correct horse battery', '10.0.0.3')).ok,
          'the owner elsewhere is not refused',
        );
        clock.ms += LIMITS.pair.windowMs;
        assert.ok(
          (await accounts.signIn('someone@example.com', 'correct horse battery', '10.0.0.2')).ok,
          'minutes, not longer',
        );
      },
    );

    storeTest('sessions expire by the clock and end at a password change', async (_spec, accounts, clock) => {
      const user = (await accounts.signUp('s@example.com', 'correct horse battery', 'trial'))!;
      await accounts.saveSession('sid-1', { account: user.name, data: '{"a":1}', expiresAt: clock.ms + 60_000 });
      await accounts.saveSession('sid-2', { account: user.name, data: '{"a":2}', expiresAt: clock.ms + 60_000 });
      await accounts.saveSession('anon', { account: '', data: '{}', expiresAt: clock.ms + 60_000 });
      assert.equal((await accounts.session('sid-1'))?.data, '{"a":1}');
      clock.ms += 60_000;
      assert.equal(await accounts.session('sid-1'), null, 'expired');
      clock.ms -= 60_000;
      assert.equal((await accounts.session('sid-2'))?.data, '{"a":2}');
      assert.equal(await accounts.changePassword(user.name, 'wrong', 'new password 123'), 'wrong');
      assert.equal(await accounts.changePassword(user.name, 'correct horse battery', 'new password 123'), 'changed');
      assert.equal(await accounts.session('sid-2'), null, 'every session of the account ended');
      assert.ok(await accounts.session('anon'));
      assert.ok((await accounts.signIn('s@example.com', 'new password 123', 'x')).ok);
      await accounts.endSession('anon');
      assert.equal(await accounts.session('anon'), null);
    });

    storeTest('invitations and reset links work once and expire', async (_spec, accounts, clock) => {
      const inv = await accounts.invite('starter');
      assert.equal((await accounts.peekToken(inv.token, 'invite'))?.plan, 'starter');
      assert.equal(await accounts.peekToken(inv.token, 'reset'), null);
      assert.ok(await accounts.takeToken(inv.token, 'invite'));
      assert.equal(await accounts.takeToken(inv.token, 'invite'), null, 'one use');
      const late = await accounts.invite('');
      clock.ms += 7 * DAY;
      assert.equal(await accounts.takeToken(late.token, 'invite'), null, 'expired');
      await accounts.signUp('r@example.com', 'correct horse battery', 'trial');
      assert.equal(await accounts.resetLink('nobody@example.com'), null);
      const reset = (await accounts.resetLink('R@example.com'))!;
      assert.ok(await accounts.resetPassword(reset.token, 'brand new password'));
      assert.equal(await accounts.resetPassword(reset.token, 'another one please'), false);
      assert.ok((await accounts.signIn('r@example.com', 'brand new password', 'y')).ok);
    });

    storeTest('a setting is made once and shared', async (spec, accounts) => {
      const first = await accounts.setting('session-secret', () => 'one');
      const other = await openAccounts(spec, { purpose: 'admin' });
      assert.equal(await other.setting('session-secret', () => 'two'), first);
      await other.close();
    });
  });
}

test('a store file of the previous release (no dashboard columns) opens, keeps its keys and gains them', async () => {
  const file = join(dir, 'old.sqlite');
  const db = new Database(file);
  db.exec(`
    CREATE TABLE meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO meta VALUES ('version', 3);
    CREATE TABLE accounts (name TEXT PRIMARY KEY, payment_required INTEGER NOT NULL DEFAULT 0, first_key_at INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, account TEXT NOT NULL REFERENCES accounts(name),
      plan TEXT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE usage (key_id TEXT NOT NULL, month TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0,
      refused INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (key_id, month)) WITHOUT ROWID;
    INSERT INTO accounts VALUES ('old', 0, 1);
    INSERT INTO keys VALUES ('key_old', '${'a'.repeat(64)}', 'old', 'pro', 0, 1);
    INSERT INTO usage VALUES ('key_old', '2025-01', 7, 1);
  `);
  db.close();
  const admin = await openAdmin(`sqlite:${file}`);
  assert.deepEqual(
    (await admin.listKeys()).map((k) => [k.id, k.account, k.plan]),
    [['key_old', 'old', 'pro']],
  );
  assert.deepEqual(
    (await admin.usage('2025-01')).keys.map((k) => [k.id, k.calls, k.refused]),
    [['key_old', 7, 1]],
  );
  const created = await admin.createKey('pro', 'old');
  assert.equal((await admin.listKeys()).length, 2, created.id);
  await admin.close();
});
