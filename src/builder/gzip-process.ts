// The process encodings.ts forks: given the ingredient records once (its first message), it
// unpacks each packed answer of a batch it is sent (format.ts EntryTails#product) and gzips it,
// and sends the results back in the same order. Guarantees: each result is what
// zlib.gzipSync makes with GZIP_OPTIONS of the answer its packed product stands for; nothing
// else runs here; it ends when its parent kills it or goes away.
import { constants, createGzip, gzipSync } from 'node:zlib';
import { EntryTails } from '../catalogue/format';
import { GZIP_OPTIONS, joinPieces, piece, type Pieces, type Start } from './encodings';

let tails: EntryTails | undefined;

process.on('message', (m: Start | Pieces) => {
  if ('records' in m) {
    tails = new EntryTails(m.records.map((r) => Buffer.from(r)));
    return;
  }
  const gzip = m.ords.map((_, i) => gzipOf(tails!.product(piece(m, i))));
  process.send!(joinPieces(m.ords, gzip));
});

/** What a zlib stream's native handle does for a synchronous write (node:zlib's own use of it). */
interface Handle {
  reset(): void;
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
}
/**
 * One gzip stream's native handle, reset for every answer: gzipSync sets zlib's state up and
 * frees it for each (63–69 µs an answer against 55–57 µs this way, the same bytes). The handle
 * and its result (`_writeState`: output then input bytes left) are node:zlib internals; an
 * answer whose gzip form does not fit is made again into a larger buffer. A Node.js whose
 * internals differ (checked once, below) gets gzipSync itself.
 */
const stream = createGzip(GZIP_OPTIONS) as unknown as { _handle: Handle; _writeState: Uint32Array };
let output = Buffer.allocUnsafe(64 * 1024);

/** zlib.gzipSync(answer, GZIP_OPTIONS), in a buffer of its own. */
function compress(answer: Buffer): Buffer {
  for (;;) {
    stream._handle.reset();
    stream._handle.writeSync(constants.Z_FINISH, answer, 0, answer.length, output, 0, output.length);
    const [outLeft, inLeft] = stream._writeState;
    if (inLeft === 0 && outLeft > 0) return Buffer.from(output.subarray(0, output.length - outLeft));
    output = Buffer.allocUnsafe(output.length * 2);
  }
}

/** compress when it makes gzipSync's bytes on this Node.js (checked on one text at start), else gzipSync. */
const gzipOf = ((): ((answer: Buffer) => Buffer) => {
  const probe = Buffer.from(JSON.stringify({ check: 'the reused handle makes gzipSync bytes', n: [1, 2, 3] }));
  try {
    if (compress(probe).equals(gzipSync(probe, GZIP_OPTIONS))) return compress;
  } catch {
    // internals not as expected
  }
  return (answer) => gzipSync(answer, GZIP_OPTIONS);
})();
