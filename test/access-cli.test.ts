// The `keys` and `usage` commands through the real command line, against a running
// AccessControl on the same store; and the plans file format with its errors.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BUILT_IN_PLANS, loadPlans, monthOf, openAccess } from '../src/access';
import { MESSAGES } from '../src/shared/errors';
import { outcome } from './support/access';
import { PLANS } from './support/plans';

const BIN = join(__dirname, '..', '..', 'bin', 'catalogue.js');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'access-cli-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function catalogue(args: string[], env: Record<string, string> = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function writePlans(name: string, doc: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return file;
}

const BENCH = PLANS.bench;

describe('keys command', () => {
  const store = `sqlite:${join(dir, 'keys.sqlite')}`;

  test('create --json prints exactly id, key, plan and account, and the store keeps only a hash of the key', async () => {
    const r = await catalogue(['keys', 'create', '--plan', 'trial', '--access', store, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const created = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(created), ['id', 'key', 'plan', 'account']);
    assert.equal(created.plan, 'trial');
    assert.match(created.key, /^ck_[A-Za-z0-9_-]{43}$/);
    for (const f of readdirSync(dir).filter((f) => f.startsWith('keys.sqlite'))) {
      assert.ok(!readFileSync(join(dir, f)).includes(created.key), `${f} holds the secret`);
    }
  });

  test('keys without --account get accounts of their own; with --account they share one', async () => {
    const create = async (...extra: string[]) =>
      JSON.parse(
        (await catalogue(['keys', 'create', '--plan', 'sandbox', '--json', ...extra], { ACCESS_STORE: store })).stdout,
      );
    const [a, b] = [await create(), await create()];
    assert.notEqual(a.account, b.account);
    const [c, d] = [await create('--account', 'acme'), await create('--account', 'acme')];
    assert.deepEqual([c.account, d.account], ['acme', 'acme']);
  });

  test('create refuses an unknown plan with a one-line reason and a non-zero exit', async () => {
    const r = await catalogue(['keys', 'create', '--plan', 'gold', '--access', store, '--json']);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^catalogue: unknown plan "gold" \(known: trial, sandbox, starter, pro\)\n$/);
  });

  test('a plan from --plans or PLANS_FILE can be used', async () => {
    const plans = writePlans('bench.json', [BENCH]);
    const viaFlag = await catalogue([
      'keys',
      'create',
      '--plan',
      'bench',
      '--plans',
      plans,
      '--access',
      store,
      '--json',
    ]);
    assert.equal(JSON.parse(viaFlag.stdout).plan, 'bench');
    const viaEnv = await catalogue(['keys', 'create', '--plan', 'bench', '--json'], {
      PLANS_FILE: plans,
      ACCESS_STORE: store,
    });
    assert.equal(JSON.parse(viaEnv.stdout).plan, 'bench');
  });

  test('disable gives 403 and payment-required gives 402 on a running instance; --off lifts it', async () => {
    const access = await openAccess(store, {});
    const a = JSON.parse(
      (await catalogue(['keys', 'create', '--plan', 'starter', '--account', 'pay', '--access', store, '--json']))
        .stdout,
    );
    const b = JSON.parse(
      (await catalogue(['keys', 'create', '--plan', 'pro', '--account', 'pay', '--access', store, '--json'])).stdout,
    );
    assert.equal(await outcome(access.admit(a.key)), 'ok');
    assert.equal((await catalogue(['keys', 'payment-required', a.id, '--access', store])).code, 0);
    await access.refresh();
    assert.equal(await outcome(access.admit(b.key)), `402 ${MESSAGES.paymentRequired}`, 'the whole account');
    assert.equal((await catalogue(['keys', 'payment-required', a.id, '--off', '--access', store])).code, 0);
    await access.refresh();
    assert.equal(await outcome(access.admit(b.key)), 'ok');
    assert.equal((await catalogue(['keys', 'disable', a.id, '--access', store])).code, 0);
    await access.refresh();
    assert.equal(await outcome(access.admit(a.key)), `403 ${MESSAGES.invalidKey}`);
    assert.equal(await outcome(access.admit(b.key)), 'ok');
    await access.close();
  });

  test('disable and payment-required of an unknown key id fail', async () => {
    for (const cmd of ['disable', 'payment-required']) {
      const r = await catalogue(['keys', cmd, 'key_nope', '--access', store]);
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr, 'catalogue: no key has id "key_nope"\n');
    }
  });

  test('list --json shows every key with its state and never a secret', async () => {
    const r = await catalogue(['keys', 'list', '--json', '--access', store]);
    const list = JSON.parse(r.stdout) as Record<string, unknown>[];
    assert.ok(list.length >= 8);
    for (const k of list)
      assert.deepEqual(Object.keys(k), ['id', 'plan', 'account', 'disabled', 'paymentRequired', 'createdAt']);
    assert.ok(list.some((k) => k.account === 'pay' && k.disabled === true));
  });
});

