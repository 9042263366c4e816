// Locating the two files of a catalogue source (catalogue-source.md). Guarantees: each
// file is found as NAME or NAME.gz, never both; they are read by source/lines.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ErrorLog } from './errors';

/** The path of NAME or NAME.gz in dir, or null after logging why neither (or both) will do. */
export function locate(dir: string, name: string, log: ErrorLog): string | null {
  const plain = path.join(dir, name);
  const gz = plain + '.gz';
  const hasPlain = isFile(plain);
  const hasGz = isFile(gz);
  if (hasPlain && hasGz) {
    log.add(`${plain}: both ${name} and ${name}.gz exist; keep only one`);
    return null;
  }
  if (!hasPlain && !hasGz) {
    log.add(`${plain}: missing (expected ${name} or ${name}.gz in ${dir})`);
    return null;
  }
  return hasPlain ? plain : gz;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
