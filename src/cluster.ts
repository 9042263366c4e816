// Serving on every core: `serve --workers N` runs N server processes sharing one port
// (node:cluster). Guarantees: exactly one ready line is printed, by the primary, once
// every worker accepts connections; SIGTERM/SIGINT stop every worker cleanly (in-flight
// requests finish) before the primary exits; SIGHUP is passed on to every worker; a
// worker that dies while serving is replaced.
import cluster, { type Worker } from 'node:cluster';

interface Ready {
  ready: string;
}
interface Stop {
  stop: string;
}

/**
 * Calls `stop(signal)` on every SIGTERM/SIGINT. In a worker the primary relays them (so a
 * terminal's Ctrl-C, which reaches every process of the group, counts once).
 */
export function onStopSignal(stop: (signal: string) => void): void {
  if (!cluster.isWorker) {
    for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => stop(s));
    return;
  }
  for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => {});
  process.on('message', (m: Partial<Stop>) => {
    if (typeof m?.stop === 'string') stop(m.stop);
  });
}

/** True in a process that should run the server itself (not a primary of several workers). */
export function servesItself(workers: number): boolean {
  return workers <= 1 || cluster.isWorker;
}

/** Prints the ready line: in a worker it goes to the primary, which prints it once. */
export function announce(line: string): void {
  if (cluster.isWorker) process.send!({ ready: line } satisfies Ready);
  else process.stdout.write(line);
}

/** The primary: forks the workers (each re-runs this command line) and supervises them. */
export function runPrimary(workers: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = 0;
    let announced = false;
    let stopping = false;
    const fork = (): Worker => {
      const w = cluster.fork();
      let up = false;
      w.on('message', (m: Partial<Ready>) => {
        if (typeof m?.ready !== 'string' || up) return;
        up = true;
        if (++ready === workers && !announced) {
          announced = true;
          process.stdout.write(m.ready.replace(/^catalogue: serving/, `catalogue: serving (${workers} workers)`));
        }
      });
      w.on('exit', (code, signal) => {
        if (stopping) return;
        if (!up) {
          stop();
          reject(new Error(`a server worker exited (${signal ?? code}) before it accepted connections`));
        } else {
          process.stderr.write(`catalogue: a server worker exited (${signal ?? code}); starting a new one\n`);
          ready--;
          fork();
        }
      });
      return w;
    };
    const stop = (signal = 'SIGTERM') => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {}))
        if (w?.isConnected()) w.send({ stop: signal } satisfies Stop);
    };
    for (const s of ['SIGTERM', 'SIGINT'] as const) process.on(s, () => stop(s));
    process.on('SIGHUP', () => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGHUP');
    });
    for (let i = 0; i < workers; i++) fork();
    cluster.on('exit', () => {
      if (stopping && Object.keys(cluster.workers ?? {}).length === 0) resolve();
    });
  });
}
