// Joining a parsed label's entries, in label order. Guarantees: one result per entry
// kept, in label order; two neighbouring entries that join to nothing on their own
// but together spell a name ("Ethylhexyl, Methoxycinnamate" — a comma printed inside a
// name) become one entry, printed as both; nothing else is merged or dropped. A name
// printed several times (shade ranges, kits) is joined once.
import type { LabelEntry } from './parser';
import type { Join, LabelJoiner } from './joiner';

export interface JoinedEntry<T> extends LabelEntry {
  join: Join<T> | null;
}

export function joinEntries<T>(entries: readonly LabelEntry[], joiner: LabelJoiner<T>): JoinedEntry<T>[] {
  const out: JoinedEntry<T>[] = [];
  const memo = new Map<string, Join<T> | null>();
  const join1 = (name: string): Join<T> | null => {
    let j = memo.get(name);
    if (j === undefined) memo.set(name, (j = joiner.join(name)));
    return j;
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const join = join1(e.label_name);
    const next = entries[i + 1];
    if (join === null && next !== undefined && next.may_contain === e.may_contain) {
      const both = `${e.label_name}, ${next.label_name}`;
      const pair = join1(next.label_name) === null ? join1(both) : null;
      if (pair !== null) {
        out.push({ ...e, label_name: both, concentration: e.concentration ?? next.concentration, join: pair });
        i++;
        continue;
      }
    }
    out.push({ label_name: e.label_name, concentration: e.concentration, may_contain: e.may_contain, join });
  }
  return out;
}
