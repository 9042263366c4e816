// How every refusal leaves the server. Guarantees: whatever was thrown — an ApiError,
// a framework error (bad JSON, media type, body size, a malformed or over-long URL) or a
// bug — the client gets the spec's {statusCode, error, message} body with a JSON content
// type and the security headers, and never a stack trace or internal detail; unknown
// routes get a 404 in the same shape. Every error code fastify defines is mapped here on
// purpose (FRAMEWORK): those a request can cause to a 4xx/503 naming what is wrong, the
// rest (set-up mistakes and bugs) to a logged 500. Headers a route set before the error
// stay (X-Trial-Requests-Remaining is still true of a request charged and then refused).
// An error answer to a request whose body is still arriving is sent once the body has
// been read and discarded (src/http/unread-body.ts), so the client never sees a reset.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { errorCodes } from 'fastify';
import { ApiError, type ErrorCode } from '../shared/errors';
import { securityHeaders } from './security-headers';
import { afterBody } from './unread-body';

/** Longest path parameter the router matches (the 16 KiB header limit bounds the URL anyway). */
export const MAX_PARAM_LENGTH = 16 * 1024;

/** A set-up mistake or a bug: never caused by a request alone; answered 500 and logged. */
const BUG = 'bug';

type Mapping = [ErrorCode, string] | typeof BUG;

/** Every fastify error code (the type makes a missing one a compile error; a test checks the runtime list). */
export const FRAMEWORK: Record<keyof typeof errorCodes, Mapping> = {
  FST_ERR_NOT_FOUND: ['not_found', 'Not Found'],
  FST_ERR_OPTIONS_NOT_OBJ: BUG,
  FST_ERR_QSP_NOT_FN: BUG,
  FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN: BUG,
  FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN: BUG,
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ: BUG,
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR: BUG,
  FST_ERR_VALIDATION: ['bad_request', 'the request is not valid'],
  FST_ERR_LISTEN_OPTIONS_INVALID: BUG,
  FST_ERR_ERROR_HANDLER_NOT_FN: BUG,
  FST_ERR_ERROR_HANDLER_ALREADY_SET: BUG,
  FST_ERR_CTP_ALREADY_PRESENT: BUG,
  FST_ERR_CTP_INVALID_TYPE: BUG,
  FST_ERR_CTP_EMPTY_TYPE: BUG,
  FST_ERR_CTP_INVALID_HANDLER: BUG,
  FST_ERR_CTP_INVALID_PARSE_TYPE: BUG,
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'the body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['bad_request', 'the body is empty; it must be a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['bad_request', 'the body is not valid JSON'],
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: BUG,
  FST_ERR_DEC_ALREADY_PRESENT: BUG,
  FST_ERR_DEC_DEPENDENCY_INVALID_TYPE: BUG,
  FST_ERR_DEC_MISSING_DEPENDENCY: BUG,
  FST_ERR_DEC_AFTER_START: BUG,
  FST_ERR_DEC_REFERENCE_TYPE: BUG,
  FST_ERR_DEC_UNDECLARED: BUG,
  FST_ERR_HOOK_INVALID_TYPE: BUG,
  FST_ERR_HOOK_INVALID_HANDLER: BUG,
  FST_ERR_HOOK_INVALID_ASYNC_HANDLER: BUG,
  FST_ERR_HOOK_NOT_SUPPORTED: BUG,
  FST_ERR_MISSING_MIDDLEWARE: BUG,
  FST_ERR_HOOK_TIMEOUT: BUG,
  FST_ERR_LOG_INVALID_DESTINATION: BUG,
  FST_ERR_LOG_INVALID_LOGGER: BUG,
  FST_ERR_LOG_INVALID_LOGGER_INSTANCE: BUG,
  FST_ERR_LOG_INVALID_LOGGER_CONFIG: BUG,
  FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED: BUG,
  FST_ERR_LOG_INVALID_LOG_CONTROLLER: BUG,
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: BUG,
  FST_ERR_REP_RESPONSE_BODY_CONSUMED: BUG,
  FST_ERR_REP_READABLE_STREAM_LOCKED: BUG,
  FST_ERR_REP_ALREADY_SENT: BUG,
  FST_ERR_REP_SENT_VALUE: BUG,
  FST_ERR_SEND_INSIDE_ONERR: BUG,
  FST_ERR_SEND_UNDEFINED_ERR: BUG,
  FST_ERR_BAD_STATUS_CODE: BUG,
  FST_ERR_BAD_TRAILER_NAME: BUG,
  FST_ERR_BAD_TRAILER_VALUE: BUG,
  FST_ERR_FAILED_ERROR_SERIALIZATION: BUG,
  FST_ERR_MISSING_SERIALIZATION_FN: BUG,
  FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: BUG,
  FST_ERR_REQ_INVALID_VALIDATION_INVOCATION: BUG,
  FST_ERR_SCH_MISSING_ID: BUG,
  FST_ERR_SCH_ALREADY_PRESENT: BUG,
  FST_ERR_SCH_CONTENT_MISSING_SCHEMA: BUG,
  FST_ERR_SCH_DUPLICATE: BUG,
  FST_ERR_SCH_VALIDATION_BUILD: BUG,
  FST_ERR_SCH_SERIALIZATION_BUILD: BUG,
  FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX: BUG,
  FST_ERR_INIT_OPTS_INVALID: BUG,
  FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE: BUG,
  FST_ERR_DUPLICATED_ROUTE: BUG,
  FST_ERR_BAD_URL: ['bad_request', 'the URL path is not valid percent-encoded UTF-8'],
  FST_ERR_MAX_PARAM_LENGTH: ['bad_request', `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`],
  FST_ERR_ASYNC_CONSTRAINT: BUG,
  FST_ERR_INVALID_URL: BUG,
  FST_ERR_ROUTE_OPTIONS_NOT_OBJ: BUG,
  FST_ERR_ROUTE_DUPLICATED_HANDLER: BUG,
  FST_ERR_ROUTE_HANDLER_NOT_FN: BUG,
  FST_ERR_ROUTE_MISSING_HANDLER: BUG,
  FST_ERR_ROUTE_METHOD_INVALID: BUG,
  FST_ERR_ROUTE_METHOD_NOT_SUPPORTED: BUG,
  FST_ERR_ROUTE_LOG_LEVEL_INVALID: BUG,
  FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED: BUG,
  FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT: BUG,
  FST_ERR_HANDLER_TIMEOUT: ['unavailable', 'the request took too long; retry shortly'],
  FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT: BUG,
  FST_ERR_ROUTE_REWRITE_NOT_STR: BUG,
  // A body-carrying method (QUERY) without a Content-Type, on any route.
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: ['unsupported_media_type', 'Content-Type must be application/json'],
  FST_ERR_ROUTE_MISSING_CONTENT: BUG,
  FST_ERR_REOPENED_CLOSE_SERVER: BUG,
  FST_ERR_REOPENED_SERVER: BUG,
  FST_ERR_INSTANCE_ALREADY_LISTENING: BUG,
  FST_ERR_PLUGIN_VERSION_MISMATCH: BUG,
  FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE: BUG,
  FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER: BUG,
  FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED: BUG,
  FST_ERR_PLUGIN_CALLBACK_NOT_FN: BUG,
  FST_ERR_PLUGIN_NOT_VALID: BUG,
  FST_ERR_ROOT_PLG_BOOTED: BUG,
  FST_ERR_PARENT_PLUGIN_BOOTED: BUG,
  FST_ERR_PLUGIN_TIMEOUT: BUG,
};

