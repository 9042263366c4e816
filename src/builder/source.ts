// Locating and streaming the two files of a catalogue source (catalogue-source.md).
// Guarantees: each file is found as NAME or NAME.gz (never both), read as UTF-8 one
// line at a time (never whole), and every non-blank line is yielded with its
// 1-based physical line number; `\n` and `\r\n` ends are both accepted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as zlib from 'node:zlib';
import type { ErrorLog } from './errors';

export interface SourceLine { line: number; text: string }

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

/** Non-blank lines of the file (gunzipped when it ends in .gz). A UTF-8 byte-order mark is dropped. */
export async function* readLines(file: string): AsyncGenerator<SourceLine> {
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const input = file.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  if (input !== raw) raw.on('error', (err) => input.destroy(err));
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (let text of lines) {
      line++;
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === '') continue;
      yield { line, text };
    }
  } finally {
    lines.close();
    raw.destroy();
  }
}
