// The worker thread of encodings.ts: unpacks each packed answer of a batch it is sent
// (format.ts unpackProduct, with the ingredient records it is given once, as workerData)
// and gzips it, and sends the results back in the same order. Guarantees: each result is
// what zlib.gzipSync makes with GZIP_OPTIONS of the answer its packed product stands for;
// nothing else runs here.
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { entryTails, unpackProduct } from '../catalogue/format';
import { GZIP_OPTIONS, joinPieces, piece, type Pieces, type WorkerData } from './encodings';

const tails = entryTails((workerData as WorkerData).records.map((r) => Buffer.from(r)));

parentPort!.on('message', (batch: Pieces | null) => {
  if (batch === null) return parentPort!.close(); // the end: the thread exits once idle
  const gzip = batch.ords.map((_, i) => gzipSync(unpackProduct(piece(batch, i), tails), GZIP_OPTIONS));
  const reply = joinPieces(batch.ords, gzip);
  parentPort!.postMessage(reply, [reply.data.buffer as ArrayBuffer]);
});
