// The CPU priority of the calling thread alone (worker threads that must yield to the request
// thread). Guarantees: on Linux the nice value is set for this thread only (/proc/thread-self
// names it; setpriority on a thread id affects that thread); elsewhere, or when not allowed,
// nothing changes and nothing is thrown.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Raises this thread's nice value to `nice` (0–19: higher yields more), where the platform allows it. */
export function lowerThisThread(nice: number): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // not Linux, or not allowed: the thread keeps the process's priority
  }
}
