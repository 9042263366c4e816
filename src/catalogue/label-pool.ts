// Label analysis off the request thread: a pool of worker threads (piscina) that analyse
// label texts against the served catalogue, with a bounded number of analyses admitted
// at a time. Guarantees: the request thread only admits, hands over the text and the
// catalogue's label source (shared memory, label-source.ts) and sends the bytes back;
// at most `threads + queue` analyses are admitted at once, and admit() says false when
// that many are (the caller answers 503, busyError); announce() has every thread make a
// newly served catalogue's join tables before its first label (a swap never makes them
// on the request thread); the answer is the one Catalogue.analyseLabel gives, as bytes.
// analyseForReply writes the answer into one of a few answer slots of shared memory made
// when the pool is made, when one is free and the answer fits, and the bytes stay there
// until the caller says they were sent: the request thread then receives no new memory per
// answer (answers of up to 11 MB, each a new buffer, made V8 run a full collection of the
// request thread's heap every ~64 MB of them: docs/labels.md).
import { Readable } from 'node:stream';
import { BroadcastChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Piscina } from 'piscina';
import { ApiError } from '../shared/errors';
import type { Catalogue } from './read-model';
import type { LabelTask } from './label-worker';

export interface LabelPoolOptions {
  /** Worker threads analysing labels. */
  threads: number;
  /** Analyses admitted beyond one per thread, waiting for a thread. */
  queue: number;
}

/** Half the cores (the request thread keeps the others), at most 4. */
export const DEFAULT_LABEL_THREADS = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
/** Per thread: a 100,000-character label of the worst shape takes 40–75 ms as measured (docs/labels.md, BENCHMARKS.md), so a wait of at most about 0.6 s. */
export const DEFAULT_LABEL_QUEUE_PER_THREAD = 8;

/** Answer slots per thread (analyseForReply): one being written to a client while the thread fills the next. */
const SLOTS_PER_THREAD = 2;
/**
 * Bytes of one answer slot: the answers of the worst 100,000-character shapes (bench/label-shapes.ts)
 * are up to about 9 MB; a longer answer is sent as its own buffer. Pages of a slot take memory
 * only once an answer as long was written into it.
 */
export const ANSWER_SLOT_BYTES = 12 * 1024 * 1024;

/** Answers in a slot up to this long are copied out (the slot is free at once); longer ones are streamed from it. */
const COPIED_OUT = 64 * 1024;
/** A long answer is written from its slot in pieces this long, so other answers are written between them. */
const PIECE = 256 * 1024;

/** An answer to send (its bytes, or a stream of them), its length, and what to call once it was sent (or the connection closed). */
export interface LabelReply {
  body: Buffer | Readable;
  length: number;
  sent: () => void;
}

/** The bytes in pieces of PIECE bytes (views, not copies). */
function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

export function defaultLabelPool(): LabelPoolOptions {
  return { threads: DEFAULT_LABEL_THREADS, queue: DEFAULT_LABEL_THREADS * DEFAULT_LABEL_QUEUE_PER_THREAD };
}

const BUSY = 'label analysis is busy (too many labels waiting); retry shortly';

/** The answer when no analysis can be admitted: 503 (the route adds Retry-After). */
export function busyError(): ApiError {
  return new ApiError('unavailable', BUSY);
}

let pools = 0;

export class LabelPool {
  private readonly pool: Piscina;
  private readonly channel: BroadcastChannel;
  private admitted = 0;
  /** Analyses admitted at most at once. */
  readonly capacity: number;
  /** The answer slots (shared with the threads), and those not holding an answer being sent. */
  private readonly answers: SharedArrayBuffer;
  private readonly freeSlots: number[] = [];

  constructor(opts: LabelPoolOptions = defaultLabelPool()) {
    const name = `catalogue-labels-${process.pid}-${++pools}`;
    this.capacity = opts.threads + opts.queue;
    const slots = opts.threads * SLOTS_PER_THREAD;
    this.answers = new SharedArrayBuffer(slots * ANSWER_SLOT_BYTES);
    for (let i = slots - 1; i >= 0; i--) this.freeSlots.push(i);
    this.pool = new Piscina({
      filename: path.join(__dirname, 'label-worker.js'),
      minThreads: opts.threads,
      maxThreads: opts.threads,
      // Never reached: admit() bounds what is handed over (piscina's own maxQueue of 0 still
      // ran a refused task, version 5.3).
      maxQueue: Infinity,
      idleTimeout: 2 ** 31 - 1,
      // Idle threads wait on their event loop, not in Atomics.wait, so that they hear announce().
      atomics: 'disabled',
      workerData: { channel: name, answers: this.answers, slotBytes: ANSWER_SLOT_BYTES },
    });
    this.channel = new BroadcastChannel(name);
    this.channel.unref();
  }

  /** Takes a place for one analysis; false when `capacity` analyses are admitted (answer busyError). */
  admit(): boolean {
    if (this.admitted >= this.capacity) return false;
    this.admitted++;
    return true;
  }

  /** Gives back a place that admit() took. */
  release(): void {
    this.admitted--;
  }

  /** Has every thread make this catalogue's join tables now (called when a catalogue starts being served). */
  announce(catalogue: Catalogue): void {
    this.channel.postMessage(catalogue.labelSource());
  }

  /** The analysis of one label text against the catalogue, as UTF-8 JSON bytes (call after admit()). */
  async analyse(catalogue: Catalogue, text: string): Promise<Buffer> {
    const task: LabelTask = { source: catalogue.labelSource(), text, slot: -1 };
    const bytes = (await this.pool.run(task)) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * The same answer for sending (call after admit()): in an answer slot when one is free and
   * it fits, else in a buffer of its own. The caller calls sent() once the bytes were written
   * (or will never be): until then the slot is not given to another analysis.
   */
  async analyseForReply(catalogue: Catalogue, text: string): Promise<LabelReply> {
    const slot = this.freeSlots.pop() ?? -1;
    let r: Uint8Array | number;
    try {
      r = (await this.pool.run({ source: catalogue.labelSource(), text, slot } satisfies LabelTask)) as
        Uint8Array | number;
    } catch (err) {
      if (slot >= 0) this.freeSlots.push(slot);
      throw err;
    }
    const none = () => undefined;
    if (typeof r !== 'number') {
      if (slot >= 0) this.freeSlots.push(slot);
      return { body: Buffer.from(r.buffer, r.byteOffset, r.byteLength), length: r.byteLength, sent: none };
    }
    const bytes = Buffer.from(this.answers, slot * ANSWER_SLOT_BYTES, r);
    if (r <= COPIED_OUT) {
      const copy = Buffer.from(bytes);
      this.freeSlots.push(slot);
      return { body: copy, length: r, sent: none };
    }
    let held = true;
    const sent = () => {
      if (held) this.freeSlots.push(slot);
      held = false;
    };
    return { body: Readable.from(pieces(bytes)), length: r, sent };
  }

  async close(): Promise<void> {
    this.channel.close();
    await this.pool.destroy();
  }
}
