// How every refusal leaves the server. Guarantees: whatever was thrown — an ApiError,
// a framework error (bad JSON, media type, body size) or a bug — the client gets the
// spec's {statusCode, error, message} body with a JSON content type, and never a stack
// trace or internal detail; unknown routes get a 404 in the same shape.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../shared/errors';

const FRAMEWORK: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['bad_request', 'the body is empty; it must be a JSON object'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'the body is too large'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['bad_request', 'the body is not valid JSON'],
  FST_ERR_BAD_URL: ['bad_request', 'the URL path is not valid percent-encoded UTF-8'],
  FST_STATIC_FORBIDDEN_PATH: ['not_found', 'Not Found'],
};

export function toApiError(err: FastifyError | Error): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  const known = fe.code ? FRAMEWORK[fe.code] : undefined;
  if (known) return new ApiError(known[0], known[1]);
  if (err instanceof SyntaxError || fe.statusCode === 400) return new ApiError('bad_request', 'the body is not valid JSON');
  if (fe.statusCode === 413) return new ApiError('payload_too_large', 'the body is too large');
  if (fe.statusCode === 415) return new ApiError('unsupported_media_type', 'Content-Type must be application/json');
  return new ApiError('internal', 'Internal Server Error');
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const apiErr = toApiError(err);
    if (apiErr.statusCode >= 500 && apiErr.code !== 'unavailable') req.log.error({ reqId: req.id, err }, 'request failed');
    reply.removeHeader('x-trial-requests-remaining');
    reply.removeHeader('x-item-count');
    reply.code(apiErr.statusCode).type('application/json; charset=utf-8').send(apiErr.body());
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const e = new ApiError('not_found', `Route ${req.method} ${path.length > 200 ? path.slice(0, 200) + '…' : path} not found`);
    reply.code(404).type('application/json; charset=utf-8').send(e.body());
  });
}
