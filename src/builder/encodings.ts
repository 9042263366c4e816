// The gzip form of each product answer, made at build time so that serving never
// compresses. Guarantees: answers are gzipped in a worker thread (gzip-worker.ts, on a core
// of its own) while the build goes on reading and rendering, sent in batches of BATCH, with
// at most IN_FLIGHT answers pending at once (memory stays bounded); results are written to
// the catalogue in the order the products were added (rows appended in key order fill their
// pages; out of order, the table's pages were left about half empty); `done()` resolves once
// every one is written and rejects on the first failure; the worker never outlives the
// build (`done()` and `close()` end it, and it does not keep the process alive).
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

export interface CompressBatch {
  ords: number[];
  answers: Uint8Array[];
}
export interface CompressedBatch {
  ords: number[];
  gzip: Uint8Array[];
}

export class AnswerCompressor {
  private readonly worker = new Worker(join(__dirname, 'gzip-worker.js'));
  private batch: CompressBatch = { ords: [], answers: [] };
  private pending = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly out: CatalogueWriter) {
    this.worker.unref();
    this.worker.on('message', (r: CompressedBatch) => {
      this.pending -= r.ords.length;
      try {
        r.ords.forEach((ord, i) =>
          this.out.encodings(ord, Buffer.from(r.gzip[i].buffer, r.gzip[i].byteOffset, r.gzip[i].byteLength)),
        );
      } catch (err) {
        this.fail(err);
      }
      this.notify();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the gzip worker stopped (exit code ${code})`)));
  }

  /** Queues one product's answer; waits (returns a promise) only when IN_FLIGHT are pending. */
  add(ord: number, answer: Buffer): Promise<void> | void {
    if (this.failure !== undefined) throw this.failure;
    this.batch.ords.push(ord);
    this.batch.answers.push(answer);
    this.pending++;
    if (this.batch.ords.length >= BATCH) this.send();
    if (this.pending >= IN_FLIGHT) return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Resolves once every answer added is compressed and written; ends the worker. */
  async done(): Promise<void> {
    this.send();
    while (this.pending > 0 && this.failure === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
    await this.close();
    if (this.failure !== undefined) throw this.failure;
  }

  /** Ends the worker (at once, whatever is pending). */
  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private send(): void {
    if (this.batch.ords.length === 0) return;
    this.worker.postMessage(this.batch);
    this.batch = { ords: [], answers: [] };
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
