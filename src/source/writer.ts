// Writing catalogue source files (JSON Lines, optionally gzip-compressed), used by the
// sample and synthetic generators and the importer; `writeSource` takes typed source
// records. Guarantees: a file appears under its name only complete (written to
// NAME.tmp-PID, fsynced, renamed), or not at all: on any error the temporary file is
// removed and the error reaches the caller (never a hung promise); lines are written in
// order, each followed by "\n"; gzip has no timestamp, so the same lines at the same
// level give byte-identical files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { SourceIngredient, SourceProduct } from './records';

const CHUNK = 1 << 20;

/** Streams lines into a file that is renamed into place by close(). */
export class SourceFileWriter {
  private readonly tmp: string;
  private readonly file: fs.WriteStream;
  private readonly out: Writable;
  private readonly done: Promise<void>;
  private failure: Error | null = null;
  private buffer: string[] = [];
  private size = 0;

  /** `gzip`: compression level (1 fastest … 9 smallest), or null for plain text. */
  constructor(
    private readonly target: string,
    gzip: number | null,
  ) {
    this.tmp = `${target}.tmp-${process.pid}`;
    this.file = fs.createWriteStream(this.tmp);
    const z = gzip === null ? null : zlib.createGzip({ level: gzip });
    this.out = z ?? this.file;
    this.done = (z ? pipeline(z, this.file) : once(this.file, 'close').then(() => undefined)).catch((err: Error) => {
      this.failure ??= err;
    });
    this.file.on('error', (err) => (this.failure ??= err));
  }

  /** Adds a line; await the result only when it is a promise (buffer flushed under back-pressure). */
  write(line: string): Promise<void> | void {
    this.buffer.push(line);
    this.size += line.length + 1;
    if (this.size >= CHUNK) return this.flush();
  }

  /** Writes what is buffered, finishes the file and renames it into place; rejects on any error. */
  async close(): Promise<void> {
    try {
      if (this.buffer.length) await this.flush();
      this.out.end();
      await this.done;
      if (this.failure) throw this.failure;
      fsyncFile(this.tmp);
      fs.renameSync(this.tmp, this.target);
    } catch (err) {
      this.out.destroy();
      fs.rmSync(this.tmp, { force: true });
      throw err;
    }
  }

  private flush(): Promise<void> | void {
    if (this.failure) throw this.failure;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.size = 0;
    if (!this.out.write(text)) return this.drained();
  }

  /** Resolves on 'drain', rejects as soon as the stream fails (so it cannot wait forever). */
  private async drained(): Promise<void> {
    await Promise.race([once(this.out, 'drain'), this.done]);
    if (this.failure) throw this.failure;
  }
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The JSON Lines text of `records` (source records), gzip-compressed at level 9. */
export function jsonlGz(records: readonly (SourceIngredient | SourceProduct)[]): Buffer {
  const text = records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : '');
  return zlib.gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

/** Writes `data` to `target` through NAME.tmp-PID, fsynced, then renamed into place. */
export function writeFileAtomic(target: string, data: Buffer): void {
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Writes OUT/ingredients.jsonl.gz and OUT/products.jsonl.gz, each atomically. */
export function writeSource(
  outDir: string,
  ingredients: readonly SourceIngredient[],
  products: readonly SourceProduct[],
): void {
  fs.mkdirSync(outDir, { recursive: true });
  writeFileAtomic(path.join(outDir, 'ingredients.jsonl.gz'), jsonlGz(ingredients));
  writeFileAtomic(path.join(outDir, 'products.jsonl.gz'), jsonlGz(products));
}
