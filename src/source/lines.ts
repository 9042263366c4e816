// Reading a catalogue source file line by line (catalogue-source.md), shared by the
// build and the importer. Guarantees: the file is read as UTF-8 one line at a time
// (never whole, gunzipped when it ends in .gz), and every non-blank line is yielded
// with its 1-based physical line number; `\n` and `\r\n` ends are both accepted. A line
// that is not valid UTF-8, or longer than MAX_LINE_BYTES, is reported, never decoded
// with replacement characters nor held whole; a read failure names the line reached.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

export interface SourceLine {
  line: number;
  text: string;
}

/** Longest source line accepted (bytes, line end excluded); longer lines are reported and skipped unread. */
export const MAX_LINE_BYTES = 1 << 20;

/** A line that cannot be a record: invalid UTF-8 or longer than MAX_LINE_BYTES. */
export interface BadLine {
  line: number;
  problem: string;
}

/** A read failure (I/O, truncated or corrupt gzip, vanished file) at a known line. */
export class SourceReadError extends Error {
  constructor(
    readonly line: number,
    readonly cause: NodeJS.ErrnoException,
  ) {
    super(cause.code === 'ENOENT' ? 'the file is missing' : cause.message);
  }
}

/**
 * Non-blank lines of the file (gunzipped when it ends in .gz). A UTF-8 byte-order mark is
 * dropped. Lines that are not valid UTF-8 or are too long go to `bad` instead (a long
 * line is never held whole). A read failure throws a SourceReadError naming the line reached.
 */
export async function* readLines(file: string, bad: (b: BadLine) => void = () => {}): AsyncGenerator<SourceLine> {
  // 64 KiB chunks: the build's event loop turns between chunks, and that is when it reads the
  // gzip process's results (encodings.ts); with 1 MiB chunks that process sat idle.
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 16 });
  const input = file.endsWith('.gz') ? raw.pipe(zlib.createGunzip()) : raw;
  if (input !== raw) raw.on('error', (err) => input.destroy(err));
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1;
  const finish = (): SourceLine | null => {
    const at = line++;
    const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts.length = 0;
    size = 0;
    if (tooLong) {
      tooLong = false;
      bad({ line: at, problem: `line is longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes` });
      return null;
    }
    let text: string;
    try {
      text = decoder.decode(bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes);
    } catch {
      bad({ line: at, problem: `invalid UTF-8 at byte ${firstInvalid(bytes) + 1} of the line` });
      return null;
    }
    if (at === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text.trim() === '' ? null : { line: at, text };
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        take(chunk.subarray(start, nl));
        start = nl + 1;
        const l = finish();
        if (l) yield l;
      }
      take(chunk.subarray(start));
    }
    if (size > 0 || tooLong) {
      const l = finish();
      if (l) yield l;
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e.errno !== 'number' && typeof e.code !== 'string') throw err;
    throw new SourceReadError(line, e);
  } finally {
    raw.destroy();
  }

  function take(piece: Buffer): void {
    if (piece.length === 0 || tooLong) return;
    if (size + piece.length > MAX_LINE_BYTES) {
      tooLong = true;
      parts.length = 0;
      size = 0;
      return;
    }
    parts.push(piece); // a view, not a copy: a stream never writes again into a chunk it has given out
    size += piece.length;
  }
}

/** Index of the first byte where `bytes` stops being valid UTF-8. */
export function firstInvalid(bytes: Buffer): number {
  const d = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      d.decode(bytes.subarray(0, mid), { stream: true });
      d.decode();
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}
