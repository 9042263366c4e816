// `catalogue usage [--month YYYY-MM] [--json|--csv]`: what a bill is made from — per key and per
// account for one UTC month: calls served, included, overage, and requests refused (429). The
// CSV is the one the dashboard's admin usage page downloads.
import type { Command } from 'commander';
import { withAdmin, withStoreOptions, type StoreOptions } from './store-options';
import { monthOf, parseMonth } from '../access/time';
import { usageCsv } from '../access/admin';
import { table } from './table';

export function register(program: Command): void {
  withStoreOptions(program.command('usage').description('monthly usage per key and account, for billing'))
    .option('--month <YYYY-MM>', 'UTC month (default: the current one)', parseMonth)
    .option('--json', 'print the report as JSON')
    .option('--csv', 'print one CSV row per key (as the dashboard downloads it)')
    .action(async (o: StoreOptions & { month?: string; json?: boolean; csv?: boolean }) => {
      const month = o.month ?? monthOf(Date.now());
      const r = await withAdmin(o, (a) => a.usage(month));
      if (o.json) return void process.stdout.write(`${JSON.stringify(r)}\n`);
      if (o.csv) return void process.stdout.write(usageCsv(r));
      const head = ['calls', 'included', 'overage', 'refused'];
      process.stdout.write(`Usage for ${r.month} (UTC)\n\nKeys\n`);
      process.stdout.write(
        table(
          ['id', 'account', 'plan', ...head],
          r.keys.map((k) => [k.id, k.account, k.plan, k.calls, k.included, k.overage, k.refused]),
        ),
      );
      process.stdout.write(`\nAccounts\n`);
      process.stdout.write(
        table(
          ['account', ...head],
          r.accounts.map((a) => [a.account, a.calls, a.included, a.overage, a.refused]),
        ),
      );
    });
}
