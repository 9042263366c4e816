// Raw-socket fuzz of a real `catalogue serve` process: every method of http.METHODS
// (CONNECT included) on every kind of route, with and without a key, odd and missing
// Content-Type, Expect and Host headers, bodies from none to 1 MiB sent with a
// Content-Length or chunked (in random chunk sizes), each request on its own connection
// (written whole, then half-closed). Small JSON bodies are cut at 72 bytes while their
// Content-Length may say more: a client that stops early (the server answers 400 when the
// connection ends mid-body, or its answer if it did not need the body).
// Prints the figures: answers by status, 5xx count, API answers not in the error shape
// (the dashboard's HTML error pages excepted),
// connections reset or left unanswered, log lines above info, the server's open sockets
// after the run (against before it) and whether it then stops on SIGTERM.
// Run: npm run build && npm run fuzz:raw -- [REQUESTS] [SEED] (not part of npm test: it asserts nothing).
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { METHODS } from 'node:http';
import { BUILT_AT, productId } from './fixture';
import { buildVariant, opsDir, serveProcess } from './serve-process';
import { mulberry32 } from '../../src/synth/prng';

const REQUESTS = Number(process.argv[2] ?? 250_000);
const SEED = Number(process.argv[3] ?? 20261125);
const CONCURRENCY = 24;
const MAX_BODY = 1024 * 1024;
const ANSWER_TIMEOUT_MS = 40_000;
/** RAW_FUZZ_TRACE=FILE writes one line per request (index, status, request line, body size), to compare two builds. */
const TRACE = process.env.RAW_FUZZ_TRACE;
const trace: string[] = [];

const PATHS = [
  '/health',
  '/v1/products/search?q=bulk',
  '/v1/products?brand=Bulk%20Brand&page=2',
  '/v1/products/batch',
  '/v1/labels/analyze',
  '/v1/ingredients/search?q=aqua',
  `/v1/products/${productId(3)}`,
  '/v1/products/barcode/3522930003045',
  '/v1/ingredients/zz',
  '/openapi.json',
  '/docs/',
  '/dashboard/',
  '/nowhere',
  '/v1/products/%zz',
  `/v1/products/${'a'.repeat(2000)}`,
];
const TYPES = [
  '',
  'application/json',
  'text/plain',
  '',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  ';;',
];
const EXPECTS = ['100-continue', 'nonsense'];

interface Case {
  method: string;
  head: string;
  body: Buffer;
  chunked: boolean;
  split: number;
}

function makeCase(rand: () => number, key: string): Case {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)];
  const method = pick(METHODS);
  const p = pick(PATHS);
  let size = 0;
  const r = rand();
  if (r < 0.35) size = 0;
  else if (r < 0.7) size = Math.floor(rand() * 200);
  else size = Math.min(MAX_BODY, Math.floor(2 ** (rand() * 20))); // log-uniform up to 1 MiB
  const body =
    size > 0 && size < 200 && rand() < 0.5
      ? Buffer.from(JSON.stringify({ ids: [productId(1)], text: 'Aqua, Glycerin' }).slice(0, Math.max(size, 2)))
      : Buffer.alloc(size, rand() < 0.5 ? 'a' : '{');
  const chunked = size > 0 && rand() < 0.5;
  const headers: string[] = [];
  if (rand() > 0.03) headers.push('Host: fuzz');
  if (rand() < 0.8) headers.push(`x-api-key: ${key}`);
  const type = pick(TYPES);
  if (type !== '' || rand() < 0.2) headers.push(`Content-Type: ${type}`);
  if (rand() < 0.05) headers.push(`Expect: ${pick(EXPECTS)}`);
  if (chunked) headers.push('Transfer-Encoding: chunked');
  else if (size > 0 || rand() < 0.5) headers.push(`Content-Length: ${size}`);
  if (rand() < 0.3) headers.push('Connection: close');
  const head = `${method} ${method === 'CONNECT' ? 'fuzz.example:443' : p} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`;
  return { method, head, body, chunked, split: 1 + Math.floor(rand() * 65536) };
}

