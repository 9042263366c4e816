// CSV reading for the raw files, on csv-parse: RFC-4180 quoting (commas, doubled quotes
// and line breaks inside quoted cells), a leading UTF-8 BOM ignored, CRLF or LF row ends.
// Guarantees: every row in file order as raw cell strings; blank lines skipped; rows may
// have fewer or more cells than the header (the CosIng annexes do).
import { parse } from 'csv-parse/sync';

export function parseCsv(text: string): string[][] {
  const rows: string[][] = parse(text, {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
  });
  return rows;
}

/** Rows as objects keyed by the header row (cells past the header are ignored). */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((r) => {
    const o: Record<string, string> = {};
    header.forEach((h, i) => {
      o[h.trim()] = r[i] ?? '';
    });
    return o;
  });
}
