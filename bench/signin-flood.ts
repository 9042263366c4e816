// `npm run bench:signin-flood` (and the last step of `npm run bench`): what a flood of
// unauthenticated sign-ins does to the API. One service (`catalogue serve`, dashboard on, SQLite
// store) answers GET /v1/products/{id} with a pro key at a fixed rate (open loop: each request's
// latency counts from the moment it was due, so a stalled server is not hidden) for a quiet
// phase, then again beside a flood of sign-in attempts with wrong passwords from many loopback
// addresses (127.0.0.2–127.0.0.251, as distinct clients; at nice 19, as an attacker's clients
// are not on the server's cores), each phase in a process of its own.
// Prints p50/p99/max of both phases, their ratio (target: p99 during ≤ 2 × quiet) and what the
// flood got. Guarantees: the server, the probe and the flood are separate processes; every
// process and file it made is removed at the end, also on failure.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAdmin } from '../src/access';
import { BUILT_IN_PLANS } from '../src/access/plans';
import { buildCatalogue } from '../src/builder';
import { summariseProfile } from './profile';
import { startService } from './servers';

const SAMPLE_PRODUCT = '/v1/products/d29ae6f6-792c-5f51-bad5-f1833446d445'; // first product of data/sample

export interface FloodOptions {
  /** Seconds of each phase. */
  seconds: number;
  /** API requests a second during both phases. */
  rate: number;
  /** Sign-in attempts in flight at once during the flood. */
  flooders: number;
  /** A catalogue file and one of its product paths; none: data/sample built here. */
  catalogue?: { file: string; product: string };
  /** Where the server writes its V8 CPU profile (--cpu-prof), if anywhere. */
  cpuProfileDir?: string;
}

export interface PhaseFigures {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  non200: number;
  /** The server's CPU (every thread: the event loop and the hashing) in the phase, ms. */
  serverCpuMs: number;
}

export interface FloodResult {
  options: FloodOptions;
  quiet: PhaseFigures;
  during: PhaseFigures;
  /** Sign-in answers during the flood, by status. */
  flood: Record<string, number>;
  p99Ratio: number;
}

interface ProbeArgs {
  role: 'probe';
  url: string;
  key: string;
  path: string;
  rate: number;
  seconds: number;
}
interface FloodArgs {
  role: 'flood';
  url: string;
  flooders: number;
  seconds: number;
}

/** Runs the whole benchmark: a server of its own, the quiet phase, then the flood phase. */
export async function runSigninFlood(root: string, o: FloodOptions): Promise<FloodResult> {
  const work = mkdtempSync(join(tmpdir(), 'signin-flood-'));
  const dist = join(root, 'dist');
  let stop = async () => {};
  try {
    let target = o.catalogue;
    if (target === undefined) {
      const file = join(work, 'sample.db');
      await buildCatalogue({ sourceDir: join(root, 'data', 'sample'), outFile: file, builtAt: '2026-01-01' });
      target = { file, product: SAMPLE_PRODUCT };
    }
    const plans = join(work, 'plans.json');
    writeFileSync(plans, JSON.stringify(BUILT_IN_PLANS.filter((p) => p.name === 'pro')));
    const access = `sqlite:${join(work, 'access.sqlite')}`;
    const admin = await openAdmin(access, { plansFile: plans });
    const key = (await admin.createKey('pro')).key;
    await admin.close();
    const server = await startService(root, {
      catalogue: target.file,
      access,
      plans,
      logFile: join(work, 'serve.log'),
      cpuProfileDir: o.cpuProfileDir,
    });
    stop = () => server.stop();
    const probe = async (): Promise<PhaseFigures> => {
      const cpu = cpuMs(server.pid);
      const args = { role: 'probe', url: server.url, key, path: target.product, rate: o.rate, seconds: o.seconds };
      const latencies = await child<number[]>(dist, args as ProbeArgs);
      return figures(latencies, cpuMs(server.pid) - cpu);
    };
    await child<number[]>(dist, {
      role: 'probe',
      url: server.url,
      key,
      path: target.product,
      rate: o.rate,
      seconds: 2,
    }); // warm-up
    const quiet = await probe();
    const flooding = child<Record<string, number>>(dist, {
      role: 'flood',
      url: server.url,
      flooders: o.flooders,
      seconds: o.seconds + 2,
    });
    await sleep(1500); // the flood under way
    const during = await probe();
    const flood = await flooding;
    return { options: o, quiet, during, flood, p99Ratio: during.p99 / quiet.p99 };
  } finally {
    await stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export function floodText(r: FloodResult): string {
  const row = (name: string, f: PhaseFigures) =>
    `${name.padEnd(22)} ${String(f.requests).padStart(6)} ${f.p50.toFixed(1).padStart(8)} ${f.p99.toFixed(1).padStart(8)} ${f.max.toFixed(1).padStart(8)} ${String(f.non200).padStart(7)} ${(f.serverCpuMs / 1000).toFixed(1).padStart(10)}`;
  const { seconds, rate, flooders } = r.options;
  return [
    `GET /v1/products/{id} (pro key) at ${rate}/s for ${seconds} s, quiet, then beside ${flooders} sign-ins at once from 250 loopback addresses`,
    `${'phase'.padEnd(22)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'non-200'.padStart(7)} ${'server CPU s'.padStart(10)}`,
    row('quiet', r.quiet),
    row('during sign-in flood', r.during),
    `sign-in answers during the flood: ${Object.entries(r.flood)
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ')}`,
    `p99 during / quiet: ${r.p99Ratio.toFixed(2)} (target ≤ 2): ${r.p99Ratio <= 2 ? 'met' : 'NOT met'}`,
  ].join('\n');
}

/** user + system CPU ms of a process, all its threads (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function figures(latencies: number[], serverCpuMs: number): PhaseFigures {
  const ok = latencies.filter((l) => l >= 0).sort((a, b) => a - b);
  const at = (q: number) => ok[Math.min(ok.length - 1, Math.floor(q * ok.length))] ?? NaN;
  return {
    requests: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    max: ok[ok.length - 1] ?? NaN,
    non200: latencies.length - ok.length,
    serverCpuMs,
  };
}

/**
 * A phase's process. The flood runs at the lowest CPU priority (nice 19): an attacker's
 * clients are other machines, and here they would otherwise take the server's cores.
 */
function child<T>(dist: string, args: ProbeArgs | FloodArgs): Promise<T> {
  const script = [join(dist, 'bench', 'signin-flood.js'), '--child', JSON.stringify(args)];
  return new Promise((res, rej) =>
    execFile(
      args.role === 'flood' ? 'nice' : process.execPath,
      args.role === 'flood' ? ['-n', '19', process.execPath, ...script] : script,
      { maxBuffer: 64 << 20, timeout: (args.seconds + 60) * 1000 },
      (err, stdout, stderr) =>
        err ? rej(new Error(`${args.role} failed: ${stderr || err.message}`)) : res(JSON.parse(stdout) as T),
    ),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The probe: one request every 1/rate s; each latency from when it was due (−1: not a 200). */
async function probe(a: ProbeArgs): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(a.path, a.url);
  const n = Math.round(a.rate * a.seconds);
  const start = performance.now() + 50;
  const out = new Array<number>(n);
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const due = start + (i * 1000) / a.rate;
      await sleep(Math.max(0, due - performance.now()));
      // from when it was due, or from when it was sent if a timer fired early (never a negative latency)
      const from = Math.min(due, performance.now());
      const status = await new Promise<number>((done) => {
        const req = request(target, { agent, headers: { 'x-api-key': a.key } }, (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        });
        req.on('error', () => done(0));
        req.end();
      });
      out[i] = status === 200 ? performance.now() - from : -1;
    }),
  );
  agent.destroy();
  return out;
}