function encode(c: Case): Buffer[] {
  if (!c.chunked) return [Buffer.from(c.head), c.body];
  const out: Buffer[] = [Buffer.from(c.head)];
  for (let i = 0; i < c.body.length; i += c.split) {
    const part = c.body.subarray(i, i + c.split);
    out.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'));
  }
  out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

/** A few requests whose answer was not in the error shape, printed after the figures. */
const examples: string[] = [];

interface Outcome {
  status: string;
  shaped: boolean;
  error: string | null;
}

/** Sends one request on its own connection (written whole, then half-closed) and reads until the server closes. */
function send(port: number, c: Case): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: string | null = null;
    const timer = setTimeout(() => {
      error ??= 'no answer in time';
      socket.destroy();
    }, ANSWER_TIMEOUT_MS);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('end', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const final = text.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
      const status = final.slice(9, 12) || 'none';
      // The dashboard answers its errors as HTML pages, by design (src/dashboard).
      const ok = c.head.includes(' /dashboard/') || shaped(final, c.method);
      if ((!ok || status === 'none') && examples.length < 8)
        examples.push(`${c.head.slice(0, 300)}[${c.body.length} bytes]\n=> ${error ?? ''} ${final.slice(0, 400)}`);
      resolve({ status, shaped: ok, error: status === 'none' ? error : null });
    });
    socket.on('connect', () => {
      for (const b of encode(c)) socket.write(b);
      socket.end();
    });
  });
}

/** An error answer has the security headers and the {statusCode, error, message} body (HEAD: no body). */
function shaped(answer: string, method: string): boolean {
  const status = Number(answer.slice(9, 12));
  if (!(status >= 400)) return true;
  if (!/\r\nx-content-type-options: nosniff\r\n/i.test(answer)) return false;
  if (method === 'HEAD') return true;
  const start = answer.indexOf('\r\n\r\n') + 4;
  const head = answer.slice(0, start);
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(head);
  let body = length ? answer.slice(start, start + Number(length[1])) : answer.slice(start);
  if (/transfer-encoding: chunked/i.test(head))
    body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
  try {
    const b = JSON.parse(body) as Record<string, unknown>;
    return b.statusCode === status && typeof b.error === 'string' && typeof b.message === 'string';
  } catch {
    return false;
  }
}

function openSockets(pid: number): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

async function main(): Promise<void> {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: BUILT_AT });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans], {
    LOG_LEVEL: 'warn',
  });
  const port = Number(new URL(s.url).port);
  const pid = s.child.pid!;
  await (await fetch(`${s.url}/health`)).text();
  await new Promise((r) => setTimeout(r, 200));
  const before = openSockets(pid);
  const rand = mulberry32(SEED);
  const statuses = new Map<string, number>();
  const errors = new Map<string, number>();
  let unshaped = 0;
  let chunked = 0;
  let bodyBytes = 0;
  let done = 0;
  const started = Date.now();
  const worker = async () => {
    while (done < REQUESTS) {
      const n = ++done;
      const c = makeCase(rand, ops.key);
      if (c.chunked) chunked++;
      bodyBytes += c.body.length;
      const o = await send(port, c);
      if (TRACE)
        trace.push(`${n} ${o.status} ${c.head.split('\r\n')[0]} ${c.body.length}${c.chunked ? ' chunked' : ''}`);
      statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
      if (o.error !== null) errors.set(o.error, (errors.get(o.error) ?? 0) + 1);
      if (!o.shaped) unshaped++;
      if (n % 25_000 === 0) process.stderr.write(`${n} requests, ${Math.round((Date.now() - started) / 1000)} s\n`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  const after = openSockets(pid);
  const stopStart = Date.now();
  await s.terminate();
  const stopMs = Date.now() - stopStart;
  const exit = await s.exited;
  const loud = s.logs.filter((l) => /"level":(4|5|6)0/.test(l));
  const fiveXX = [...statuses].filter(([k]) => k.startsWith('5')).reduce((n, [, v]) => n + v, 0);
  const figures = {
    requests: REQUESTS,
    seed: SEED,
    seconds: Math.round(seconds),
    chunked,
    bodyMiB: Math.round(bodyBytes / 2 ** 20),
    statuses: Object.fromEntries([...statuses].sort()),
    fiveXX,
    notErrorShape: unshaped,
    unanswered: Object.fromEntries(errors),
    logLinesAboveInfo: loud.length,
    serverSocketsBefore: before,
    serverSocketsAfter: after,
    stopMs,
    exit,
  };
  console.log(JSON.stringify(figures, null, 2));
  if (TRACE) fs.writeFileSync(TRACE, trace.sort((a, b) => parseInt(a) - parseInt(b)).join('\n') + '\n');
  if (loud.length) console.log(loud.slice(0, 5).join('\n'));
  if (examples.length) console.log(examples.join('\n\n'));
  ops.cleanup();
}

void main();
