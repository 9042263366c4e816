// Catalogue release without downtime: switches the served catalogue to the file now
// at the --catalogue path, on request (SIGHUP) or when the path is replaced (a rename
// over it). Guarantees: a file that does not open as a catalogue, or holds no products,
// is refused with a logged reason and the old one keeps serving; the swap is one reference assignment,
// and the old file is closed only after every handler that could hold it has returned.
import * as fs from 'node:fs';
import type { Logger } from 'pino';
import { Catalogue, type CatalogueRef } from '../catalogue/read-model';

/** How often the path is checked for a replacement. */
const POLL_MS = 1000;

export type ReloadOutcome = 'swapped' | 'refused';

export class CatalogueReloader {
  private seen: string;
  private timer: NodeJS.Timeout | undefined;

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

  /** Opens the file at the path and serves it, or refuses it and keeps the current one. */
  reload(trigger: string): ReloadOutcome {
    const before = identity(this.file);
    this.seen = before;
    let next: Catalogue;
    try {
      next = openServable(this.file);
    } catch (err) {
      const c = this.ref.current;
      this.log.error(
        { trigger, file: this.file, reason: err instanceof Error ? err.message : String(err) },
        `catalogue refused; still serving the one built ${c.builtAt}`,
      );
      this.onReload('refused', c);
      return 'refused';
    }
    const old = this.ref.current;
    this.ref.current = next;
    // Handlers read the catalogue synchronously, so none still holds `old` once this tick ends.
    setImmediate(() => old.close());
    this.log.info(
      { trigger, file: this.file, products: next.products, ingredients: next.ingredients, built_at: next.builtAt },
      'catalogue swapped',
    );
    this.onReload('swapped', next);
    return 'swapped';
  }

  /** Reloads whenever the path starts naming a different or changed file (checked every second). */
  watch(): void {
    // Compared with what was last opened (not with the previous poll), so no change is ever missed.
    this.timer ??= setInterval(() => {
      const now = identity(this.file);
      if (now !== this.seen && now !== 'missing') this.reload('file replaced');
    }, POLL_MS).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Opens a catalogue to switch to; one with no products would answer every request empty, so it is refused. */
function openServable(file: string): Catalogue {
  const c = Catalogue.open(file);
  if (c.products > 0) return c;
  c.close();
  throw new Error('the catalogue has no products');
}

/** What the path currently names: inode, size and modification time, or 'missing'. */
function identity(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
