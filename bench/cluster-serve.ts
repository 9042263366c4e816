// Stand-in for `catalogue serve --workers N` until the serve command has that option:
// the same server (startServer) run by src/cluster.ts, for the cluster scenarios.
// `node dist/bench/cluster-serve.js WORKERS CATALOGUE PORT ACCESS PLANS`.
import { announce, onStopSignal, runPrimary, servesItself } from '../src/cluster';
import { startServer } from '../src/server';

async function main(): Promise<void> {
  const [workers, catalogue, port, access, plans] = process.argv.slice(2);
  if (!servesItself(Number(workers))) return runPrimary(Number(workers));
  const s = await startServer({ catalogue, host: '127.0.0.1', port: Number(port), access, plans });
  announce(`catalogue: serving ${s.catalogue.current.products} products at ${s.url}\n`);
  onStopSignal(() => void s.close().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`catalogue: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
