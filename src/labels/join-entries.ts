// Joining a parsed label's entries, in label order. Guarantees: one result per entry
// kept, in label order; two neighbouring entries that join to nothing on their own
// but together spell a name ("Ethylhexyl, Methoxycinnamate" — a comma printed inside a
// name) become one entry, printed as both, unless the pair joins only by a colour index
// or the second is two names itself; nothing else is merged or dropped. A name
// printed several times (shade ranges, kits) is joined once. An entry that is two names
// printed without a separator ("Glycerin Butylene Glycol") becomes two entries, each
// joined with rule "split" (LabelJoiner.split).
import type { LabelEntry } from './parser';
import type { Join, LabelJoiner, SplitPart } from './joiner';

export interface JoinedEntry<T> extends LabelEntry {
  join: Join<T> | null;
}

export function joinEntries<T>(entries: readonly LabelEntry[], joiner: LabelJoiner<T>): JoinedEntry<T>[] {
  return [...eachJoinedEntry(entries, joiner)];
}

/** joinEntries one entry at a time (a caller may pause between them: label-analysis.ts). */
export function* eachJoinedEntry<T>(entries: readonly LabelEntry[], joiner: LabelJoiner<T>): Generator<JoinedEntry<T>> {
  const memo = new Map<string, Join<T> | null>();
  const splits = new Map<string, [SplitPart<T>, SplitPart<T>] | null>();
  const join1 = (name: string): Join<T> | null => {
    let j = memo.get(name);
    if (j === undefined) memo.set(name, (j = joiner.join(name)));
    return j;
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const join = join1(e.label_name);
    // Two names printed without a separator: two entries, never a join to one of them.
    let parts = splits.get(e.label_name);
    if (parts === undefined) splits.set(e.label_name, (parts = splitOf(e.label_name, join, joiner)));
    if (parts !== null) {
      for (const p of parts)
        yield { label_name: p.text, concentration: null, may_contain: e.may_contain, join: p.join };
      continue;
    }
    const next = entries[i + 1];
    if (join === null && next !== undefined && next.may_contain === e.may_contain) {
      const both = `${e.label_name}, ${next.label_name}`;
      const pair = join1(next.label_name) === null ? join1(both) : null;
      // Not when the pair is joined by a colour index, or the next entry is two names itself.
      if (pair !== null && pair.rule !== 'colour_index' && splitOf(next.label_name, null, joiner) === null) {
        yield { ...e, label_name: both, concentration: e.concentration ?? next.concentration, join: pair };
        i++;
        continue;
      }
    }
    yield { label_name: e.label_name, concentration: e.concentration, may_contain: e.may_contain, join };
  }
}

/**
 * The two names a printed entry splits into, or null: tried at any space when it joined
 * to nothing, and at "(and)" or a full stop when it joined tolerantly or by a synonym.
 */
export function splitOf<T>(
  label: string,
  join: Join<T> | null,
  joiner: LabelJoiner<T>,
): [SplitPart<T>, SplitPart<T>] | null {
  if (join === null) return joiner.split(label, true);
  const tryIt = (join.how === 'tolerant' && join.rule === undefined) || join.how === 'synonym';
  return tryIt ? joiner.split(label, false) : null;
}
