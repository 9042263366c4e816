// `catalogue demo`: the one command a newcomer runs. Builds the bundled sample
// catalogue when it is missing, older than its source or of an older schema version, creates a
// demo key and a demo dashboard admin on first start (kept in var/demo-key.json and
// var/demo-admin.json so later starts print them again), and serves with open sign-up.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { option } from './options';
import { buildCatalogue } from '../builder';
import { SCHEMA_VERSION } from '../catalogue/format';
import { Catalogue } from '../catalogue/read-model';
import { defaultStoreSpec, openAccounts, openAdmin } from '../access';
import { packageRoot } from '../shared/package-root';
import { DASHBOARD_DEFAULTS, parsePort, serve } from './serve';

const DEMO_ADMIN = 'admin@demo.local';

export function register(program: Command): void {
  program
    .command('demo')
    .description(
      'build the bundled sample catalogue if needed, create a demo key and a demo dashboard admin, and serve it',
    )
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
      const adminPassword = await demoAdmin(path.join(root, 'var', 'demo-admin.json'), access);
      process.stdout.write(`demo API key (plan pro): ${key}\n`);
      process.stdout.write(
        `try: curl -H 'x-api-key: ${key}' 'http://${opts.host}:${opts.port}/v1/products/search?q=serum'\n`,
      );
      await serve(
        {
          catalogue: file,
          host: opts.host,
          port: opts.port,
          access,
          metricsHost: '127.0.0.1',
          stopTimeout: 10,
          ...DASHBOARD_DEFAULTS,
          signup: 'open',
        },
        (url) => {
          if (url === undefined) return;
          process.stdout.write(
            `dashboard: ${url} (anyone can sign up here; demo admin ${DEMO_ADMIN}, password ${adminPassword};\n` +
              `  a sign-up's confirmation mail waits in the outbox: ${url}/admin/mail)\n`,
          );
        },
      );
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

/** The demo admin's password: the saved one while it still signs in, else a new admin (or a new password). */
async function demoAdmin(file: string, access: string): Promise<string> {
  const accounts = await openAccounts(access, { purpose: 'admin' });
  try {
    if (fs.existsSync(file)) {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { email: string; password: string };
      if ((await accounts.signIn(saved.email, saved.password, 'demo')).ok) return saved.password;
    }
    const password = randomBytes(12).toString('base64url');
    const made = await accounts.signUp(DEMO_ADMIN, password, 'pro', 'admin');
    if (made === null) {
      const link = (await accounts.resetLink(DEMO_ADMIN))!;
      await accounts.resetPassword(link.token, password);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ email: DEMO_ADMIN, password }) + '\n', { mode: 0o600 });
    return password;
  } finally {
    await accounts.close();
  }
}
