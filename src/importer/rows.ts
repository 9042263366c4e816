// Reading the rows of an import file, streamed: CSV, TSV (or OBF's tab-separated
// ".csv") and JSON Lines, each possibly gzip-compressed. Guarantees: rows come in file
// order with the line they end on; a row that cannot be read (bad JSON, broken
// quoting; in JSON Lines also invalid UTF-8 or a line over 1 MiB, read as the build reads
// sources) is reported as FILE:LINE and skipped, never fatal; memory stays bounded by one
// row whatever the file size.
import { parse } from 'csv-parse';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { readLines, SourceReadError, type BadLine } from '../source/lines';

export const FORMATS = ['csv', 'tsv', 'jsonl'] as const;
export type Format = (typeof FORMATS)[number];
export type Row = Readonly<Record<string, unknown>>;
export interface ReadRow {
  line: number;
  row: Row;
}
export interface Problem {
  line: number;
  message: string;
}

/** The format a file name says (a trailing .gz ignored). */
export function formatOf(file: string): Format | null {
  const ext = path.extname(file.replace(/\.gz$/i, '')).toLowerCase();
  return ext === '.csv'
    ? 'csv'
    : ext === '.tsv' || ext === '.tab'
      ? 'tsv'
      : ext === '.jsonl' || ext === '.ndjson'
        ? 'jsonl'
        : null;
}

function open(file: string): Readable {
  const raw = fs.createReadStream(file);
  return /\.gz$/i.test(file) ? raw.pipe(zlib.createGunzip()) : raw;
}

/** The first line of a file (to tell OBF's tab-separated ".csv" from a comma-separated one). */
async function firstLine(file: string): Promise<string> {
  const lines = readline.createInterface({ input: open(file), crlfDelay: Infinity });
  for await (const l of lines) {
    lines.close();
    return l;
  }
  return '';
}

export async function* readRows(file: string, format: Format, problems: Problem[]): AsyncGenerator<ReadRow> {
  if (format === 'jsonl') {
    yield* jsonLines(file, problems);
    return;
  }
  const header = await firstLine(file);
  const tabs = format === 'tsv' || header.split('\t').length > header.split(',').length;
  const parser = open(file).pipe(
    parse({
      bom: true,
      columns: (names: string[]) => names.map((n) => n.trim()),
      delimiter: tabs ? '\t' : ',',
      quote: tabs ? false : '"', // tab-separated exports (OBF) do not quote: a " is part of the text
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
    }),
  );
  parser.on('skip', (err: Error & { lines?: number }) => {
    const line = err.lines ?? 0;
    if (problems[problems.length - 1]?.line !== line) problems.push({ line, message: err.message }); // one reason a row
  });
  for await (const rec of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) {
    yield { line: rec.info.lines, row: rec.record };
  }
}

async function* jsonLines(file: string, problems: Problem[]): AsyncGenerator<ReadRow> {
  const bad = (b: BadLine) => problems.push({ line: b.line, message: b.problem });
  try {
    for await (const { line, text } of readLines(file, bad)) {
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (err) {
        problems.push({ line, message: `not JSON (${(err as Error).message})` });
        continue;
      }
      if (row === null || typeof row !== 'object' || Array.isArray(row))
        problems.push({ line, message: 'not a JSON object' });
      else yield { line, row: row as Row };
    }
  } catch (err) {
    if (!(err instanceof SourceReadError)) throw err;
    problems.push({ line: err.line, message: `cannot read: ${err.message}` });
  }
}
