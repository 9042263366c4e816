// The spellings of the label join index, joined in a child process while the build reads the
// products (label-process.ts), so that the build's own process, the long pole of the build,
// only groups the results at the end (label-keys.ts `joined`): on the 200,000-product bench,
// index() took 1.2–1.8 s of the main process after its products pass, with the gzip processes
// done and a core idle (docs/performance.md, round nine). Guarantees: the process is sent the
// ingredients' part of the index once and each spelling once, in the order the builder first
// saw them (`send()` sends those entered since the last call); `done()` resolves to every
// spelling's join and the tables before spelling, and rejects when the process failed; no
// process outlives the build (`done()` and `close()` kill it and resolve once it has exited).
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ChildWatch } from './child-watch';
import type { LabelIngredients, LabelKeysBuilder, SpellingJoins } from './label-keys';

/** What the process is sent: the ingredients first, then spellings; `end` asks for the results. */
export type LabelMessage = { ingredients: LabelIngredients } | { spellings: string[]; end: boolean };

export class LabelJoins {
  private readonly child: ChildProcess;
  private readonly watch = new ChildWatch('the label join process');
  private result: SpellingJoins | undefined;
  private readonly exited: Promise<void>;

  constructor(private readonly builder: LabelKeysBuilder) {
    this.child = fork(join(__dirname, 'label-process.js'), [], {
      serialization: 'advanced', // typed arrays cross as such, not as JSON
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (r: SpellingJoins) => {
      this.result = r;
      this.watch.notify();
    });
    this.exited = this.watch.ended(this.child);
    this.post({ ingredients: builder.ingredients() });
  }

  /** Sends the spellings entered since the last call. */
  send(): void {
    const spellings = this.builder.fresh();
    if (spellings.length > 0) this.post({ spellings, end: false });
  }

  /** Every spelling's join (the last ones sent now); ends the process. */
  async done(): Promise<SpellingJoins> {
    this.post({ spellings: this.builder.fresh(), end: true });
    while (this.result === undefined && this.watch.failure === undefined) await this.watch.wait();
    await this.close();
    if (this.watch.failure !== undefined) throw this.watch.failure;
    return this.result!;
  }

  /** Kills the process (its results are in, or no longer wanted); resolves once it has exited. */
  close(): Promise<void> {
    if (!this.watch.closing) {
      this.watch.closing = true;
      this.child.kill('SIGKILL');
    }
    return this.exited;
  }

  private post(m: LabelMessage): void {
    if (this.watch.failure !== undefined) throw this.watch.failure;
    if (this.child.connected) this.child.send(m); // died: 'exit' reports it
  }
}
