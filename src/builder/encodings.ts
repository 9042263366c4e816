// The gzip form of each product answer, made at build time so that serving never
// compresses. Guarantees: answers are unpacked and gzipped in a worker thread (gzip-worker.ts,
// on a core of its own) while the build goes on reading and rendering; the main thread sends
// only each product's packed answer (format.ts; about an eighth of the answer, whose ingredient
// records the worker is given once, when it starts), in batches of BATCH, with at most
// IN_FLIGHT answers pending at once (memory stays bounded); results are written to
// the catalogue in the order the products were added (rows appended in key order fill their
// pages; out of order, the table's pages were left about half empty); `done()` resolves once
// every one is written and rejects on the first failure; the worker never outlives the
// build (`done()` and `close()` ask it to end, and resolve once it has exited; until then it
// keeps the process alive, as any pending I/O does).
// Why a worker and gzipSync: zlib's asynchronous gzip() of a 10 KB answer cost the main
// thread more than compressing it synchronously (0.68 ms of event-loop time per call against
// 0.40 ms for gzipSync, 2,000 calls, busy machine), and made the build 2.4 times as long.
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { ZlibOptions } from 'node:zlib';
import type { CatalogueWriter } from './output';

/**
 * zlib's default level; a 16 KiB window and memLevel 6 suit answers of about 10 KB: the same
 * size as the defaults (22.6 % of the JSON) in about half the time, most of which went to
 * setting up the larger state for every answer.
 */
export const GZIP_OPTIONS: ZlibOptions = { level: 6, windowBits: 14, memLevel: 6 };
const BATCH = 32;
const IN_FLIGHT = 512;

/** What the worker is started with: each ingredient ord's record (2.5) as JSON text. */
export interface WorkerData {
  records: string[];
}
/**
 * A batch either way: byte strings (packed answers to the worker, gzip forms back) back to back
 * in one buffer, which is transferred, not copied; piece i ends at ends[i].
 */
export interface Pieces {
  ords: number[];
  data: Uint8Array;
  ends: number[];
}

/** The pieces of a batch in one buffer of its own (transferable: never a view of Buffer's shared pool). */
export function joinPieces(ords: number[], pieces: readonly Uint8Array[]): Pieces {
  const ends: number[] = [];
  let size = 0;
  for (const p of pieces) ends.push((size += p.length));
  const data = new Uint8Array(size);
  pieces.forEach((p, i) => data.set(p, i === 0 ? 0 : ends[i - 1]));
  return { ords, data, ends };
}

/** Piece i of a batch, as a Buffer viewing it. */
export function piece(b: Pieces, i: number): Buffer {
  const from = i === 0 ? 0 : b.ends[i - 1];
  return Buffer.from(b.data.buffer, b.data.byteOffset + from, b.ends[i] - from);
}

export class AnswerCompressor {
  private readonly worker: Worker;
  private ords: number[] = [];
  private packed: Buffer[] = [];
  private pending = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private closing = false;
  private readonly exited: Promise<void>;

  /** `records`: each ingredient ord's record (2.5), as the packed answers added refer to them. */
  constructor(
    private readonly out: CatalogueWriter,
    records: readonly string[],
  ) {
    const workerData: WorkerData = { records: Array.from(records, (r) => r ?? '') };
    this.worker = new Worker(join(__dirname, 'gzip-worker.js'), { workerData });
    this.worker.on('message', (r: Pieces) => {
      this.pending -= r.ords.length;
      try {
        r.ords.forEach((ord, i) => this.out.encodings(ord, piece(r, i)));
      } catch (err) {
        this.fail(err);
      }
      this.notify();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.exited = new Promise<void>((resolve) =>
      this.worker.once('exit', (code) => {
        if (!this.closing) this.fail(new Error(`the gzip worker stopped (exit code ${code})`));
        resolve();
      }),
    );
  }

  /** Queues one product's packed answer (format.ts); waits (returns a promise) only when IN_FLIGHT are pending. */
  add(ord: number, packed: Buffer): Promise<void> | void {
    if (this.failure !== undefined) throw this.failure;
    this.ords.push(ord);
    this.packed.push(packed);
    this.pending++;
    if (this.ords.length >= BATCH) this.send();
    if (this.pending >= IN_FLIGHT) return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Resolves once every answer added is compressed and written; ends the worker. */
  async done(): Promise<void> {
    this.send();
    while (this.pending > 0 && this.failure === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
    await this.close();
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Ends the worker once it has finished the batches already sent (at most IN_FLIGHT answers).
   * Asked to end, the thread exits by itself: terminated instead, while V8 may still be
   * optimising its code on a background thread, it aborted the whole process (Node 20:
   * "Assertion failed: (data.first) != nullptr" in NodePlatform::ForIsolate; 3 processes out
   * of 3 building the test fixture 100 times, none since).
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.worker.postMessage(null);
    }
    return this.exited;
  }

  private send(): void {
    if (this.ords.length === 0) return;
    const batch = joinPieces(this.ords, this.packed);
    this.worker.postMessage(batch, [batch.data.buffer as ArrayBuffer]);
    this.ords = [];
    this.packed = [];
  }

  private fail(err: unknown): void {
    this.failure ??= err instanceof Error ? err : new Error(String(err));
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
