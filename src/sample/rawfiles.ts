// Reading files of the raw-data directory. Guarantees: a missing file is an
// error naming the path; `.csv` falls back to its `.csv.gz` original.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export function readText(rawDir: string, rel: string): string {
  const p = path.join(rawDir, rel);
  if (fs.existsSync(p)) return fs.readFileSync(p, 'utf8');
  if (fs.existsSync(p + '.gz')) return zlib.gunzipSync(fs.readFileSync(p + '.gz')).toString('utf8');
  throw new Error(`raw data file not found: ${p}`);
}

/** JSON Lines: one JSON value per non-blank line. */
export function readJsonLines<T>(rawDir: string, rel: string): T[] {
  return readText(rawDir, rel)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function readJson<T>(rawDir: string, rel: string): T {
  return JSON.parse(readText(rawDir, rel)) as T;
}

/** Files of a directory whose names end with `suffix`, sorted by name. */
export function listFiles(rawDir: string, rel: string, suffix: string): string[] {
  const dir = path.join(rawDir, rel);
  if (!fs.existsSync(dir)) throw new Error(`raw data directory not found: ${dir}`);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => path.join(rel, f));
}
