// Processes for the benchmark: run a child to completion measuring wall time and peak
// RSS, start a long-running one and wait for its ready line, read a live process's memory
// and CPU, the CPU of this process's threads, the node flags of the command's `#!` line.
// Guarantees: a failed child fails the benchmark with its stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Measured {
  seconds: number;
  peakRssBytes: number;
}

const TIME = '/usr/bin/time';

/** The node flags of the command's `#!/usr/bin/env -S node FLAGS` line, so the bench runs it as `npx catalogue` does. */
export function nodeFlags(cli: string): string[] {
  const m = /^#!\S*env -S node(.*)$/m.exec(readFileSync(cli, 'utf8').split('\n')[0]);
  return m ? m[1].trim().split(/\s+/).filter(Boolean) : [];
}

/** Runs `node args…` to completion; peak RSS from /usr/bin/time when present, else by polling VmHWM. */
export async function runMeasured(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  const started = process.hrtime.bigint();
  const timeFile = join(tmpdir(), `bench-time-${process.pid}-${Date.now()}`);
  const viaTime = existsSync(TIME);
  const child = viaTime
    ? spawn(TIME, ['-f', '%M', '-o', timeFile, process.execPath, ...args], {
        env,
        stdio: ['ignore', 'inherit', 'pipe'],
      })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
  let polled = 0;
  const poll = viaTime ? undefined : setInterval(() => (polled = Math.max(polled, memory(child.pid!)?.hwm ?? 0)), 20);
  const stderr = collect(child);
  const code = await new Promise<number | null>((res) => child.on('close', res));
  if (poll) clearInterval(poll);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${code}):\n${stderr()}`);
  let peak = polled;
  if (viaTime) {
    peak = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) * 1024;
    rmSync(timeFile, { force: true });
  }
  return { seconds, peakRssBytes: peak };
}

export interface Started {
  child: ChildProcess;
  line: string;
  spawnedAt: number;
  stop(): Promise<void>;
}

/**
 * Starts `node args…` and resolves once it prints a line on stdout matching `ready`. With
 * `logFile`, its stderr (the service's log) goes to that file, as an operator's log would,
 * rather than through a pipe this process must read.
 */
export function startUntil(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = process.env,
  logFile?: string,
): Promise<Started> {
  const spawnedAt = Date.now();
  const fd = logFile === undefined ? undefined : openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', fd ?? 'pipe'] });
  if (fd !== undefined) closeSync(fd);
  const stderr = logFile === undefined ? collect(child) : () => readFileSync(logFile, 'utf8').slice(-20_000);
  const stop = () =>
    new Promise<void>((res) => {
      if (child.exitCode !== null || child.signalCode !== null) return res();
      child.once('exit', () => res());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n').find((l) => ready.test(l));
      if (line !== undefined) resolve({ child, line, spawnedAt, stop });
    });
    child.on('exit', (code) =>
      reject(new Error(`node ${args.join(' ')} exited (${code}) before it was ready:\n${stderr()}`)),
    );
  });
}

/**
 * VmRSS, VmHWM and RssAnon (the process's own memory: heap and buffers, no file pages) of a
 * live process, in bytes (undefined when it is gone).
 */
export function memory(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon') };
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds of a live process, all its threads (/proc/PID/stat); NaN when gone. */
export function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return NaN;
  }
}
const TICKS_PER_S = 100;

/**
 * CPU milliseconds used so far by this process's live threads, to the nanosecond: the sum of
 * /proc/self/task/TID/schedstat. process.cpuUsage() (getrusage) leaves out what a thread
 * running on the other core has used since the last scheduler tick: with a label worker
 * thread still busy when the figure was read, a 100,000-character analysis read 16.7 ms
 * against 22.1 (schedstat), and best-of-n picks such low readings. A thread that exits takes
 * its time with it: use it across a span in which none exits. Falls back on
 * process.cpuUsage() where /proc is not there.
 */
export function threadsCpuMs(): number {
  try {
    let ns = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        ns += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
      } catch {
        // the thread has just exited
      }
    }
    return ns / 1e6;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/**
 * Waits until `pid` is idle: under 5 % of a core over 250 ms (at most `maxMs`). A service that
 * says it is serving still builds the label tables on its label threads for a few seconds
 * (about 1.3 s of CPU on the bench catalogue); measured from then on, that work would count in
 * the first scenario's CPU per request. Returns the ms waited.
 */
export async function settled(pid: number, maxMs = 30_000): Promise<number> {
  const started = Date.now();
  for (let last = cpuMs(pid); Date.now() - started < maxMs;) {
    await new Promise((res) => setTimeout(res, 250));
    const now = cpuMs(pid);
    if (!(now - last > 12.5)) break; // NaN (gone): the caller finds out
    last = now;
  }
  return Date.now() - started;
}

/** Resident bytes of a live process's memory maps of `file` (from /proc/PID/smaps; 0 when none or gone). */
export function mappedRss(pid: number, file: string): number {
  let smaps: string;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return 0;
  }
  const real = realpathSync(file); // smaps names the file by its real path
  let bytes = 0;
  let inFile = false;
  for (const line of smaps.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(` ${real}`);
    else if (inFile && line.startsWith('Rss:')) bytes += Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return bytes;
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    text = (text + d).slice(-20_000);
  });
  return () => text;
}
