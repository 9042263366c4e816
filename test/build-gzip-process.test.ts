// The build's gzip process (src/builder/encodings.ts) ends cleanly, build after build: one
// process builds the fixture catalogue 100 times and must finish them all. With a worker
// thread instead, terminating it aborted such a process in 3 runs out of 3 (a Node 20
// assertion while V8 still optimised the worker's code), letting it exit by itself hung 1
// build in about 200 on a busy machine (nodejs/node#54918), and a worker not waited for let
// the process exit before its build was written. A gzip process, or the label join process
// (src/builder/label-joins.ts), that dies fails the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildCatalogue } from '../src/builder';
import { generateCatalogue } from '../src/synth/generate';
import { writeSource } from './support/source';
import { ingredients, products } from './support/fixture';

const BUILDS = 100;

test(`${BUILDS} builds in one process all finish, and the process exits 0`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-gzip-process-end-'));
  try {
    writeSource(path.join(dir, 'src'), { ingredients, products });
    const script = `
      const { buildCatalogue } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'builder'))});
      (async () => {
        for (let i = 0; i < ${BUILDS}; i++) {
          const outFile = ${JSON.stringify(dir)} + '/c' + (i % 2) + '.db';
          await buildCatalogue({ sourceDir: ${JSON.stringify(path.join(dir, 'src'))}, outFile, builtAt: '2026-01-01' });
          process.stdout.write('built ' + i + '\\n');
        }
      })();`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.signal, null, r.stderr.slice(0, 2000));
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
    assert.equal(r.stdout.trim().split('\n').length, BUILDS, r.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Pids of this process's children whose command line names `part`. */
function childrenNamed(part: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(part))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * Builds a generated catalogue, kills the build's child processes whose script is `script`
 * (SIGKILL) as soon as there is one, and checks that the build fails with `message`, leaves no
 * file and leaves no gzip process behind.
 */
async function killedMidBuild(script: string, message: RegExp): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `catalogue-${script}-dies-`));
  try {
    await generateCatalogue({ outDir: path.join(dir, 'src'), products: 5000, ingredients: 2000, seed: 1 });
    const outFile = path.join(dir, 'c.db');
    const build = buildCatalogue({ sourceDir: path.join(dir, 'src'), outFile, builtAt: '2026-01-01' });
    // Handled from the start: the build can fail while the loop below sleeps.
    const failed = assert.rejects(build, message);
    let killed = 0;
    while (killed === 0) {
      for (const pid of childrenNamed(script)) killed += Number(process.kill(pid, 'SIGKILL'));
      await sleep(10);
    }
    await failed;
    assert.equal(fs.existsSync(outFile), false);
    assert.deepEqual(childrenNamed('gzip-process'), [], 'the gzip processes end with the failed build');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a gzip process that dies mid-build fails the build with a message and leaves no file', () =>
  killedMidBuild('gzip-process', /the gzip process stopped \(SIGKILL\)/));

test('a label join process that dies mid-build fails the build with a message and leaves no file', () =>
  killedMidBuild('label-process', /the label join process stopped \(SIGKILL\)/));
