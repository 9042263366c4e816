// The README's configuration table comes from the one options table (src/cli/options.ts):
// this test fails as soon as the two disagree, and every command declares its
// environment-backed options from that table; `demo` takes serve's (but --catalogue and
// --workers) from the environment too; --help and the README state the --metrics-port rule
// and TEST_REDIS_PORTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { OPTIONS, readmeTable } from '../src/cli/options';
import { packageRoot } from '../src/shared/package-root';
import { register as registerServe } from '../src/cli/serve';
import { register as registerBuild } from '../src/cli/build';
import { register as registerDemo } from '../src/cli/demo';
import { program as catalogueProgram } from '../src/cli/main';

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

test('demo takes every option of serve but --catalogue and --workers, from the same environment variables', () => {
  const program = new Command();
  registerServe(program);
  registerDemo(program);
  const [serve, demo] = program.commands;
  const shape = (o: { long?: string; envVar?: string; defaultValue?: unknown }) => [o.long, o.envVar, o.defaultValue];
  const expected = serve.options
    .filter((o) => o.long !== '--catalogue' && o.long !== '--workers')
    .map((o) => (o.long === '--signup' ? ['--signup', 'SIGNUP', 'open'] : shape(o)));
  assert.deepEqual(demo.options.map(shape), expected);
});

test('demo reads ACCESS_STORE, PLANS_FILE, METRICS_PORT, SIGNUP and the rest from the environment', async () => {
  const env = {
    ACCESS_STORE: 'redis://127.0.0.1:6379/9',
    PLANS_FILE: '/etc/catalogue/plans.json',
    METRICS_PORT: '9464',
    SIGNUP: 'invite',
    PORT: '9090',
    DASHBOARD: 'off',
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let seen: Record<string, unknown> = {};
  try {
    const program = new Command().exitOverride();
    registerDemo(program);
    const demo = program.commands[0];
    demo.hook('preAction', (_cmd, action) => {
      seen = action.opts();
      throw new Error('stop before serving');
    });
    await assert.rejects(program.parseAsync(['node', 'catalogue', 'demo']), /stop before serving/);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  assert.equal(seen.access, env.ACCESS_STORE);
  assert.equal(seen.plans, env.PLANS_FILE);
  assert.equal(seen.metricsPort, 9464);
  assert.equal(seen.signup, 'invite');
  assert.equal(seen.port, 9090);
  assert.equal(seen.dashboard, 'off');
});

test('--help says that --metrics-port serves one process and is refused with --workers, and names TEST_REDIS_PORTS', async () => {
  const root = await catalogueProgram();
  let help = '';
  root.configureOutput({ writeOut: (s) => (help += s) });
  root.outputHelp();
  assert.match(help, /--metrics-port serves one process's metrics: serve refuses it with --workers above 1/);
  assert.match(help, /TEST_REDIS_PORTS=BASE/);
  const serveHelp = root.commands.find((c) => c.name() === 'serve')!.helpInformation();
  assert.match(serveHelp.replace(/\s+/g, ' '), /refused with --workers above 1/);
  const readme = fs.readFileSync(path.join(packageRoot(), 'README.md'), 'utf8');
  assert.match(readme, /TEST_REDIS_PORTS=BASE/);
  assert.match(readme, /`--metrics-port` serves the metrics of one process: with\s+`--workers` above 1 it is refused/);
});
