// The options every access command shares (where the store is and which plans exist),
// kept in the command-line layer so the access domain does not depend on commander.
import type { Command } from 'commander';
import { option } from './options';
import { openAdmin, type AccessAdmin } from '../access/index';

export interface StoreOptions {
  access?: string;
  plans?: string;
}

export function withStoreOptions(cmd: Command): Command {
  return cmd.addOption(option('access')).addOption(option('plans'));
}

/** Runs `work` with an admin handle on the store, closing it afterwards. */
export async function withAdmin<T>(opts: StoreOptions, work: (admin: AccessAdmin) => Promise<T>): Promise<T> {
  const admin = await openAdmin(opts.access, { plansFile: opts.plans });
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}
