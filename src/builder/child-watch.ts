// What the build's child processes (the gzip processes, encodings.ts; the label join process,
// label-joins.ts) share: the first failure, and one waiter woken when a result or a failure
// comes. Guarantees: the first failure is kept (later ones are dropped); a process that exits
// before close() was called fails the build with its signal or exit code; a send after a
// process died is not the failure reported (its exit follows and says why).
import type { ChildProcess } from 'node:child_process';

export class ChildWatch {
  failure: Error | undefined;
  closing = false;
  private wake: (() => void) | undefined;

  /** `what`: the process as the failure names it ("the gzip process"). */
  constructor(private readonly what: string) {}

  /** Resolves at the next notify() (a result came, or a failure). */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  fail(err: unknown): void {
    this.failure ??= err instanceof Error ? err : new Error(String(err));
    this.notify();
  }

  /** Resolves once the process has exited (or never started); fails the build when it was not asked to stop. */
  ended(child: ChildProcess): Promise<void> {
    return new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        if (!this.closing) this.fail(new Error(`${this.what} stopped (${signal ?? `exit code ${code}`})`));
        resolve();
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ERR_IPC_CHANNEL_CLOSED' || err.code === 'EPIPE') return;
        this.fail(err);
        if (child.pid === undefined) resolve(); // never started: no 'exit' will come
      });
    });
  }
}
