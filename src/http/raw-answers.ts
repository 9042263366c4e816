// Answers Node gives before fastify sees a request: unparseable HTTP (bad header line,
// headers over the limit, a request too slow to arrive) and CONNECT, which Node never
// routes. Guarantees: each gets the spec's error body with the security headers and
// `Connection: close`, and one log line with its status; the log line never carries the
// request's bytes (a parse error's `rawPacket` holds them, API key included), only the
// error's code and Node's message, which names no header value.
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { securityHeaders } from '../ops/security-headers';

interface ClientError extends Error {
  code?: string;
}

function rawResponse(status: number, message: string): string {
  const body = JSON.stringify({ statusCode: status, error: STATUS_CODES[status] ?? 'Error', message });
  const headers = Object.entries(securityHeaders('/'))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}content-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
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
    socket.on('error', () => {});
    socket.end(rawResponse(405, `Method ${req.method} is not allowed`));
  };
}
