// The service with metering off, for the metering-cost comparison only: the real app
// (buildApp) over the real read model, with an access control that admits every
// request and charges nothing. `node dist/bench/open-server.js CATALOGUE PORT`.
import { Catalogue } from '../src/catalogue/read-model';
import { buildApp } from '../src/http/app';
import type { AccessControl, Grant } from '../src/access/types';
import { defaultLogger } from '../src/server';

const GRANT: Grant = {
  keyId: 'open',
  account: 'open',
  plan: { name: 'open', trial: null, monthlyIncluded: null, monthlyCeiling: null, ratePerSecond: null, barcode: true },
  pool: null,
};
const admitAll: AccessControl = {
  admit: async () => GRANT,
  charge: async () => ({ trialRemaining: null }),
  close: async () => {},
};

async function main(): Promise<void> {
  const [file, port] = process.argv.slice(2);
  const logger = defaultLogger();
  const app = await buildApp({ catalogue: { current: Catalogue.open(file) }, access: admitAll, logger });
  await app.listen({ host: '127.0.0.1', port: Number(port) });
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`open-server: ${String(err)}\n`);
  process.exit(1);
});
