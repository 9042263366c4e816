// The request log: one structured line per finished request (id, method, route, status,
// latency, key id; never the secret). Guarantees: the line is the one pino's `info` would
// write through the logger given (same level, time, bindings, field order and escaping),
// written to that logger's destination; nothing is written when info is off. The line is
// made here from pieces fixed once per logger (level, bindings, message) and per route, key
// and method (JSON forms kept in small maps), instead of pino serialising an object per
// request: pino's own path cost about 4 µs a line where this costs about 1 (in process,
// docs/performance.md "Request logging"). A logger with hooks, a mixin, a log formatter or
// a stream that wants metadata gets pino's own path, as before.
import pino, { type Logger } from 'pino';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const S = pino.symbols as unknown as Record<string, symbol>;
type Internals = Record<symbol, unknown>;

/** Distinct values whose JSON form is kept (routes, keys, methods); real servers see a few hundred at most. */
const KEPT = 4096;

/** The JSON form of a string, kept for the next time it is asked for. */
class JsonForms {
  private readonly forms = new Map<string, string>();
  of(s: string): string {
    let f = this.forms.get(s);
    if (f === undefined) {
      f = JSON.stringify(s);
      if (this.forms.size >= KEPT) this.forms.clear();
      this.forms.set(s, f);
    }
    return f;
  }
}

/** A write() that makes the request line itself, or undefined when the logger needs pino's own path. */
function directWriter(lines: Logger): ((fields: string) => void) | undefined {
  const l = lines as unknown as Internals;
  const stream = l[S.streamSym] as { write(s: string): unknown } & Internals;
  const formatters = l[S.formattersSym] as { log?: unknown };
  const hooks = l[S.hooksSym] as { streamWrite?: unknown };
  if (l[S.mixinSym] || formatters?.log || hooks?.streamWrite || stream?.[S.needsMetadataGsym] === true)
    return undefined;
  if (l[S.messageKeySym] !== 'msg' || l[S.msgPrefixSym]) return undefined;
  const head = (l[S.lsCacheSym] as Record<number, string>)[30];
  const time = l[S.timeSym] as () => string;
  const chindings = l[S.chindingsSym] as string;
  const end = l[S.endSym] as string;
  if (typeof head !== 'string' || typeof time !== 'function' || typeof end !== 'string') return undefined;
  const tail = ',"msg":"request"' + end;
  return (fields) => void stream.write(head + time() + chindings + fields + tail);
}

export class RequestLog extends LogController {
  private readonly lines: Logger | undefined;
  private readonly write: ((fields: string) => void) | undefined;
  private readonly json = new JsonForms();

  constructor(logger: Logger | undefined) {
    super();
    // A child without redaction: this line's fields are fixed and hold no header, and
    // redaction doubled the cost of writing it; every other line keeps it.
    this.lines = logger?.child({}, { redact: [] });
    this.write = this.lines && directWriter(this.lines);
  }

  incomingRequest(): void {}

  requestCompleted(_err: unknown, req: FastifyRequest, reply: FastifyReply): void {
    const lines = this.lines;
    if (lines === undefined || !lines.isLevelEnabled('info')) return;
    const route = req.routeOptions.url ?? null;
    const key = req.grant?.keyId ?? null;
    const ms = Math.round(reply.elapsedTime * 100) / 100;
    if (this.write === undefined) {
      lines.info({ reqId: req.id, method: req.method, route, status: reply.statusCode, ms, key }, 'request');
      return;
    }
    const j = this.json;
    this.write(
      `,"reqId":${JSON.stringify(req.id)},"method":${j.of(req.method)},"route":${route === null ? 'null' : j.of(route)}` +
        `,"status":${reply.statusCode},"ms":${Number.isFinite(ms) ? ms : 'null'},"key":${key === null ? 'null' : j.of(key)}`,
    );
  }
}
