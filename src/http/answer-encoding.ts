// Compressed product answers: which stored form a client gets. Guarantees: a client whose
// Accept-Encoding accepts gzip (q > 0, by name or by `*`) gets the gzip form compressed at
// build time, with Content-Encoding; every other client gets the JSON as is;
// every product answer carries `Vary: Accept-Encoding` so shared caches keep them apart.
// Per request: one lookup of the header's value among the values already seen (bounded).
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import type { AnswerEncoding } from '../catalogue/read-model';
import { sendJson } from './json';

const OFFERED = ['gzip'];

/** How the two product operations describe this in the OpenAPI document. */
export const COMPRESSED_ANSWERS =
  'Sent gzip-compressed (Content-Encoding: gzip, compressed once when the catalogue was built) to clients whose Accept-Encoding accepts gzip; as plain JSON otherwise. Every 200 answer carries Vary: Accept-Encoding.';
/** Distinct Accept-Encoding values remembered; real clients send a handful. */
const REMEMBERED = 256;
const seen = new Map<string, AnswerEncoding>();

/** The form of a product answer to send for this Accept-Encoding header value. */
export function answerEncoding(accept: string | undefined): AnswerEncoding {
  if (accept === undefined) return 'identity';
  let encoding = seen.get(accept);
  if (encoding === undefined) {
    encoding = negotiate(accept.toLowerCase(), OFFERED) === 'gzip' ? 'gzip' : 'identity';
    if (seen.size >= REMEMBERED) seen.clear();
    seen.set(accept, encoding);
  }
  return encoding;
}

/** Sends a product answer in the form answerEncoding() chose. */
export function sendAnswer(reply: FastifyReply, answer: Buffer, encoding: AnswerEncoding): void {
  reply.header('vary', 'Accept-Encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  sendJson(reply, answer);
}
