// The process encodings.ts forks: given the ingredient records once (its first message), it
// unpacks each packed answer of a batch it is sent (format.ts EntryTails#product) and gzips it,
// and sends the results back in the same order. Guarantees: each result is what
// zlib.gzipSync makes with GZIP_OPTIONS of the answer its packed product stands for; nothing
// else runs here; it ends when its parent kills it or goes away.
import { gzipSync } from 'node:zlib';
import { EntryTails } from '../catalogue/format';
import { GZIP_OPTIONS, joinPieces, piece, type Pieces, type Start } from './encodings';

let tails: EntryTails | undefined;

process.on('message', (m: Start | Pieces) => {
  if ('records' in m) {
    tails = new EntryTails(m.records.map((r) => Buffer.from(r)));
    return;
  }
  const gzip = m.ords.map((_, i) => gzipSync(tails!.product(piece(m, i)), GZIP_OPTIONS));
  process.send!(joinPieces(m.ords, gzip));
});
