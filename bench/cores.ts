// `node dist/bench/cores.js [--rounds N]`: how much of two cores this machine gives CPU-bound
// work right now. A fixed piece of work (gzip of a fixed 8 MiB buffer at the build's level,
// 80 times, about 1.5 s of CPU) runs in one process alone, then in two processes at once; printed: each process's
// wall and CPU seconds, and the throughput of two over one (2.0 on two free cores). The build
// is two or three CPU-bound processes, so its wall time follows this figure: a build's
// seconds from different days or machines compare only beside it (docs/performance.md,
// round five, "Why the build took 23–25 s in one run and 50 s in another").
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';

const REPEAT = 80;

interface Timed {
  wall: number;
  cpu: number;
}

function work(): void {
  const data = Buffer.alloc(8 << 20);
  let x = 1;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = 97 + ((x >>> 16) % 16); // letters from a small alphabet: compressible, like JSON
  }
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) gzipSync(data, { level: 6 });
  const used = process.cpuUsage(cpu);
  const t: Timed = { wall: Number(process.hrtime.bigint() - started) / 1e9, cpu: (used.user + used.system) / 1e6 };
  process.stdout.write(JSON.stringify(t) + '\n');
}

function runOne(): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, '--work'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Timed) : reject(new Error(`exit ${code}`))));
  });
}

async function main(rounds: number): Promise<void> {
  const show = (t: Timed) => `${t.wall.toFixed(2)} s wall, ${t.cpu.toFixed(2)} s CPU`;
  for (let r = 1; r <= rounds; r++) {
    const alone = await runOne();
    const started = process.hrtime.bigint();
    const pair = await Promise.all([runOne(), runOne()]);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const throughput = (2 * alone.wall) / wall;
    process.stdout.write(
      `round ${r}: alone ${show(alone)}; two at once ${show(pair[0])} and ${show(pair[1])}; ` +
        `two give ${throughput.toFixed(2)} × one\n`,
    );
  }
}

if (process.argv.includes('--work')) work();
else {
  const i = process.argv.indexOf('--rounds');
  main(i === -1 ? 3 : Number(process.argv[i + 1])).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
}
