// Joining a parsed label's entries, in label order. Guarantees: one result per entry
// kept, in label order; two neighbouring entries that join to nothing on their own
// but together spell a name ("Ethylhexyl, Methoxycinnamate" — a comma printed inside a
// name) become one entry, printed as both, unless the pair joins only by a colour index
// or the second is two names itself; nothing else is merged or dropped. A name
// printed several times (shade ranges, kits) is joined once (across the lists of one
// JoinMemo) while fewer than MEMO_LIMIT other names came between. An entry that is two names
// printed without a separator ("Glycerin Butylene Glycol") becomes two entries, each
// joined with rule "split" (LabelJoiner.split).
import type { LabelEntry } from './parser';
import type { Join, JoinNote, LabelJoiner, SplitPart } from './joiner';

export interface JoinedEntry<T> extends LabelEntry {
  join: Join<T> | null;
}

export function joinEntries<T>(entries: readonly LabelEntry[], joiner: LabelJoiner<T>): JoinedEntry<T>[] {
  return [...eachJoinedEntry(entries, joiner)];
}

/** What one printed name gave: its join, and its split once asked (undefined: not yet). */
interface Remembered<T> extends JoinNote {
  join: Join<T> | null;
  parts?: [SplitPart<T>, SplitPart<T>] | null;
}

/** Each printed name's join and split, for joining several lists of one label (its sections) with one look-up per name. */
export type JoinMemo<T> = Map<string, Remembered<T>>;

/**
 * Entries a memo of one analysis holds at most (JoinMemo, label-analysis.ts): a memo that
 * holds this many is emptied before the next is added. A label's names recur within a few
 * hundred (a list, a shade range's sections); a memo of every distinct name of a long label
 * (up to 10,000) outlived the young generation's collections and was copied and promoted by
 * each of them, which made a 100,000-character label cost more than four 25,000-character
 * ones (docs/labels.md, "Memos of one analysis are bounded"). Answers do not depend on it.
 */
export const MEMO_LIMIT = 1024;

/** map.set(key, value), the map emptied first when it holds MEMO_LIMIT entries; gives value. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= MEMO_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

/**
 * joinEntries one entry at a time (a caller may pause between them: label-analysis.ts);
 * `memo` may be shared by the lists of one label (joins are pure).
 */
export function* eachJoinedEntry<T>(
  entries: readonly LabelEntry[],
  joiner: LabelJoiner<T>,
  memo: JoinMemo<T> = new Map(),
): Generator<JoinedEntry<T>> {
  const known = (name: string): Remembered<T> => {
    let r = memo.get(name);
    if (r === undefined) {
      r = { join: null, stop: 0, pair: 0 };
      r.join = joiner.join(name, r);
      remember(memo, name, r);
    }
    return r;
  };
  /** The join of two neighbours printed as one name (joinPair), remembered as that name's. */
  const pairOf = (both: string, a: string, ra: Remembered<T>, b: string, rb: Remembered<T>): Join<T> | null => {
    let r = memo.get(both);
    if (r === undefined) r = remember(memo, both, { join: joiner.joinPair(a, b, ra, rb, both), stop: 0, pair: 0 });
    return r.join;
  };
  /** The name's split (splitOf given its join). */
  const split1 = (r: Remembered<T>, name: string) => (r.parts ??= splitOf(name, r.join, joiner));
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const r = known(e.label_name);
    const join = r.join;
    // Two names printed without a separator: two entries, never a join to one of them.
    const parts = split1(r, e.label_name);
    if (parts !== null) {
      for (const p of parts)
        yield { label_name: p.text, concentration: null, may_contain: e.may_contain, join: p.join };
      continue;
    }
    const next = entries[i + 1];
    if (join === null && next !== undefined && next.may_contain === e.may_contain) {
      const rn = known(next.label_name);
      // Most pairs are known to join nothing from what joining each name found (pairMayJoin).
      const mayJoin = rn.join === null && joiner.pairMayJoin(e.label_name, next.label_name, r, rn);
      const both = mayJoin ? `${e.label_name}, ${next.label_name}` : '';
      const pair = mayJoin ? pairOf(both, e.label_name, r, next.label_name, rn) : null;
      // Not when the pair is joined by a colour index, or the next entry is two names itself.
      if (pair !== null && pair.rule !== 'colour_index' && split1(rn, next.label_name) === null) {
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
