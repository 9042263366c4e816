// Plain-text tables for the operator commands (keys list, usage). Guarantees: columns
// are separated by two spaces and padded to their widest cell; a column whose first
// row holds a number is right-aligned; no line has trailing spaces.

/** The table of `head` and `rows` as text, one line per row, ending in a newline. */
export function table(head: string[], rows: (string | number)[][]): string {
  const all = [head, ...rows].map((r) => r.map(String));
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return (
    all
      .map((r) =>
        r
          .map((c, i) => (typeof rows[0]?.[i] === 'number' ? c.padStart(widths[i]) : c.padEnd(widths[i])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
