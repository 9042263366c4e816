// The gzip form of each product answer, made at build time so that serving never
// compresses. Guarantees: every product added is compressed on libuv's thread pool
// while the build goes on reading and rendering, with at most IN_FLIGHT answers pending at
// once (memory stays bounded); results are written to the catalogue in the order the
// products were added (rows appended in key order fill their pages: out of order, the
// table's pages were left about half empty); `done()` resolves once every one is written,
// and rejects on the first compression error.
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { CatalogueWriter } from './output';

const gzipAsync = promisify(gzip);

/** Answers being compressed at once: enough to keep the pool busy, few enough to bound memory (~10 KB each). */
const IN_FLIGHT = 64;
/** zlib's default: within 1 % of level 9 in size on product answers, at about two thirds of its time. */
const GZIP_LEVEL = 6;

export class AnswerCompressor {
  private pending = 0;
  private failure: Error | undefined;
  /** Ords added and not yet written, in the order added; their results once compressed. */
  private readonly order: number[] = [];
  private readonly ready = new Map<number, Buffer>();
  private wake: (() => void) | undefined;

  constructor(private readonly out: CatalogueWriter) {}

  /** Starts compressing one product's answer; waits (returns a promise) only when IN_FLIGHT are pending. */
  add(ord: number, answer: Buffer): Promise<void> | void {
    if (this.failure !== undefined) throw this.failure;
    this.pending++;
    this.order.push(ord);
    gzipAsync(answer, { level: GZIP_LEVEL }).then(
      (gz) => this.settle(() => this.write(ord, gz)),
      (err: Error) => this.settle(() => (this.failure ??= err)),
    );
    if (this.pending >= IN_FLIGHT) return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Resolves once every answer added is compressed and written. */
  async done(): Promise<void> {
    while (this.pending > 0) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure !== undefined) throw this.failure;
  }

  private write(ord: number, gz: Buffer): void {
    this.ready.set(ord, gz);
    while (this.order.length > 0 && this.ready.has(this.order[0])) {
      const next = this.order.shift()!;
      this.out.encodings(next, this.ready.get(next)!);
      this.ready.delete(next);
    }
  }

  private settle(work: () => void): void {
    this.pending--;
    try {
      work();
    } catch (err) {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
