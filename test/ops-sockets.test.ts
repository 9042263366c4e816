// Connections a hostile or clumsy client leaves behind, over real sockets: CONNECT with a
// body, bodies over the limit sent chunked while the answer is already decided. Each
// request ends with an answer in the error shape and a connection closed (or reusable),
// never a socket left open on the server nor a reset under a client still writing; the
// server then stops gracefully.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { startTestServer, type TestServer } from './support/server';

/** Sockets this process holds open (the test server runs in it). */
function openSockets(): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

interface Exchange {
  answer: string;
  /** The first error the client saw (a write after a reset: EPIPE, ECONNRESET), or null. */
  error: string | null;
}

/**
 * Writes `head`, then `pieces` one at a time (waiting `pauseMs` between them, as a client
 * on a slower link would), then reads until the server closes the connection. Like curl,
 * the client keeps sending its body after the server has closed its side.
 */
function exchange(t: TestServer, head: string, pieces: Buffer[], pauseMs = 0): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(new URL(t.url).port), host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let error: string | null = null;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => resolve({ answer, error }));
    void (async () => {
      socket.write(head);
      for (const p of pieces) {
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        if (socket.destroyed) return;
        if (!socket.write(p)) await new Promise((r) => socket.once('drain', r));
      }
      if (!socket.destroyed) socket.end();
    })();
    socket.on('end', () => {
      if (socket.writableEnded) socket.destroy();
    });
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

/** Resolves when `p` does, or rejects after `ms` (a stop that never ends fails the test instead of hanging it). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_r, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function settle(expected: number): Promise<number> {
  for (let i = 0; i < 100 && openSockets() > expected; i++) await new Promise((r) => setTimeout(r, 20));
  return openSockets();
}

test('CONNECT with a body over 64 KiB: 405 in the error shape, no socket left open after 300 of them, and the server still stops', async () => {
  const t = await startTestServer();
  let stopped = false;
  try {
    await (await t.get('/health')).text(); // the fetch pool's socket exists before counting
    const before = openSockets();
    const body = Buffer.alloc(70 * 1024, 'a');
    for (let i = 0; i < 300; i++) {
      const { answer } = await exchange(
        t,
        `CONNECT a.example:443 HTTP/1.1\r\nHost: a.example\r\nContent-Length: ${body.length}\r\n\r\n`,
        [body],
      );
      assert.match(answer, /^HTTP\/1\.1 405 /);
      assert.equal(bodyOf(answer).message, 'Method CONNECT is not allowed');
    }
    assert.equal(await settle(before), before, 'sockets left open on the server');
    await within(t.close(), 15_000, 'the server did not stop');
    stopped = true;
  } finally {
    if (!stopped) t.server.app.server.closeAllConnections();
  }
});

test('a chunked batch or analyse body over the limit, sent at a client’s pace, gets its 413 in the error shape with no broken pipe', async () => {
  const t = await startTestServer();
  try {
    const piece = Buffer.from(`4000\r\n${'a'.repeat(0x4000)}\r\n`);
    const pieces = [...Array<Buffer>(64).fill(piece), Buffer.from('0\r\n\r\n')]; // 1 MiB
    for (const path of ['/v1/products/batch', '/v1/labels/analyze']) {
      const head =
        `POST ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: ${t.keys.pro.key}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const { answer, error } = await exchange(t, head, pieces, 5);
      assert.equal(error, null, `${path}: the client saw ${error} while sending`);
      assert.match(answer, /^HTTP\/1\.1 413 /, path);
      assert.deepEqual(bodyOf(answer), {
        statusCode: 413,
        error: 'Payload Too Large',
        message: 'the body is too large',
      });
      assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i);
    }
    assert.equal((await t.get('/health')).status, 200);
  } finally {
    await t.close();
  }
});
