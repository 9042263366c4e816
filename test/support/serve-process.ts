// Runs `catalogue serve` as a real child process (bin/catalogue.js) for the ops tests:
// a temp dir with the fixture catalogue, a variant of it (renamed products, fewer rows,
// another build date), a SQLite access store and a key on an unmetered plan.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCatalogue } from '../../src/builder';
import { openAdmin } from '../../src/access';
import { ingredients, products } from './fixture';
import { writeSource } from './source';
import { PLANS } from './plans';

const BIN = path.join(__dirname, '..', '..', '..', 'bin', 'catalogue.js');

export interface OpsDir {
  dir: string;
  store: string;
  plans: string;
  key: string;
  cleanup(): void;
}

/** A temp dir with an access store, a plans file with PLANS.load and a key on it. */
export async function opsDir(): Promise<OpsDir> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-ops-'));
  const store = `sqlite:${path.join(dir, 'access.sqlite')}`;
  const plans = path.join(dir, 'plans.json');
  fs.writeFileSync(plans, JSON.stringify([PLANS.load]));
  const admin = await openAdmin(store, { plansFile: plans });
  const { key } = await admin.createKey('load');
  await admin.close();
  return { dir, store, plans, key, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Builds the fixture catalogue, or a variant: names suffixed, the last `drop` products left out. */
export async function buildVariant(
  file: string,
  v: { builtAt: string; suffix?: string; drop?: number },
): Promise<{ products: number }> {
  const src = file + '.source';
  const kept = products
    .slice(0, products.length - (v.drop ?? 0))
    .map((p) => (v.suffix && p.name ? { ...p, name: p.name + v.suffix } : p));
  writeSource(src, { ingredients, products: kept });
  await buildCatalogue({ sourceDir: src, outFile: file, builtAt: v.builtAt });
  fs.rmSync(src, { recursive: true, force: true });
  return { products: kept.length };
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  metricsUrl?: string;
  /** Every stderr (pino JSON) line so far. */
  logs: string[];
  /** Resolves with the first log line for which `test` holds. */
  waitForLog(test: (line: string) => boolean): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process outright (SIGKILL). */
  stop(): Promise<void>;
  /** Stops the process as an operator would (SIGTERM), so it writes every log line it holds. */
  terminate(): Promise<void>;
}

/** Starts `catalogue serve ARGS --port 0`; resolves once it prints its "serving" line. */
export function serveProcess(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const logs: string[] = [];
  const waiters: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let buf = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      logs.push(line);
      for (const w of waiters.slice())
        if (w.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /at (http:\/\/\S+?)(?:, metrics at (http:\/\/\S+))?\n/.exec(out);
      if (m) {
        resolve({
          child,
          url: m[1],
          metricsUrl: m[2],
          logs,
          exited,
          waitForLog: (test) =>
            new Promise((res) => {
              const hit = logs.find(test);
              if (hit !== undefined) res(hit);
              else waiters.push({ test, resolve: res });
            }),
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
          terminate: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code} before serving:\n${logs.join('\n')}`)));
  });
}
