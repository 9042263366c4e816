// Answers to requests whose body is still arriving (refused before it was read, over the
// size limit, or not read at all: a 404, a body on a GET). Guarantees: the answer is sent
// once the client has sent the whole body, read and discarded, so that the connection
// closing after the answer (Connection: close, or an error that closes it) never resets
// it under a client still writing, which would lose the answer (a broken pipe instead of
// a 413); no more than DISCARD_LIMIT bytes are waited for: beyond them the answer is sent
// at once with Connection: close. A request with no body, or whose body has been read,
// is answered at once.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Bytes of a request still arriving that are read and thrown away before answering or closing. */
export const DISCARD_LIMIT = 1024 * 1024;

/** True when the request has a body not yet wholly received. */
function bodyPending(raw: IncomingMessage): boolean {
  const h = raw.headers;
  if (h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0'))
    return false;
  return !(raw.complete || raw.readableEnded || raw.destroyed);
}

/**
 * Calls `answer` once the request's body has been received (read and discarded), or at
 * once; `closing` is true when the rest of the body will not be read (over DISCARD_LIMIT).
 */
export function afterBody(raw: IncomingMessage, answer: (closing: boolean) => void): void {
  if (!bodyPending(raw)) return answer(false);
  if (Number(raw.headers['content-length']) > DISCARD_LIMIT) return answer(true);
  let read = 0;
  let answered = false;
  const finish = (closing: boolean) => {
    if (answered) return;
    answered = true;
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.socket?.off('close', onEnd);
    answer(closing);
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > DISCARD_LIMIT) finish(true);
  };
  const onEnd = () => finish(false);
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.socket?.once('close', onEnd);
  raw.resume();
}

/** Holds every answer of the app until its request's body has been received (see above). */
export function installBodyDrain(app: FastifyInstance): void {
  app.addHook(
    'onSend',
    (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
      afterBody(req.raw, (closing) => {
        if (closing) reply.header('connection', 'close');
        done(null, payload);
      });
    },
  );
}
