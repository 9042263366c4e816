// `catalogue demo`: the one command a newcomer runs. Builds the bundled sample
// catalogue when it is missing, older than its source or of an older schema version, creates a demo key on first
// start (kept in var/demo-key.json so later starts print it again), and serves.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { option } from './options';
import { buildCatalogue } from '../builder';
import { SCHEMA_VERSION } from '../catalogue/format';
import { Catalogue } from '../catalogue/read-model';
import { defaultStoreSpec, openAdmin } from '../access';
import { packageRoot } from '../shared/package-root';
import { parsePort, serve } from './serve';

export function register(program: Command): void {
  program
    .command('demo')
    .description('build the bundled sample catalogue if needed, create a demo key, and serve it')
    .addOption(option('host'))
    .addOption(option('port').argParser(parsePort))
    .action(async (opts: { host: string; port: number }) => {
      const root = packageRoot();
      const source = path.join(root, 'data', 'sample');
      const file = path.join(root, 'var', 'sample.db');
      if (isStale(file, source)) {
        process.stderr.write(
          `building the sample catalogue from ${path.relative(process.cwd(), source) || source} ...\n`,
        );
        await buildCatalogue({ sourceDir: source, outFile: file });
      }
      const access = defaultStoreSpec();
      const key = await demoKey(path.join(root, 'var', 'demo-key.json'), access);
      process.stdout.write(`demo API key (plan pro): ${key}\n`);
      process.stdout.write(
        `try: curl -H 'x-api-key: ${key}' 'http://${opts.host}:${opts.port}/v1/products/search?q=serum'\n`,
      );
      await serve({
        catalogue: file,
        host: opts.host,
        port: opts.port,
        access,
        metricsHost: '127.0.0.1',
        stopTimeout: 10,
      });
    });
}

function isStale(file: string, sourceDir: string): boolean {
  if (Catalogue.versionOf(file) !== SCHEMA_VERSION) return true;
  const built = fs.statSync(file).mtimeMs;
  return fs.readdirSync(sourceDir).some((f) => fs.statSync(path.join(sourceDir, f)).mtimeMs > built);
}

async function demoKey(file: string, access: string): Promise<string> {
  const admin = await openAdmin(access);
  try {
    if (fs.existsSync(file)) {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { id: string; key: string };
      if ((await admin.listKeys()).some((k) => k.id === saved.id && !k.disabled)) return saved.key;
    }
    const created = await admin.createKey('pro', 'demo');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ id: created.id, key: created.key }) + '\n', { mode: 0o600 });
    return created.key;
  } finally {
    await admin.close();
  }
}
