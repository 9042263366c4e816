// JSON answers of the operation handlers. Guarantees: every body is sent as the JSON
// text the read model already serialized, with one media type. Fastify sends a string
// or Buffer as it is, so the response schemas document these bodies but do not type them.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** The media type of every JSON answer of the operation handlers. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends JSON text as the answer (a stream of its bytes too: a long label analysis, label-pool.ts). */
export function sendJson(reply: FastifyReply, body: Buffer | string | Readable): void {
  reply.type(JSON_TYPE).send(body);
}
