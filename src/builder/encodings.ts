// The gzip form of each product answer, made at build time so that serving never
// compresses. Guarantees: answers are unpacked and gzipped in child processes (gzip-process.ts;
// PROCESSES of them, batches dealt to them in turn) while the build goes on reading and
// rendering; the build sends them only each product's packed answer (format.ts; about an eighth
// of the answer, whose ingredient records each is sent once, first), in batches of BATCH, with
// at most IN_FLIGHT answers pending at once (memory stays bounded); results are written to the
// catalogue in the order the products were added, whichever process made them (rows appended
// in key order fill their pages; out of order, the table's pages were left about half empty);
// `done()` resolves once every one is written and rejects on the first failure; no process
// outlives the build (`done()` and `close()` kill them and resolve once they have exited).
// Why a process and gzipSync: zlib's asynchronous gzip() of a 10 KB answer cost the main
// thread more than compressing it synchronously (0.68 ms of event-loop time per call against
// 0.40 ms for gzipSync, 2,000 calls, busy machine), and made the build 2.4 times as long.
// A worker thread did the same work, but Node 20 cannot always end one: terminated, it
// aborted the process (an assertion in NodePlatform::ForIsolate), and left to exit by itself,
// it deadlocked now and then (its thread waiting in NodePlatform::DrainTasks for a V8
// compile task that waits for that thread to collect garbage; nodejs/node#54918), 1 build
// in about 200 on a busy machine. A process is killed outright once its results are in; it
// costs a 200,000-product build about a fifth more time than the thread did.
// Why two processes: the build's own work and the gzip work each take about a core (200,000
// products: 20-27 s and about 23 s of CPU); with one process for each, whichever finishes first
// leaves its core idle and every stall of one side stops the other. With two gzip processes
// the kernel keeps both cores busy to the end (docs/performance.md, round five).
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ZlibOptions } from 'node:zlib';
import type { CatalogueWriter } from './output';
import { ChildWatch } from './child-watch';

/**
 * Level 3, the last of zlib's fast levels (1–3 search matches the same way, 3 the longest): on
 * the 200,000-product catalogue's answers (about 10 KB each) 63–65 µs an answer against 88–109
 * µs at the default level 6, for 23.9 % of the JSON against 22.7 % (levels 1 and 2 cost the same
 * and compress less). A 16 KiB window and memLevel 6 suit answers of about 10 KB: most of a
 * small answer's time went to setting up the larger default state.
 */
export const GZIP_OPTIONS: ZlibOptions = { level: 3, windowBits: 14, memLevel: 6 };
/**
 * 128 answers a batch (about 170 KB out, 310 KB back): each message wakes the other process, and
 * with 32 a batch the wake-ups cost both sides CPU on a busy machine (20,000-product builds in
 * turn, load 12: main process 9.4–10.9 s against 9.9–10.9 s, gzip processes 3.9–4.3 against
 * 4.2–4.6 s). IN_FLIGHT keeps 16 batches pending, as before (about 8 MB).
 */
const BATCH = 128;
const IN_FLIGHT = 16 * BATCH;
/** Gzip processes: two where the machine has two cores or more. */
const PROCESSES = Math.min(2, availableParallelism());

/** The process's first message: each ingredient ord's record (2.5) as JSON text. */
export interface Start {
  records: string[];
}
/**
 * A batch either way: byte strings (packed answers to the process, gzip forms back) back to
 * back in one buffer; piece i ends at ends[i].
 */
export interface Pieces {
  ords: number[];
  data: Uint8Array;
  ends: number[];
}

/** The pieces of a batch in one buffer of its own. */
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

/** A batch sent to a gzip process, and its result once back. */
interface Sent {
  result?: Pieces;
}

export class AnswerCompressor {
  private readonly children: ChildProcess[];
  /** Per process, its batches not yet back, oldest first (a process answers in order). */
  private readonly awaited: Sent[][];
  /** Every batch sent and not yet written, oldest first: written in this order. */
  private readonly sent: Sent[] = [];
  private next = 0;
  private ords: number[] = [];
  private packed: Buffer[] = [];
  private pending = 0;
  private readonly watch = new ChildWatch('the gzip process');
  private readonly exited: Promise<void>;

  /** `records`: each ingredient ord's record (2.5), as the packed answers added refer to them. */
  constructor(
    private readonly out: CatalogueWriter,
    records: readonly string[],
    processes = PROCESSES,
  ) {
    const start: Start = { records: Array.from(records, (r) => r ?? '') };
    this.children = Array.from({ length: processes }, (_, i) => this.start(i, start));
    this.awaited = this.children.map(() => []);
    this.exited = Promise.all(this.children.map((c) => this.watch.ended(c))).then(() => {});
  }

  /** Queues one product's packed answer (format.ts); waits (returns a promise) only when IN_FLIGHT are pending. */
  add(ord: number, packed: Buffer): Promise<void> | void {
    if (this.watch.failure !== undefined) throw this.watch.failure;
    this.ords.push(ord);
    this.packed.push(packed);
    this.pending++;
    if (this.ords.length >= BATCH) this.send();
    if (this.pending >= IN_FLIGHT) return this.watch.wait();
  }

  /** Resolves once every answer added is compressed and written; ends the processes. */
  async done(): Promise<void> {
    this.send();
    while (this.pending > 0 && this.watch.failure === undefined) await this.watch.wait();
    await this.close();
    if (this.watch.failure !== undefined) throw this.watch.failure;
  }

  /** Kills the processes (their results are in, or no longer wanted); resolves once they have exited. */
  close(): Promise<void> {
    if (!this.watch.closing) {
      this.watch.closing = true;
      for (const child of this.children) child.kill('SIGKILL');
    }
    return this.exited;
  }

  private start(i: number, start: Start): ChildProcess {
    const child = fork(join(__dirname, 'gzip-process.js'), [], {
      serialization: 'advanced', // typed arrays cross as such, not as JSON
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (r: Pieces) => {
      this.awaited[i].shift()!.result = r;
      try {
        this.write();
      } catch (err) {
        this.watch.fail(err);
      }
      this.watch.notify();
    });
    child.send(start);
    return child;
  }

  /** Writes the results at the front of `sent` that are back, in the order they were sent. */
  private write(): void {
    while (this.sent.length > 0 && this.sent[0].result !== undefined) {
      const r = this.sent.shift()!.result!;
      this.pending -= r.ords.length;
      r.ords.forEach((ord, i) => this.out.encodings(ord, piece(r, i)));
    }
  }

  private send(): void {
    const i = this.next;
    const child = this.children[i];
    if (this.ords.length === 0 || !child.connected) return; // died: 'exit' reports it
    const batch: Sent = {};
    this.sent.push(batch);
    this.awaited[i].push(batch);
    child.send(joinPieces(this.ords, this.packed));
    this.ords = [];
    this.packed = [];
    this.next = (i + 1) % this.children.length;
  }
}