describe('usage command', () => {
  test('reports calls, included, overage and refused per key and per account for a month', async () => {
    const store = `sqlite:${join(dir, 'usage.sqlite')}`;
    const plans = writePlans('small.json', [
      { ...BENCH, name: 'small', monthlyIncluded: 3, monthlyCeiling: 5, barcode: false },
    ]);
    const created = JSON.parse(
      (
        await catalogue([
          'keys',
          'create',
          '--plan',
          'small',
          '--account',
          'shop',
          '--plans',
          plans,
          '--access',
          store,
          '--json',
        ])
      ).stdout,
    );
    const access = await openAccess(store, { plansFile: plans });
    const grant = await access.admit(created.key);
    await access.charge(grant, 4);
    assert.equal(await outcome(access.charge(grant, 2)), `429 ${MESSAGES.monthlyCap}`);
    await access.charge(grant, 1);
    await access.close();
    const month = monthOf(Date.now());
    const r = await catalogue(['usage', '--month', month, '--json', '--access', store, '--plans', plans]);
    assert.deepEqual(JSON.parse(r.stdout), {
      month,
      keys: [{ id: created.id, account: 'shop', plan: 'small', calls: 5, included: 3, overage: 2, refused: 1 }],
      accounts: [{ account: 'shop', calls: 5, included: 3, overage: 2, refused: 1 }],
    });
    const human = await catalogue(['usage', '--month', month, '--access', store, '--plans', plans]);
    assert.match(human.stdout, /shop\s+5\s+3\s+2\s+1/);
    const bad = await catalogue(['usage', '--month', '2025-13', '--access', store]);
    assert.notEqual(bad.code, 0);
  });
});

describe('plans', () => {
  test('the built-in plans are exactly the table of operator-cli.md', () => {
    assert.deepEqual(
      BUILT_IN_PLANS.map((p) => [p.name, p.trial, p.monthlyIncluded, p.monthlyCeiling, p.ratePerSecond, p.barcode]),
      [
        ['trial', { requests: 100, days: 14 }, null, null, 5, true],
        ['sandbox', null, 100, 100, 5, false],
        ['starter', null, 10_000, 50_000, 50, false],
        ['pro', null, 100_000, 500_000, 200, true],
      ],
    );
  });

  test('a plans file adds plans and may override a built-in one', () => {
    const file = writePlans('override.json', [BENCH, { ...BENCH, name: 'pro', ratePerSecond: 1000 }]);
    const plans = loadPlans(file);
    assert.deepEqual(plans.get('bench'), BENCH);
    assert.equal(plans.get('pro')?.ratePerSecond, 1000);
    assert.equal(plans.get('trial')?.trial?.requests, 100);
  });

  test('a bad plans file is refused with the file, the entry and the field named', () => {
    const cases: [unknown, RegExp][] = [
      ['not json', /plans\.json: not valid JSON/],
      [{ name: 'x' }, /must be a JSON array of plans/],
      [[{ ...BENCH, extra: 1 }], /plan \[0\]: unknown field "extra"/],
      [[{ ...BENCH, barcode: undefined }], /plan \[0\]: field "barcode" is missing/],
      [
        [BENCH, { ...BENCH, monthlyIncluded: -1 }],
        /plan \[1\] \("bench"\): monthlyIncluded must be an integer ≥ 0 or null/,
      ],
      [[{ ...BENCH, trial: { requests: 10 } }], /trial must be null or \{"requests": N, "days": D\}/],
      [[{ ...BENCH, trial: [1, 2] }], /plan \[0\] \("bench"\): trial must be null or \{"requests": N, "days": D\}$/],
      [[{ ...BENCH, trial: { requests: 10, days: 0 } }], /plan \[0\] \("bench"\): trial\.days must be an integer ≥ 1$/],
      [[{ ...BENCH, ratePerSecond: 1.5 }], /plan \[0\] \("bench"\): ratePerSecond must be an integer ≥ 1 or null$/],
      [[{ ...BENCH, monthlyCeiling: 2 ** 53 }], /monthlyCeiling must be an integer ≥ 1 or null$/],
      [[{ ...BENCH, barcode: 'yes' }], /plan \[0\] \("bench"\): barcode must be true or false$/],
      [[{ ...BENCH, name: 7 }], /plan \[0\]: name must be 1 to 64 letters/],
      [[{ ...BENCH, monthlyIncluded: 10, monthlyCeiling: 5 }], /monthlyCeiling must not be below monthlyIncluded/],
      [[BENCH, BENCH], /name "bench" appears twice/],
      [[{ ...BENCH, name: 'has space' }], /name must be/],
    ];
    for (const [doc, message] of cases) {
      assert.throws(() => loadPlans(writePlans('plans.json', doc)), message);
    }
    assert.throws(() => loadPlans(join(dir, 'missing.json')), /missing\.json: cannot be read \(ENOENT\)/);
  });

  test('serve-side commands report a bad plans file as a one-line error', async () => {
    const r = await catalogue([
      'keys',
      'list',
      '--plans',
      writePlans('bad.json', '[1]'),
      '--access',
      `sqlite:${join(dir, 'p.sqlite')}`,
    ]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr, `catalogue: plans file ${join(dir, 'bad.json')}: plan [0]: must be an object\n`);
  });
});
