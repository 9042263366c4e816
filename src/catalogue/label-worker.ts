// One label worker thread of the pool (label-pool.ts, piscina): analyses one label text
// against the catalogue a task names, and answers its JSON as UTF-8 bytes written into the
// task's answer slot (shared memory) as they are made when it has one and they fit
// (LabelAnalyser.analyseInto), else moved (not copied) back to the request thread.
// Guarantees: the answer is the read model's on the request thread, byte for byte (the
// same LabelAnalyser made from the same label source); a catalogue's join tables are made
// once per thread, when the pool announces the catalogue (a swap) or at its first task; the
// two newest catalogues are kept, so tasks queued before a swap still answer from the
// catalogue they were admitted under; on Linux the thread runs at the lowest priority (nice
// 19), below the request thread.
import { BroadcastChannel, workerData } from 'node:worker_threads';
import { move } from 'piscina';
import { lowerThisThread } from '../shared/thread-priority';
import type { LabelAnalyser } from './label-analysis';
import { analyserOf, type LabelSource } from './label-source';

export interface LabelTask {
  source: LabelSource;
  text: string;
  /** The answer slot to write the answer into (label-pool.ts analyseForReply), or -1: answer a buffer. */
  slot: number;
}

/** Catalogues kept per thread: the served one and the one before it. */
const KEPT = 2;
const analysers = new Map<number, LabelAnalyser>();
const encoder = new TextEncoder();

function analyserFor(source: LabelSource): LabelAnalyser {
  let a = analysers.get(source.generation);
  if (a === undefined) {
    analysers.set(source.generation, (a = analyserOf(source)));
    const old = [...analysers.keys()].sort((x, y) => y - x).slice(KEPT);
    for (const g of old) analysers.delete(g);
  }
  return a;
}

/**
 * The nice value of a label thread: the request thread (nice 0) gets the CPU first when both
 * want it. 19 rather than 10: with one client looping the worst labels, another client's
 * product by id got 10 % more answers in the same time (25,076–26,579 against 23,193–24,252,
 * five runs of bench/label-interference in turn) and its p99 was 10.4–11.0 ms against
 * 10.5–12.7; the labels took about 5 % longer (docs/labels.md).
 */
const LABEL_NICE = 19;

// Label work yields the CPU to the request thread.
lowerThisThread(LABEL_NICE);

// The pool announces each catalogue it will serve: its tables are made now, before its first label.
const channel = new BroadcastChannel((workerData as { channel: string }).channel);
channel.onmessage = (e) => void analyserFor((e as { data: LabelSource }).data);
channel.unref();

const { answers, slotBytes } = workerData as { answers: SharedArrayBuffer; slotBytes: number };

/** The answer's bytes: their length when written into the task's slot (it fits), else a buffer moved to the request thread. */
export default function analyse(task: LabelTask): Uint8Array | number {
  const analyser = analyserFor(task.source);
  const r =
    task.slot >= 0
      ? analyser.analyseInto(task.text, new Uint8Array(answers, task.slot * slotBytes, slotBytes))
      : encoder.encode(analyser.analyse(task.text));
  return typeof r === 'number' ? r : (move(r) as Uint8Array);
}
