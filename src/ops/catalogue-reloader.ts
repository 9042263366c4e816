// Catalogue release without downtime: switches the served catalogue to the file now
// at the --catalogue path, on request (SIGHUP) or when the path is replaced (a rename
// over it). Guarantees: a file that does not open as a catalogue, or holds no products,
// is refused with a logged reason and the old one keeps serving; the new file is opened in
// steps with requests served between them (Catalogue.openInSteps; its label tables are made
// by the label threads, src/catalogue/label-pool.ts), one reload at a time; the swap is one
// reference assignment, and the old file is closed only after every handler that could hold it has returned.
// A served file overwritten in place (`cp new.db served.db` instead of a rename) cannot
// be served any more (its open handle now reads the new bytes under the old indexes): it
// is noticed as soon as the file changes (a watch on it, and the poll), `problem` then
// says why (the app answers 503 with it, /health included) and an error line tells the
// operator what to do; once the file has stopped changing for a poll it is opened again,
// and serving resumes when it is a catalogue.
import * as fs from 'node:fs';
import type { Logger } from 'pino';
import { Catalogue, type CatalogueRef } from '../catalogue/read-model';

/** How often the path is checked for a replacement. */
const POLL_MS = 1000;

/** What the app answers (503) while the served file is being overwritten in place. */
export const OVERWRITTEN =
  'the catalogue file was overwritten while being served; the service resumes once a complete catalogue is in place, retry shortly';

const OPERATOR_HINT =
  'catalogue file overwritten in place while served: answering 503 until the file at the path is a complete catalogue; release a catalogue by renaming a complete file over the path (mv new.db served.db), never by copying over it (cp)';

export type ReloadOutcome = 'swapped' | 'refused';

interface Identity {
  /** The file (device and inode): a rename over the path changes it, writing into the file does not. */
  file: string;
  /** The file and its content's size and modification time. */
  full: string;
}

export class CatalogueReloader {
  private seen: Identity | undefined;
  private timer: NodeJS.Timeout | undefined;
  private watcher: fs.FSWatcher | undefined;
  /** Set while the served file is overwritten in place: why, its identity at the last poll, and one that was refused. */
  private damaged: { reason: string; last: string; refused?: string } | undefined;
  /** The reload under way (reloads run one after the other). */
  private reloading: Promise<ReloadOutcome> = Promise.resolve('refused');

  /** The served catalogue: read `ref.current` once per request. */
  readonly ref: CatalogueRef;

  /** Opens the file at the path (throws when it is not a catalogue); watch() starts following it. */
  constructor(
    private readonly file: string,
    private readonly log: Logger,
    private readonly onReload: (outcome: ReloadOutcome, catalogue: Catalogue) => void = () => {},
  ) {
    this.seen = identity(file);
    try {
      this.ref = { current: Catalogue.open(file) };
    } catch (err) {
      throw new Error(`cannot serve ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Why the served catalogue cannot answer now (the app answers 503 with it), or undefined. */
  get problem(): string | undefined {
    return this.damaged?.reason;
  }

  /**
   * Opens the file at the path and serves it, or refuses it and keeps the current one; after
   * any reload under way. The file is opened in steps, requests served between them.
   */
  reload(trigger: string): Promise<ReloadOutcome> {
    return (this.reloading = this.reloading.then(() => this.reloadNow(trigger)));
  }

  private async reloadNow(trigger: string): Promise<ReloadOutcome> {
    this.seen = identity(this.file);
    let next: Catalogue;
    try {
      next = await openServable(this.file);
    } catch (err) {
      const c = this.ref.current;
      const reason = err instanceof Error ? err.message : String(err);
      if (this.damaged) {
        this.damaged.refused = this.seen?.full; // tried again only once the file changes
        this.log.error({ trigger, file: this.file, reason }, `catalogue refused; ${OPERATOR_HINT}`);
      } else
        this.log.error(
          { trigger, file: this.file, reason },
          `catalogue refused; still serving the one built ${c.builtAt}`,
        );
      this.onReload('refused', c);
      return 'refused';
    }
    const old = this.ref.current;
    this.ref.current = next;
    this.damaged = undefined;
    // Handlers read the catalogue synchronously, so none still holds `old` once this tick ends.
    setImmediate(() => old.close());
    this.log.info(
      { trigger, file: this.file, products: next.products, ingredients: next.ingredients, built_at: next.builtAt },
      'catalogue swapped',
    );
    this.onReload('swapped', next);
    if (this.timer !== undefined) this.follow();
    return 'swapped';
  }

  /** Reloads whenever the path starts naming a different or changed file (checked every second). */
  watch(): void {
    // Compared with what was last opened (not with the previous poll), so no change is ever missed.
    this.timer ??= setInterval(() => this.poll(), POLL_MS).unref();
    this.follow();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Watches the served file itself, so that writes into it are noticed at once rather than at the next poll. */
  private follow(): void {
    this.watcher?.close();
    try {
      this.watcher = fs.watch(this.file, { persistent: false }, () => this.noticeOverwrite());
      this.watcher.on('error', () => {});
    } catch {
      this.watcher = undefined; // the poll still notices
    }
  }

  private poll(): void {
    const now = identity(this.file);
    if (now === undefined) return;
    if (this.damaged) {
      // Opened again only once the file has stopped changing for a whole poll.
      if (now.full === this.damaged.last && now.full !== this.damaged.refused)
        void this.reload('file overwritten in place');
      else this.damaged.last = now.full;
    } else if (now.full !== this.seen?.full) {
      if (now.file === this.seen?.file) this.noticeOverwrite();
      else void this.reload('file replaced');
    }
  }

  /** The served file's bytes changed under its open handle: stop answering from it. */
  private noticeOverwrite(): void {
    const now = identity(this.file);
    if (this.damaged || now === undefined || now.file !== this.seen?.file || now.full === this.seen.full) return;
    this.damaged = { reason: OVERWRITTEN, last: now.full };
    this.log.error({ file: this.file }, OPERATOR_HINT);
  }
}

/** Opens a catalogue to switch to; one with no products would answer every request empty, so it is refused. */
async function openServable(file: string): Promise<Catalogue> {
  const c = await Catalogue.openInSteps(file);
  if (c.products > 0) return c;
  c.close();
  throw new Error('the catalogue has no products');
}

/** What the path currently names, or undefined when it names nothing. */
function identity(file: string): Identity | undefined {
  try {
    const s = fs.statSync(file);
    return { file: `${s.dev}:${s.ino}`, full: `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}` };
  } catch {
    return undefined;
  }
}
