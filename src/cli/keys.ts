// `catalogue keys create | disable | payment-required | list` (operator-cli.md).
// Guarantees: `create --json` prints exactly {"id","key","plan","account"}; the secret
// is printed only by create and never stored.
import type { Command } from 'commander';
import { table } from './table';
import { withAdmin, withStoreOptions, type StoreOptions } from './store-options';

export function register(program: Command): void {
  const keys = program.command('keys').description('create, disable and list API keys');

  withStoreOptions(keys.command('create').description('create an API key and print its secret (shown only here)'))
    .requiredOption('--plan <plan>', 'plan of the key (trial, sandbox, starter, pro, or one from --plans)')
    .option('--account <name>', 'account the key belongs to (default: a new account of its own)')
    .option('--json', 'print {"id","key","plan","account"} as JSON')
    .action(async (o: StoreOptions & { plan: string; account?: string; json?: boolean }) => {
      const k = await withAdmin(o, (a) => a.createKey(o.plan, o.account));
      process.stdout.write(
        o.json
          ? `${JSON.stringify({ id: k.id, key: k.key, plan: k.plan, account: k.account })}\n`
          : `Created key ${k.id} on plan ${k.plan} for account ${k.account}.\nSecret (shown only now): ${k.key}\n`,
      );
    });

  withStoreOptions(keys.command('disable').description('make a key answer 403 from now on'))
    .argument('<key-id>')
    .action(async (id: string, o: StoreOptions) => {
      await withAdmin(o, (a) => a.disableKey(id));
      process.stdout.write(`Disabled key ${id}.\n`);
    });

  withStoreOptions(keys.command('payment-required').description("make the key's account answer 402 (--off lifts it)"))
    .argument('<key-id>')
    .option('--off', 'lift payment-required')
    .action(async (id: string, o: StoreOptions & { off?: boolean }) => {
      await withAdmin(o, (a) => a.setPaymentRequired(id, !o.off));
      process.stdout.write(`Payment required ${o.off ? 'lifted for' : 'set on'} the account of key ${id}.\n`);
    });

  withStoreOptions(keys.command('list').description('list keys (never their secrets)'))
    .option('--json', 'print a JSON array')
    .action(async (o: StoreOptions & { json?: boolean }) => {
      const list = await withAdmin(o, (a) => a.listKeys());
      if (o.json) return void process.stdout.write(`${JSON.stringify(list)}\n`);
      const rows = list.map((k) => [
        k.id,
        k.plan,
        k.account,
        k.disabled ? 'disabled' : k.paymentRequired ? 'payment-required' : 'active',
        k.createdAt,
      ]);
      process.stdout.write(table(['id', 'plan', 'account', 'state', 'created'], rows));
    });
}
