// CSV for the usage downloads (RFC 4180). Guarantees: every field that holds a comma, quote or
// line break is quoted with inner quotes doubled; a field a spreadsheet would read as a
// formula (starting with = + - @) is prefixed with a quote mark.

function cell(v: string | number | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csv(head: string[], rows: (string | number | undefined)[][]): string {
  return [head, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
