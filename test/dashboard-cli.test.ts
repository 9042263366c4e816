// `catalogue admin create | reset-link` as an operator runs them: the password from the
// environment or standard input (never an argument), a taken email refused, and a reset link
// that opens the reset page once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAccounts } from '../src/access';

const BIN = path.join(__dirname, '..', '..', 'bin', 'catalogue.js');

test('admin create takes the password from the environment or stdin; reset-link prints a one-time link', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const run = (args: string[], env: Record<string, string> = {}, input = '') =>
    spawnSync(process.execPath, [BIN, ...args, '--access', store], {
      env: { ...process.env, ...env },
      input,
      encoding: 'utf8',
    });
  try {
    const byEnv = run(['admin', 'create', '--email', 'One@Example.com'], {
      CATALOGUE_ADMIN_PASSWORD: 'from the environment',
    });
    assert.equal(byEnv.status, 0, byEnv.stderr);
    assert.match(byEnv.stdout, /Created admin one@example.com/);
    const byStdin = run(['admin', 'create', '--email', 'two@example.com'], {}, 'typed on stdin\nrest ignored\n');
    assert.equal(byStdin.status, 0, byStdin.stderr);
    const short = run(['admin', 'create', '--email', 'three@example.com'], {}, 'short\n');
    assert.equal(short.status, 1);
    assert.match(short.stderr, /10 to 200 characters/);
    const taken = run(['admin', 'create', '--email', 'one@example.com'], {
      CATALOGUE_ADMIN_PASSWORD: 'another password',
    });
    assert.equal(taken.status, 1);
    assert.match(taken.stderr, /exists/);
    const accounts = await openAccounts(store, { purpose: 'admin' });
    const one = await accounts.signIn('one@example.com', 'from the environment', 'cli');
    assert.ok(one.ok && one.user.role === 'admin');
    assert.ok((await accounts.signIn('two@example.com', 'typed on stdin', 'cli')).ok);
    const link = run(['admin', 'reset-link', '--email', 'two@example.com', '--url', 'https://api.example.com/']);
    assert.equal(link.status, 0, link.stderr);
    const token = /^https:\/\/api\.example\.com\/dashboard\/reset\/([A-Za-z0-9_-]{43})$/m.exec(link.stdout)![1];
    assert.ok(await accounts.resetPassword(token, 'a brand new password'));
    assert.equal(await accounts.resetPassword(token, 'and once more please'), false, 'one use');
    assert.equal(run(['admin', 'reset-link', '--email', 'nobody@example.com']).status, 1);
    await accounts.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