/** The flood: `flooders` loops, each a browser on a loopback address of its own, signing in with wrong passwords. */
async function flood(a: FloodArgs): Promise<Record<string, number>> {
  const end = Date.now() + a.seconds * 1000;
  const tally: Record<string, number> = {};
  const url = new URL('/dashboard/sign-in', a.url);
  let next = 0;
  const send = (agent: Agent, method: string, cookie: string, body?: string) =>
    new Promise<{ status: number; cookie: string; html: string }>((done) => {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const req = request(url, { method, headers, agent }, (res) => {
        let html = '';
        res.setEncoding('utf8').on('data', (d: string) => (html += d));
        res.on('end', () => {
          const set = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
          done({ status: res.statusCode ?? 0, cookie: set || cookie, html });
        });
      });
      req.on('error', () => done({ status: 0, cookie, html: '' }));
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: a.flooders }, async () => {
      while (Date.now() < end) {
        // a browser on an address of its own: its page (a form token), then 5 tries on one connection
        const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.0.${2 + (next++ % 250)}` });
        const page = await send(agent, 'GET', '');
        const csrf = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? '';
        for (let i = 0; i < 5 && Date.now() < end; i++) {
          const body = new URLSearchParams({
            _csrf: csrf,
            email: `stranger${next}-${i}@example.com`,
            password: 'not the password',
          }).toString();
          const r = await send(agent, 'POST', page.cookie, body);
          tally[r.status] = (tally[r.status] ?? 0) + 1;
        }
        agent.destroy();
      }
    }),
  );
  return tally;
}

function option(argv: string[], name: string, dflt: number): number {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(argv[i + 1]);
  if (!(v > 0)) throw new Error(`${name} must be a positive number, not "${argv[i + 1]}"`);
  return v;
}

const HELP = `usage: npm run bench:signin-flood -- [--seconds S] [--rate R] [--flooders N]
  --seconds S    seconds of each phase, quiet and flood (default 15)
  --rate R       API requests a second, both phases (default 100)
  --flooders N   sign-in attempts in flight at once during the flood (default 20)
  --cpu-prof DIR the server writes its CPU profile into DIR; its summary is printed`;

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child') {
    const a = JSON.parse(argv[1]) as ProbeArgs | FloodArgs;
    process.stdout.write(JSON.stringify(a.role === 'probe' ? await probe(a) : await flood(a)));
    return;
  }
  if (argv.includes('--help')) return void process.stdout.write(HELP + '\n');
  const o: FloodOptions = {
    seconds: option(argv, '--seconds', 15),
    rate: option(argv, '--rate', 100),
    flooders: option(argv, '--flooders', 20),
  };
  const dir = argv.indexOf('--cpu-prof');
  if (dir >= 0) o.cpuProfileDir = resolve(argv[dir + 1]);
  const r = await runSigninFlood(resolve(__dirname, '..', '..'), o);
  process.stdout.write(floodText(r) + '\n');
  if (o.cpuProfileDir !== undefined) process.stdout.write(summariseProfile(o.cpuProfileDir, 30, 0));
}

if (require.main === module)
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`bench:signin-flood: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
