// Error answers to requests whose body is still arriving (over the size limit, refused
// before it was read). Guarantees: the answer is sent once the client has sent the whole
// body, read and discarded, so that closing the connection afterwards never resets it
// under a client still writing (which would lose the answer: a broken pipe instead of a
// 413); a body with more than DISCARD_LIMIT bytes still to come is not waited for: the
// answer is sent at once and the connection closed after it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DISCARD_LIMIT } from './raw-answers';

/** Calls `send` once the request's body has been received (at once when it has, or cannot be waited for). */
export function afterBody(req: FastifyRequest, reply: FastifyReply, send: () => void): void {
  const raw = req.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return send();
  const declared = Number(req.headers['content-length']);
  if (declared > DISCARD_LIMIT) return closeAfter(reply, send);
  let read = 0;
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read <= DISCARD_LIMIT) return;
    stop();
    closeAfter(reply, send);
  };
  const onEnd = () => {
    stop();
    send();
  };
  const stop = () => {
    raw.off('data', onData);
    raw.off('end', onEnd);
  };
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.resume();
}

/** Sends with `Connection: close` (the rest of the body is not read). */
function closeAfter(reply: FastifyReply, send: () => void): void {
  reply.header('connection', 'close');
  send();
}
