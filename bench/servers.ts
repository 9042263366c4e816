// The servers under test, each in its own process: the baseline, the real service
// (`catalogue serve`, optionally on several workers), and the service with metering
// off. Guarantees: each resolves once it accepts connections, on a port chosen here, and
// (the service, with or without metering) once its start-up work is done: it is idle.
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAdmin } from '../src/access';
import { nodeFlags, settled, startUntil, type Started } from './proc';

export interface Server extends Started {
  url: string;
  pid: number;
}

export interface ServeArgs {
  catalogue: string;
  access: string;
  plans: string;
  workers?: number;
  cpuProfileDir?: string;
  /** Where the service's log (stderr) is written. */
  logFile: string;
  /** More `serve` options (the dashboard-cost rounds: `--dashboard off`). */
  extra?: string[];
}

/** The default log level (info: one line per request), as an operator runs the service; read when a server starts. */
const env = () => ({ ...process.env, LOG_LEVEL: undefined });

/** `bodyBytes`: answer a body of that size instead of the small fixed one; `fastify`: answer through a bare fastify app. */
export async function startBaseline(dist: string, bodyBytes = 0, fastify = false): Promise<Server> {
  const port = await freePort();
  const args = [
    join(dist, 'bench', 'baseline-server.js'),
    String(port),
    String(bodyBytes),
    ...(fastify ? ['--fastify'] : []),
  ];
  return ready(await startUntil(args, /^listening /, env()), port);
}

export async function startOpen(dist: string, catalogue: string, logFile: string): Promise<Server> {
  const port = await freePort();
  const flags = nodeFlags(join(dist, '..', 'bin', 'catalogue.js')); // the same V8 settings as the service
  const server = ready(
    await startUntil(
      [...flags, join(dist, 'bench', 'open-server.js'), catalogue, String(port)],
      /^listening /,
      env(),
      logFile,
    ),
    port,
  );
  await settled(server.pid);
  return server;
}

/** `catalogue serve` (with `--workers` when more than one). */
export async function startService(root: string, a: ServeArgs): Promise<Server> {
  const port = await freePort();
  const prof = a.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', a.cpuProfileDir];
  const cli = join(root, 'bin', 'catalogue.js');
  const serve = ['serve', '--catalogue', a.catalogue, '--port', String(port), '--access', a.access, '--plans', a.plans];
  const args = [
    ...nodeFlags(cli),
    ...prof,
    cli,
    ...serve,
    ...(a.workers && a.workers > 1 ? ['--workers', String(a.workers)] : []),
    ...(a.extra ?? []),
  ];
  const server = ready(await startUntil(args, /^catalogue: serving/, env(), a.logFile), port);
  await settled(server.pid); // its start-up work done (proc.ts), so that no scenario's figures carry it
  return server;
}

function ready(s: Started, port: number): Server {
  return { ...s, url: `http://127.0.0.1:${port}`, pid: s.child.pid! };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The benches' plan: no limit of any kind, barcode lookup on. */
export const BENCH_PLAN = {
  name: 'bench',
  trial: null,
  monthlyIncluded: null,
  monthlyCeiling: null,
  ratePerSecond: null,
  barcode: true,
};

/** An access store in `work` with BENCH_PLAN and one key of it. */
export async function benchAccess(work: string): Promise<{ access: string; plans: string; key: string }> {
  const plans = join(work, 'plans.json');
  writeFileSync(plans, JSON.stringify([BENCH_PLAN]));
  const access = `sqlite:${join(work, 'access.sqlite')}`;
  const admin = await openAdmin(access, { plansFile: plans });
  const key = (await admin.createKey(BENCH_PLAN.name)).key;
  await admin.close();
  return { access, plans, key };
}
