// The servers under test, each in its own process: the baseline, the real service
// (`catalogue serve`, optionally on several workers), and the service with metering
// off. Guarantees: each resolves once it accepts connections, on a port chosen here.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startUntil, type Started } from './proc';

export interface Server extends Started { url: string; pid: number }

export interface ServeArgs { catalogue: string; access: string; plans: string; workers?: number; cpuProfileDir?: string }

const env = { ...process.env, LOG_LEVEL: 'warn' };

/** `bodyBytes`: answer a body of that size instead of the small fixed one. */
export async function startBaseline(dist: string, bodyBytes?: number): Promise<Server> {
  const port = await freePort();
  const args = [join(dist, 'bench', 'baseline-server.js'), String(port), ...(bodyBytes ? [String(bodyBytes)] : [])];
  return ready(await startUntil(args, /^listening /, env), port);
}

export async function startOpen(dist: string, catalogue: string): Promise<Server> {
  const port = await freePort();
  return ready(await startUntil([join(dist, 'bench', 'open-server.js'), catalogue, String(port)], /^listening /, env), port);
}

/** `catalogue serve`; with workers > 1, through `serve --workers` when the command has it. */
export async function startService(root: string, dist: string, a: ServeArgs): Promise<Server> {
  const port = await freePort();
  const prof = a.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', a.cpuProfileDir];
  const cli = join(root, 'bin', 'catalogue.js');
  const serve = ['serve', '--catalogue', a.catalogue, '--port', String(port), '--access', a.access, '--plans', a.plans];
  const workers = a.workers ?? 1;
  let args = [...prof, cli, ...serve];
  if (workers > 1) {
    args = serveHasWorkers(cli)
      ? [...args, '--workers', String(workers)]
      : [...prof, join(dist, 'bench', 'cluster-serve.js'), String(workers), a.catalogue, String(port), a.access, a.plans];
  }
  return ready(await startUntil(args, /^catalogue: serving/, env), port);
}

function serveHasWorkers(cli: string): boolean {
  return execFileSync(process.execPath, [cli, 'serve', '--help'], { encoding: 'utf8' }).includes('--workers');
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
