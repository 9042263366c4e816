// Reading the rows of an import file, streamed: CSV, TSV (or OBF's tab-separated
// ".csv") and JSON Lines, each possibly gzip-compressed. Guarantees: rows come in file
// order with the line they end on; a row that cannot be read (bad JSON, broken
// quoting; in JSON Lines also invalid UTF-8 or a line over 1 MiB, read as the build reads
// sources) is reported as FILE:LINE and skipped; a file that cannot be read to its end
// (truncated or corrupt gzip, I/O error) and a CSV or TSV file that is not UTF-8 fail the
// whole import with an ImportInputError naming FILE:LINE (the line reached), never with
// replacement characters or half the rows; memory stays bounded by one row whatever the
// file size.
import { parse } from 'csv-parse';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { firstInvalid, readLines, SourceReadError, type BadLine } from '../source/lines';

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

/** An input file the import cannot use at all: FILE:LINE: reason. */
export class ImportInputError extends Error {
  constructor(file: string, line: number, reason: string) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ImportInputError';
  }
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

export async function* readRows(file: string, format: Format, problems: Problem[]): AsyncGenerator<ReadRow> {
  if (format === 'jsonl') yield* jsonLines(file, problems);
  else yield* csvRows(file, format, problems);
}

async function* csvRows(file: string, format: Format, problems: Problem[]): AsyncGenerator<ReadRow> {
  const text = textOf(file);
  const head: string[] = []; // read up to the end of the header line, then replayed to the parser
  for (let r = await text.next(); !r.done; r = await text.next()) {
    head.push(r.value);
    if (r.value.includes('\n')) break;
  }
  const header = head.join('').split('\n', 1)[0];
  const tabs = format === 'tsv' || header.split('\t').length > header.split(',').length;
  const parser = parse({
    bom: true,
    columns: (names: string[]) => names.map((n) => n.trim()),
    delimiter: tabs ? '\t' : ',',
    quote: tabs ? false : '"', // tab-separated exports (OBF) do not quote: a " is part of the text
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
  });
  const source = Readable.from(replay(head, text));
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  parser.on('skip', (err: Error & { lines?: number }) => {
    const line = err.lines ?? 0;
    if (problems[problems.length - 1]?.line !== line) problems.push({ line, message: err.message }); // one reason a row
  });
  for await (const rec of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) {
    yield { line: rec.info.lines, row: rec.record };
  }
}

async function* replay(head: readonly string[], rest: AsyncGenerator<string>): AsyncGenerator<string> {
  try {
    yield* head;
    for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
  } finally {
    await rest.return(undefined); // closes the file when the parser stops early
  }
}

/**
 * The text of a file (gunzipped when it ends in .gz), chunk by chunk, decoded as UTF-8
 * (a byte-order mark dropped). Invalid UTF-8 and read failures throw an ImportInputError
 * naming the line reached.
 */
async function* textOf(file: string): AsyncGenerator<string> {
  const raw = fs.createReadStream(file);
  const input = /\.gz$/i.test(file) ? raw.pipe(zlib.createGunzip()) : raw;
  if (input !== raw) raw.on('error', (err) => input.destroy(err));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw notUtf8(file, line + newlines(chunk.subarray(0, firstInvalid(chunk))));
      }
      line += newlines(chunk);
      yield text;
    }
    try {
      decoder.decode();
    } catch {
      throw notUtf8(file, line);
    }
  } catch (err) {
    if (err instanceof ImportInputError) throw err;
    throw readFailure(file, line, err as NodeJS.ErrnoException);
  } finally {
    raw.destroy();
  }
}

function newlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

function notUtf8(file: string, line: number): ImportInputError {
  return new ImportInputError(
    file,
    line,
    'invalid UTF-8: the file must be UTF-8 (convert it first, e.g. iconv -f WINDOWS-1252 -t UTF-8)',
  );
}

/** A read failure at a line: a truncated gzip says so; anything else says what the system said. */
function readFailure(file: string, line: number, err: NodeJS.ErrnoException): Error {
  if (typeof err.errno !== 'number' && typeof err.code !== 'string') return err; // not an I/O or zlib error
  if (err.code === 'Z_BUF_ERROR') return new ImportInputError(file, line, 'file is truncated');
  return new ImportInputError(file, line, `cannot read: ${err.message}`);
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
    throw readFailure(file, err.line, err.cause);
  }
}
