// Build errors. Guarantees: every problem found in a catalogue source is kept as
// one `FILE:LINE: message` string (the first MAX_KEPT of them; all are counted),
// so a failed build can show the user everything that is wrong at once.
export const MAX_KEPT = 1000;

/** Thrown by buildCatalogue when the source is bad; nothing was written. */
export class BuildError extends Error {
  constructor(
    /** The first MAX_KEPT messages, in the order found. */
    readonly errors: readonly string[],
    /** How many errors were found in all (may exceed errors.length). */
    readonly total: number = errors.length,
  ) {
    super(`${total} error${total === 1 ? '' : 's'} in the catalogue source; first: ${errors[0]}`);
    this.name = 'BuildError';
  }
}

/** Collects errors across both source files. */
export class ErrorLog {
  readonly kept: string[] = [];
  total = 0;
  add(message: string): void {
    if (this.kept.length < MAX_KEPT) this.kept.push(message);
    this.total++;
  }
  throwIfAny(): void {
    if (this.total > 0) throw new BuildError(this.kept, this.total);
  }
}
