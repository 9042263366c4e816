// Long work done in steps, so that the event loop can run between them: a catalogue swap
// opens the new file this way (Catalogue.openInSteps), each index built by a generator that
// pauses (yields) after a bounded amount of work. Guarantees: completed() runs such steps to
// the end without pausing and gives their result, exactly as the paused run would.

/** Work that pauses (yields) between steps and ends with a T. */
export type Steps<T> = Generator<void, T>;

/** The result of `steps`, run to the end at once. */
export function completed<T>(steps: Steps<T>): T {
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}
