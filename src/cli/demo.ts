// `catalogue demo`: the one command a newcomer runs. Builds the bundled sample
// catalogue when it is missing, older than its source or of an older schema version, creates a
// demo key and (with the dashboard) a demo dashboard admin on first start (kept in
// var/demo-key.json and var/demo-admin.json so later starts print them again), prints requests
// to try on the sample (demo-tries.ts), and serves. It takes every option of `serve` (flag or
// environment variable: ACCESS_STORE, PLANS_FILE, METRICS_PORT, SIGNUP, …) but --catalogue
// (it serves the sample) and --workers (one process); sign-up is open unless told otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { buildCatalogue } from '../builder';
import { SCHEMA_VERSION } from '../catalogue/format';
import { Catalogue } from '../catalogue/read-model';
import { defaultStoreSpec, openAccounts, openAdmin } from '../access';
import { packageRoot } from '../shared/package-root';
import { addDashboardOptions, addServingOptions, serve, type ServeCliOptions } from './serve';
import { demoTries, triesText } from './demo-tries';

const DEMO_ADMIN = 'admin@demo.local';

type DemoOptions = Omit<ServeCliOptions, 'catalogue' | 'workers'>;

export function register(program: Command): void {
  const cmd = program
    .command('demo')
    .description(
      'build the bundled sample catalogue if needed, create a demo key and a demo dashboard admin, print requests to try, and serve it; takes the options of `serve` but --catalogue and --workers (sign-up open by default)',
    );
  addServingOptions(cmd);
  addDashboardOptions(cmd, 'open').action(async (opts: DemoOptions) => {
    const root = packageRoot();
    const source = path.join(root, 'data', 'sample');
    const file = path.join(root, 'var', 'sample.db');
    if (isStale(file, source)) {
      process.stderr.write(
        `building the sample catalogue from ${path.relative(process.cwd(), source) || source} ...\n`,
      );
      await buildCatalogue({ sourceDir: source, outFile: file });
    }
    const access = opts.access ?? defaultStoreSpec();
    const key = await demoKey(path.join(root, 'var', 'demo-key.json'), access, opts.plans);
    const adminPassword =
      opts.dashboard === 'off'
        ? undefined
        : await demoAdmin(path.join(root, 'var', 'demo-admin.json'), access, opts.plans);
    const base = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}`;
    process.stdout.write(`demo API key (plan pro): ${key}\n`);
    process.stdout.write(triesText(await demoTries(source), base, key));
    await serve({ ...opts, catalogue: file, access }, (url) => {
      if (url === undefined) return;
      const who = opts.signup === 'open' ? 'anyone can sign up here' : 'sign-up by invitation';
      process.stdout.write(`dashboard: ${url} (${who}; demo admin ${DEMO_ADMIN}, password ${adminPassword})\n`);
      if (opts.smtpUrl === undefined)
        process.stdout.write(`  a sign-up's confirmation mail waits in the outbox: ${url}/admin/mail\n`);
    });
  });
}

function isStale(file: string, sourceDir: string): boolean {
  if (Catalogue.versionOf(file) !== SCHEMA_VERSION) return true;
  const built = fs.statSync(file).mtimeMs;
  return fs.readdirSync(sourceDir).some((f) => fs.statSync(path.join(sourceDir, f)).mtimeMs > built);
}

async function demoKey(file: string, access: string, plansFile: string | undefined): Promise<string> {
  const admin = await openAdmin(access, { plansFile });
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
async function demoAdmin(file: string, access: string, plansFile: string | undefined): Promise<string> {
  const accounts = await openAccounts(access, { purpose: 'admin', plansFile });
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
