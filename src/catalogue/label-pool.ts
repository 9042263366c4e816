// Label analysis off the request thread: a pool of worker threads (piscina) that analyse
// label texts against the served catalogue, with a bounded number of analyses admitted
// at a time. Guarantees: the request thread only admits, hands over the text and the
// catalogue's label source (shared memory, label-source.ts) and sends the bytes back;
// at most `threads + queue` analyses are admitted at once, and admit() says false when
// that many are (the caller answers 503, busyError); announce() has every thread make a
// newly served catalogue's join tables before its first label (a swap never makes them
// on the request thread); the answer is the one Catalogue.analyseLabel gives, as bytes.
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
/** Per thread: a 100,000-character label of the worst shape takes at most ~60 ms, so a wait of about half a second. */
export const DEFAULT_LABEL_QUEUE_PER_THREAD = 8;

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

  constructor(opts: LabelPoolOptions = defaultLabelPool()) {
    const name = `catalogue-labels-${process.pid}-${++pools}`;
    this.capacity = opts.threads + opts.queue;
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
      workerData: { channel: name },
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
    const task: LabelTask = { source: catalogue.labelSource(), text };
    const bytes = (await this.pool.run(task)) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {
    this.channel.close();
    await this.pool.destroy();
  }
}
