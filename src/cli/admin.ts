// `catalogue admin create | reset-link`: dashboard admins from the command line
// (docs/dashboard.md). Guarantees: a password is never a command-line argument (it would show
// in `ps`): it comes from the environment variable CATALOGUE_ADMIN_PASSWORD or the first line
// of standard input; a reset link is printed once and works once.
import type { Command } from 'commander';
import { PASSWORD_MAX, PASSWORD_MIN, normalEmail, openAccounts } from '../access';
import { type StoreOptions, withStoreOptions } from './store-options';

const PASSWORD_ENV = 'CATALOGUE_ADMIN_PASSWORD';

async function readPassword(): Promise<string> {
  const fromEnv = process.env[PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (process.stdin.isTTY) process.stderr.write('password (then Enter): ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}

async function withAccounts<T>(o: StoreOptions, work: (a: Awaited<ReturnType<typeof openAccounts>>) => Promise<T>) {
  const accounts = await openAccounts(o.access, { plansFile: o.plans, purpose: 'admin' });
  try {
    return await work(accounts);
  } finally {
    await accounts.close();
  }
}

export function register(program: Command): void {
  const admin = program.command('admin').description('dashboard admin accounts and password-reset links');

  withStoreOptions(
    admin
      .command('create')
      .description(`create a dashboard admin; the password comes from ${PASSWORD_ENV} or the first line of stdin`),
  )
    .requiredOption('--email <email>', 'sign-in email of the admin')
    .option('--plan <plan>', 'plan of keys the admin makes for themselves', 'pro')
    .action(async (o: StoreOptions & { email: string; plan: string }) => {
      const email = normalEmail(o.email);
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new Error(`not an email address: "${o.email}"`);
      const password = await readPassword();
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
        throw new Error(`the password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
      const made = await withAccounts(o, (a) => a.signUp(email, password, o.plan, 'admin'));
      if (made === null)
        throw new Error(`an account with email ${email} exists (use admin reset-link for its password)`);
      process.stdout.write(`Created admin ${email} (account ${made.name}). Sign in at /dashboard.\n`);
    });

  withStoreOptions(admin.command('reset-link').description("print a one-time link to set an account's password"))
    .requiredOption('--email <email>', 'email of the account')
    .option('--url <base>', 'where the dashboard is served', 'http://127.0.0.1:8080')
    .action(async (o: StoreOptions & { email: string; url: string }) => {
      const link = await withAccounts(o, (a) => a.resetLink(o.email));
      if (link === null) throw new Error(`no dashboard account has email ${normalEmail(o.email)}`);
      const until = new Date(link.expiresAt).toISOString().slice(0, 16).replace('T', ' ');
      process.stdout.write(
        `${o.url.replace(/\/+$/, '')}/dashboard/reset/${link.token}\n(one use, until ${until} UTC)\n`,
      );
    });
}
