// The worker thread of encodings.ts: gzips each batch of answers it is sent and sends the
// results back in the same order. Guarantees: the output is what zlib.gzipSync makes with
// GZIP_OPTIONS; nothing else runs here.
import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { GZIP_OPTIONS, type CompressBatch, type CompressedBatch } from './encodings';

parentPort!.on('message', (batch: CompressBatch) => {
  const reply: CompressedBatch = { ords: batch.ords, gzip: batch.answers.map((a) => gzipSync(a, GZIP_OPTIONS)) };
  parentPort!.postMessage(reply);
});
