// Answers Node would give before fastify sees a request: unparseable HTTP (bad header line,
// headers over the limit, a request too slow to arrive), CONNECT (which Node never routes),
// an Expect header other than 100-continue and an HTTP/1.1 request without Host (both of
// which Node answers with a bare status of its own unless told otherwise). Guarantees:
// each gets the spec's error body with the security headers and one log line with its
// status; a connection the answer closes is closed only once the client has stopped
// sending (read and discarded up to DISCARD_LIMIT bytes, or LINGER_MS), so the client
// reads the answer instead of a reset and no socket is left open; the log line never
// carries the request's bytes (a parse error's `rawPacket` holds them, API key included),
// only the error's code and Node's message, which names no header value.
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../shared/errors';
import { securityHeaders } from './security-headers';

/** Bytes of a request still arriving that are read and thrown away before its connection is closed. */
export const DISCARD_LIMIT = 1024 * 1024;
/** Longest wait for a client to stop sending before its connection is closed anyway. */
const LINGER_MS = 5_000;

interface ClientError extends Error {
  code?: string;
}

function errorBody(status: number, message: string): string {
  return JSON.stringify({ statusCode: status, error: STATUS_CODES[status] ?? 'Error', message });
}

function rawResponse(status: number, message: string): string {
  const body = errorBody(status, message);
  const headers = Object.entries(securityHeaders('/'))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}content-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/**
 * Sends `answer` and closes the connection once the client has finished sending (its end
 * of the connection closed), reading and discarding what it still sends, up to
 * DISCARD_LIMIT bytes or LINGER_MS; then the socket is destroyed whatever the client does.
 * Closing at once would make the kernel reset a connection with unread bytes, and the
 * client could lose the answer; never closing would leak the socket.
 */
export function lingeringClose(socket: Duplex, answer: string): void {
  let read = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.on('error', () => {});
  socket.on('data', (d: Buffer) => {
    read += d.length;
    if (read > DISCARD_LIMIT) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  socket.end(answer);
  socket.resume();
}

function statusOf(err: ClientError): [number, string] {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Client Timeout'];
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, 'Exceeded maximum allowed HTTP header size'];
  return [400, 'Client Error'];
}

/** fastify's clientErrorHandler: the same answers as fastify's own, logged without the request bytes. */
export function clientErrorHandler(this: FastifyInstance, err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = statusOf(err);
  this.log.info(
    { method: null, route: null, status, key: null, err: { code: err.code ?? null, message: err.message } },
    'client error',
  );
  if (socket.writable) socket.write(rawResponse(status, message));
  socket.destroy();
}

/** Answers CONNECT (never served: this is not a proxy) with 405 and closes the connection. */
export function answerConnect(app: FastifyInstance): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    app.log.info({ method: req.method, route: null, status: 405, key: null }, 'request');
    lingeringClose(socket, rawResponse(405, `Method ${req.method} is not allowed`));
  };
}

/**
 * Answers an Expect header other than 100-continue (Node's 'checkExpectation'): 417 in the
 * error shape; the connection stays usable (Node reads past the unread body).
 */
export function answerExpectation(app: FastifyInstance): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    app.log.info({ method: req.method, route: null, status: 417, key: null }, 'request');
    const body = errorBody(417, 'the Expect header is not supported; only 100-continue is');
    res.writeHead(417, {
      ...securityHeaders(req.url ?? '/'),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
}

/**
 * Refuses an HTTP/1.1 request without a Host header (RFC 9112 §3.2) in the error shape.
 * Node's own check (requireHostHeader) answers a bare 400, so the app turns it off and
 * this hook does it instead.
 */
export function requireHost(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  if (req.headers.host === undefined && req.raw.httpVersion === '1.1')
    done(new ApiError('bad_request', 'the Host header is required'));
  else done();
}
