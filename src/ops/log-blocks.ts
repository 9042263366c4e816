// The log's destination as pino sees it: lines gathered into blocks before they reach the
// asynchronous file destination (pino.destination, a SonicBoom). Guarantees: lines keep their
// order; a block goes on once it holds `block` characters, on flush() (the service's timer,
// once a second) and on a graceful stop (flush's callback runs once every line given so far
// is written); at exit, what is still gathered is written synchronously after what the
// destination held (pino writes that first). Why: SonicBoom measures the UTF-8 length of the
// whole block it is filling on every write, so each line cost a copy of up to 16 KiB (3–4 µs
// a request line, in process); here a line is one string append and the destination sees one
// write per block (docs/performance.md, "Request logging").
import { writeSync } from 'node:fs';

/** The part of pino.destination() (SonicBoom) used here. */
export interface FileDestination {
  write(s: string): boolean;
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
}

export class LogBlocks {
  private gathered = '';

  /** `fd`: the destination's file descriptor; `block`: characters gathered before they are passed on. */
  constructor(
    private readonly dest: FileDestination,
    private readonly fd: number,
    private readonly block: number,
  ) {
    // Registered after pino's own exit hook (which writes what the destination holds), so this comes after it.
    process.on('exit', () => this.writeGatheredSync());
  }

  write(line: string): boolean {
    this.gathered += line;
    if (this.gathered.length >= this.block) this.pass();
    return true;
  }

  /** Passes on what is gathered and asks the destination to write it; `cb` once all of it is written. */
  flush(cb?: (err?: Error) => void): void {
    this.pass();
    this.dest.flush(cb);
  }

  flushSync(): void {
    this.pass();
    this.dest.flushSync();
  }

  private pass(): void {
    if (this.gathered === '') return;
    const block = this.gathered;
    this.gathered = '';
    this.dest.write(block);
  }

  private writeGatheredSync(): void {
    if (this.gathered === '') return;
    try {
      writeSync(this.fd, this.gathered);
    } catch {
      // the log's reader is gone: nothing more can be done at exit
    }
    this.gathered = '';
  }
}
