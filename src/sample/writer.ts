// Writing a catalogue source: JSON Lines, gzip-compressed. Guarantees: the same
// records give byte-identical files (fixed key order from the caller, "\n" line
// ends, zlib with no timestamp and a fixed compression level).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export function jsonlGz(records: readonly object[]): Buffer {
  const text = records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : '');
  return zlib.gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

/** Write both files, each through a temporary file renamed into place. */
export function writeSource(outDir: string, ingredients: readonly object[], products: readonly object[]): void {
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, recs] of [['ingredients.jsonl.gz', ingredients], ['products.jsonl.gz', products]] as const) {
    const target = path.join(outDir, name);
    const tmp = `${target}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, jsonlGz(recs));
    fs.renameSync(tmp, target);
  }
}
