// The README's configuration table comes from the one options table (src/cli/options.ts):
// this test fails as soon as the two disagree, and every command declares its
// environment-backed options from that table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { OPTIONS, readmeTable } from '../src/cli/options';
import { packageRoot } from '../src/shared/package-root';
import { register as registerServe } from '../src/cli/serve';
import { register as registerBuild } from '../src/cli/build';

function readmeConfiguration(): string {
  const readme = fs.readFileSync(path.join(packageRoot(), 'README.md'), 'utf8');
  const section = readme.split('\n## Configuration\n')[1].split('\n## ')[0];
  return section
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) => l + '\n')
    .join('');
}

test("README's configuration table is exactly the options table", () => {
  assert.equal(readmeConfiguration(), readmeTable());
});

test('serve and build take their environment variables and defaults from the options table', () => {
  const program = new Command();
  registerServe(program);
  registerBuild(program);
  const declared = program.commands.flatMap((c) => c.options.map((o) => [o.long, o.envVar, o.defaultValue]));
  for (const spec of Object.values(OPTIONS)) {
    if (spec.flags === '') continue;
    const long = spec.flags.split(' ')[0];
    const found = declared.filter(([l]) => l === long);
    assert.ok(found.length > 0, `${long} is declared by no command`);
    for (const [, env, value] of found) {
      assert.equal(env, spec.env, long);
      assert.equal(value, 'value' in spec ? spec.value : undefined, long);
    }
  }
});
