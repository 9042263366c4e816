// What the request log line costs, in process: `node dist/bench/log-cost.js [ROUNDS]`.
// Writes request lines into /dev/null and prints CPU per line, 32 lines per event-loop turn,
// for: info off (the level check only); the service's path (src/http/request-log.ts through
// src/server.ts defaultLogger's destination); and the path before issue 35 (pino's `info`
// into pino.destination with 4 KiB blocks), alternating in rounds. Guarantees: both paths
// write byte-identical lines (checked first, except the time).
import { openSync } from 'node:fs';
import pino from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestLog } from '../src/http/request-log';
import { REDACT, defaultLogger } from '../src/server';

const LINES = 200_000;
const rounds = Number(process.argv[2] ?? 5);
const fd = openSync('/dev/null', 'w');

/** The logger before issue 35: SonicBoom filling 4 KiB blocks line by line. */
function oldLogger(): pino.Logger {
  return pino({ level: 'info', redact: REDACT }, pino.destination({ dest: fd, sync: false, minLength: 4096 }));
}

function serviceLogger(level: string): pino.Logger {
  process.env.LOG_LEVEL = level;
  return defaultLogger(fd);
}

const routes = ['/v1/products/:id', '/v1/products/search', '/health', '/v1/ingredients/:id'];
const reqs = Array.from({ length: 1024 }, (_, i) => ({
  req: {
    id: `req-${(i + 1000).toString(36)}`,
    method: 'GET',
    routeOptions: { url: routes[i % routes.length] },
    grant: { keyId: `key_${i % 3}` },
  } as unknown as FastifyRequest,
  reply: { statusCode: 200, elapsedTime: 0.123456 * (i % 7) } as unknown as FastifyReply,
}));

/** The pre-issue-35 path: pino serialising the object. */
function pinoPath(l: pino.Logger): (req: FastifyRequest, reply: FastifyReply) => void {
  const lines = l.child({}, { redact: [] });
  return (req, reply) => {
    if (!lines.isLevelEnabled('info')) return;
    lines.info(
      {
        reqId: req.id,
        method: req.method,
        route: req.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key: req.grant?.keyId ?? null,
      },
      'request',
    );
  };
}

function sameLines(): void {
  const got: string[][] = [[], []];
  const capture = (k: number) => pino({ level: 'info', redact: REDACT }, { write: (s: string) => got[k].push(s) });
  const direct = new RequestLog(capture(0));
  const old = pinoPath(capture(1));
  for (const { req, reply } of reqs.slice(0, 16)) {
    direct.requestCompleted(null, req, reply);
    old(req, reply);
  }
  const noTime = (s: string) => s.replace(/"time":\d+/, '"time":0');
  for (let i = 0; i < 16; i++)
    if (noTime(got[0][i]) !== noTime(got[1][i])) throw new Error(`lines differ:\n${got[0][i]}${got[1][i]}`);
}

/** CPU per line (ns), lines written 32 at a time with the event loop turning between, as under load. */
async function measure(fn: (req: FastifyRequest, reply: FastifyReply) => void): Promise<number> {
  const t = process.cpuUsage();
  for (let i = 0; i < LINES;) {
    for (const end = i + 32; i < end; i++) {
      const r = reqs[i & 1023];
      fn(r.req, r.reply);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const u = process.cpuUsage(t);
  return ((u.user + u.system) / LINES) * 1000;
}

sameLines();
const off = new RequestLog(serviceLogger('warn'));
const direct = new RequestLog(serviceLogger('info'));
const old = pinoPath(oldLogger());
const kinds: Array<[string, (req: FastifyRequest, reply: FastifyReply) => void]> = [
  ['info off', (q, r) => off.requestCompleted(null, q, r)],
  ['service (now)', (q, r) => direct.requestCompleted(null, q, r)],
  ['pino info (before)', old],
];
const results = new Map<string, number[]>(kinds.map(([k]) => [k, []]));
void (async () => {
  for (const [, fn] of kinds) await measure(fn); // warm-up
  for (let r = 0; r < rounds; r++) for (const [k, fn] of kinds) results.get(k)!.push(await measure(fn));
  for (const [k, ns] of results)
    process.stdout.write(`${k.padEnd(22)} ${ns.map((n) => (n / 1000).toFixed(2)).join(', ')} µs per line\n`);
})();
