// Drives one scenario: writes the load generator's config and runs it as a child
// process (see load-worker.ts), so the generator and the server never share a thread.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadConfig, LoadResult } from './load-worker';

export function runLoad(dist: string, workDir: string, name: string, cfg: LoadConfig): Promise<LoadResult> {
  const file = join(workDir, `load-${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  const timeout = (cfg.warmup + cfg.duration) * 1000 + 60_000;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(dist, 'bench', 'load-worker.js'), file],
      { timeout, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`load generator failed for ${name}: ${stderr || err.message}`));
        resolve(JSON.parse(stdout) as LoadResult);
      },
    );
  });
}
