// Graceful stop of a real `catalogue serve` process: on SIGTERM/SIGINT under load it
// stops accepting, answers every request it had accepted (no 503, no reset), ignores
// idle keep-alive connections and exits 0; a request that never ends cannot hold it
// past --stop-timeout (exit 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { BULK_FIRST_ORD, productId } from './support/fixture';
import { buildVariant, opsDir, serveProcess, type ServeProcess } from './support/serve-process';

const BODY = JSON.stringify({ ids: Array.from({ length: 50 }, (_, i) => productId(BULK_FIRST_ORD + i)) });

/** A batch request whose headers the server has read (it said 100 Continue) and whose body is not sent yet. */
async function acceptedRequest(s: ServeProcess, key: string): Promise<{ sendBody(): void; response: Promise<string> }> {
  const { port } = new URL(s.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let data = '';
  socket.setEncoding('utf8');
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  const continued = new Promise<void>((resolve) =>
    socket.on('data', (d: string) => {
      data += d;
      if (data.includes('100 Continue')) resolve();
    }),
  );
  socket.write(
    `POST /v1/products/batch HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\nexpect: 100-continue\r\n\r\n`,
  );
  await continued;
  return { sendBody: () => socket.write(BODY), response };
}

/** An open keep-alive connection that served one request and is now idle. */
async function idleConnection(s: ServeProcess): Promise<net.Socket> {
  const { port } = new URL(s.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  });
  socket.on('error', () => {});
  return socket;
}

/** Workers that keep requesting until the server is gone; every HTTP answer must be a 200. */
function load(s: ServeProcess, key: string, workers = 8) {
  const answers: number[] = [];
  const refused: string[] = [];
  const one = async () => {
    for (;;) {
      try {
        const res = await fetch(`${s.url}/v1/products?brand=Bulk%20Brand`, { headers: { 'x-api-key': key } });
        await res.text();
        answers.push(res.status);
      } catch (err) {
        // Not accepted: the listening socket is closed, or an idle connection was closed before this request reached it.
        refused.push(String((err as Error & { cause?: { code?: string } }).cause?.code ?? err));
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, one));
  return { answers, refused, done };
}

async function setup(extra: string[] = []) {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: '2026-03-14' });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans, ...extra]);
  return { ops, s };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} under load: accepted requests are all answered 200, idle connections do not hold the process, exit 0`, async () => {
    const { ops, s } = await setup();
    try {
      const idle = await idleConnection(s);
      const inFlight = await acceptedRequest(s, ops.key);
      const traffic = load(s, ops.key);
      while (traffic.answers.length < 200) await new Promise((r) => setTimeout(r, 10));
      s.child.kill(signal);
      await s.waitForLog((l) => l.includes('"msg":"stopping'));
      inFlight.sendBody();
      const raw = await inFlight.response;
      const { code } = await s.exited;
      await traffic.done;
      idle.destroy();
      assert.match(raw, /HTTP\/1\.1 200 OK/);
      assert.match(raw, /\r\nx-item-count: 50\r\n/i);
      assert.equal(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n', raw.indexOf('200 OK')) + 4)).length, 50);
      assert.ok(
        traffic.answers.every((st) => st === 200),
        `statuses: ${[...new Set(traffic.answers)]}`,
      );
      assert.equal(code, 0);
      assert.ok(s.logs.some((l) => l.includes('"msg":"stopped"')));
    } finally {
      await s.stop();
      ops.cleanup();
    }
  });
}

test('a request that never finishes cannot hold the process past --stop-timeout: exit 1 with a reason', async () => {
  const { ops, s } = await setup(['--stop-timeout', '1']);
  try {
    await acceptedRequest(s, ops.key);
    let stderr = '';
    s.child.stderr!.on('data', (d: string) => {
      stderr += d;
    });
    s.child.kill('SIGTERM');
    const { code } = await s.exited;
    assert.equal(code, 1);
    assert.match(stderr + s.logs.join('\n'), /catalogue: requests still running 1 s after SIGTERM; stopped anyway/);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

/**
 * Keep-alive clients (node:http agents, 16 sockets) requesting in a loop until the server is
 * gone. Each request ends in an answer, a refused connection (the listener is closed: the
 * client knows nothing was sent), or a reset: a request written on an open connection that
 * got no answer — what a stop must never cause.
 */
function keepAliveLoad(s: ServeProcess, workers = 16) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  const { port } = new URL(s.url);
  let answered = 0;
  const resets: string[] = [];
  const refused: string[] = [];
  const one = (): Promise<boolean> =>
    new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          answered++;
          resolve(true);
        });
        res.on('error', () => {
          resets.push('response cut');
          resolve(false);
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        (err.code === 'ECONNREFUSED' ? refused : resets).push(
          `${err.code ?? err.message}${req.reusedSocket ? ' (reused connection)' : ''}`,
        );
        resolve(false);
      });
    });
  const done = Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; i < 1_000_000 && (await one()); i++);
    }),
  ).finally(() => agent.destroy());
  return { done, resets, refused, answered: () => answered };
}

test('SIGTERM under keep-alive load: no client sees a reset, every request is answered or its connection refused', async () => {
  const { ops, s } = await setup();
  try {
    const load = keepAliveLoad(s);
    while (load.answered() < 3000) await new Promise((r) => setTimeout(r, 10));
    s.child.kill('SIGTERM');
    const { code } = await s.exited;
    await load.done;
    assert.deepEqual(load.resets, []);
    assert.equal(code, 0);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});
