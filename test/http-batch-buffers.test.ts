// Batch answers are written in reused buffers (src/http/answer-buffers.ts): a buffer is lent
// again only once its response has been handed to the operating system. Over real sockets: a
// client that does not read leaves most of its answer unsent while other batches are answered
// with other products; its answer must still arrive whole and unchanged.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from './support/server';
import { productId, products } from './support/fixture';
import { AnswerBuffers } from '../src/http/answer-buffers';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const batchBody = (ord: number) => JSON.stringify({ ids: Array.from({ length: 50 }, () => productId(ord)) });
const post = (ord: number) =>
  s.fetch('/v1/products/batch', {
    method: 'POST',
    body: batchBody(ord),
    headers: { 'x-api-key': s.keys.pro.key, 'content-type': 'application/json' },
  });

/** Sends a batch request on a raw socket and reads nothing until `read()` is called; resolves the whole body. */
function stalledBatch(ord: number): { read: () => Promise<string> } {
  const url = new URL(s.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const payload = batchBody(ord);
  socket.write(
    `POST /v1/products/batch HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${s.keys.pro.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
  );
  socket.pause();
  return {
    read: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve(raw.slice(raw.indexOf('\r\n\r\n') + 4));
        });
        socket.resume();
      }),
  };
}

/**
 * The fixture product with the longest ingredient list (the largest answer): its batch of 50 is
 * the one left unread. Read from the fixture, not over HTTP, so the pro plan's rate limit
 * cannot refuse the requests that choose it.
 */
function largestOrd(): number {
  let best = 0;
  products.forEach((p, ord) => {
    if (p.ingredients.length > products[best].ingredients.length) best = ord;
  });
  return best;
}

it('an answer left unread arrives whole while other batches are answered meanwhile', async () => {
  const big = largestOrd();
  const expected = await (await post(big)).text();
  const other = big === 0 ? 1 : 0;
  const otherExpected = await (await post(other)).text();
  const stalled = Array.from({ length: 4 }, () => stalledBatch(big));
  await sleep(200); // the server has written what the sockets take
  for (let i = 0; i < 40; i++) assert.equal(await (await post(other)).text(), otherExpected);
  for (const st of stalled) {
    const body = await st.read();
    assert.equal(body.length, expected.length);
    assert.ok(body === expected, 'the unread answer changed while it waited');
  }
});

it('a buffer is lent again only after its response finished, and a closed one is not kept', () => {
  const buffers = new AnswerBuffers();
  const res = () => new EventEmitter() as unknown as ServerResponse;
  const [r1, r2, r3] = [res(), res(), res()];
  const a = buffers.lend(1000, r1);
  const b = buffers.lend(1000, r2);
  assert.notEqual(a, b);
  assert.equal(buffers.idle, 0);
  r1.emit('close'); // ended without finishing: its buffer stays with it
  assert.equal(buffers.idle, 0);
  r2.emit('finish');
  assert.equal(buffers.idle, 1);
  assert.equal(buffers.lend(1000, r3), b);
  assert.ok(buffers.lend(10 * 2 ** 20, res()).length >= 10 * 2 ** 20, 'an answer larger than a pooled buffer');
});
