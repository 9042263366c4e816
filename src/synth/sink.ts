// Buffered line writer to a file, optionally gzip-compressed, that honours back-pressure.
// Guarantees: lines are written in order, each followed by "\n"; close() resolves once
// the file is completely written and rejects on any write error.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const CHUNK = 1 << 20;

export class LineSink {
  private readonly file: fs.WriteStream;
  private readonly out: Writable;
  private buffer: string[] = [];
  private size = 0;
  private failure: Error | null = null;

  constructor(path: string, gzip: boolean) {
    this.file = fs.createWriteStream(path);
    this.file.on('error', (err) => (this.failure = err));
    if (gzip) {
      const z = zlib.createGzip({ level: 1 }); // fastest level: time matters more than size here
      z.on('error', (err) => (this.failure = err));
      z.pipe(this.file);
      this.out = z;
    } else {
      this.out = this.file;
    }
  }

  /** Adds a line; await the result only when it is a promise (buffer flushed under back-pressure). */
  write(line: string): Promise<void> | void {
    this.buffer.push(line);
    this.size += line.length + 1;
    if (this.size >= CHUNK) return this.flush();
  }

  private flush(): Promise<void> | void {
    if (this.failure) throw this.failure;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.size = 0;
    if (!this.out.write(text)) return this.drained();
  }

  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        this.out.off('drain', done);
        this.file.off('error', done);
        if (err) reject(err);
        else resolve();
      };
      this.out.on('drain', done);
      this.file.on('error', done);
    });
  }

  async close(): Promise<void> {
    if (this.buffer.length) await this.flush();
    const finished = once(this.file, 'close');
    this.out.end();
    await finished;
    if (this.failure) throw this.failure;
  }
}