/** Codes of the plugins serving /docs (@fastify/static under @fastify/swagger-ui) that a request can cause. */
export const PLUGINS: Record<string, Mapping> = {
  FST_STATIC_FORBIDDEN_PATH: ['not_found', 'Not Found'],
  FST_STATIC_INVALID_REDIRECT_URL: ['not_found', 'Not Found'],
};

const ALL: Record<string, Mapping | undefined> = { ...FRAMEWORK, ...PLUGINS };

export function toApiError(err: FastifyError | Error): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  const known = fe.code ? ALL[fe.code] : undefined;
  if (known !== undefined && known !== BUG) return new ApiError(known[0], known[1]);
  if (known === BUG) return new ApiError('internal', 'Internal Server Error');
  if (err instanceof SyntaxError || fe.statusCode === 400)
    return new ApiError('bad_request', 'the body is not valid JSON');
  if (fe.statusCode === 413) return new ApiError('payload_too_large', 'the body is too large');
  if (fe.statusCode === 415) return new ApiError('unsupported_media_type', 'Content-Type must be application/json');
  return new ApiError('internal', 'Internal Server Error');
}

/** Told of every error answer (the metrics count refusals by it). */
export type ErrorObserver = (e: ApiError) => void;
const ignore: ErrorObserver = () => {};

/** Sends an error in the spec's shape. */
export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  err: FastifyError | Error,
  observe: ErrorObserver = ignore,
): void {
  const apiErr = toApiError(err);
  if (apiErr.statusCode >= 500 && apiErr.code !== 'unavailable')
    req.log.error({ reqId: req.id, err }, 'request failed');
  observe(apiErr);
  afterBody(req, reply, () => {
    reply.code(apiErr.statusCode).type('application/json; charset=utf-8').send(apiErr.body());
  });
}

/**
 * Errors fastify raises before routing (malformed or over-long URL): the route hooks do not
 * run for them, so the security headers are added here.
 */
export function frameworkErrors(
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
  observe: ErrorObserver = ignore,
): void {
  reply.headers(securityHeaders(req.url));
  sendError(req, reply, err, observe);
}

export function installErrorHandling(app: FastifyInstance, observe: ErrorObserver = ignore): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) =>
    sendError(req, reply, err, observe),
  );
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const e = new ApiError(
      'not_found',
      `Route ${req.method} ${path.length > 200 ? path.slice(0, 200) + '…' : path} not found`,
    );
    reply.code(404).type('application/json; charset=utf-8').send(e.body());
  });
}
