// "The key is never logged", at every level: a real `catalogue serve` at LOG_LEVEL=trace
// is sent the key in good requests, bad URLs, CONNECT, a malformed header line and
// headers over 16 KiB (errors Node raises with the raw request bytes attached); its logs
// are then searched for the secret in every encoding a log could hold it in. The same for
// the dashboard: a password, a session id and a key's secret made on its pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import { buildVariant, opsDir, serveProcess } from './support/serve-process';
import { Client, outboxMailbox, useMailbox } from './support/dashboard';
import { COOKIE } from '../src/dashboard';

/** Sends raw bytes on a fresh connection; resolves when the server closes it. */
function raw(url: string, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.end(bytes);
  });
}

/** The forms a secret can take in a log line: text, hex, base64, bytes as JSON numbers, URL-encoded. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  // A fragment of 16 bytes is enough to count as a leak (and survives chunking of longer dumps).
  const part = bytes.subarray(3, 19);
  return [
    secret,
    secret.slice(3),
    part.toString('hex'),
    part.toString('hex').toUpperCase(),
    bytes.toString('base64').slice(4, 24),
    bytes.toString('base64url').slice(4, 24),
    Buffer.concat([Buffer.from('x-api-key: '), bytes])
      .toString('base64')
      .slice(16, 36),
    [...part].join(','),
    [...part].join(', '),
    encodeURIComponent(secret),
  ];
}

test('at LOG_LEVEL=trace no log line holds the API key in any encoding, whatever the request', async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: '2026-03-14' });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans], {
    LOG_LEVEL: 'trace',
  });
  try {
    const key = ops.key;
    const head = `Host: x\r\nx-api-key: ${key}\r\n`;
    await (await fetch(`${s.url}/v1/products?brand=x`, { headers: { 'x-api-key': key } })).text();
    await (await fetch(`${s.url}/v1/products/${'a'.repeat(1001)}`, { headers: { 'x-api-key': key } })).text();
    await raw(s.url, `GET /v1/products/%zz HTTP/1.1\r\n${head}Connection: close\r\n\r\n`);
    await raw(s.url, `CONNECT x:443 HTTP/1.1\r\n${head}\r\n`);
    assert.match(
      await raw(s.url, `GET /v1/products HTTP/1.1\r\n${head}this is not a header\r\n\r\n`),
      /^HTTP\/1\.1 400 /,
    );
    assert.match(
      await raw(s.url, `GET /v1/products HTTP/1.1\r\n${head}x-big: ${'b'.repeat(17 * 1024)}\r\n\r\n`),
      /^HTTP\/1\.1 431 /,
    );
    await s.waitForLog((l) => (l.includes('"msg":"client') && l.includes('431')) || l.includes('header_overflow'));
    await (await fetch(`${s.url}/health`)).text();
    await s.terminate(); // every line the process still holds is written at exit
    assert.ok(s.logs.length >= 6, s.logs.join('\n'));
    assert.ok(
      s.logs.some((l) => l.includes('"route":"/health"')),
      `the last request's line is written at exit:\n${s.logs.join('\n')}`,
    );
    const all = s.logs.join('\n');
    for (const form of encodings(key)) assert.ok(!all.includes(form), `the key is in the logs as ${form}`);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('at LOG_LEVEL=trace no log line holds a dashboard password, session id or key secret', async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: '2026-03-14' });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--signup', 'open'], {
    LOG_LEVEL: 'trace',
  });
  try {
    const password = 'Secret-Password-4711';
    const c = new Client(s.url);
    useMailbox(s.url, outboxMailbox(ops.store));
    assert.equal((await c.signUp('logs@example.com', password)).status, 303);
    const confirm = (await outboxMailbox(ops.store)('logs@example.com')).split('/').pop()!;
    const session = decodeURIComponent(c.cookies.get(COOKIE)!).split('.')[0];
    const { key } = await c.createKey('logged?');
    await (await fetch(`${s.url}/v1/products?brand=x`, { headers: { 'x-api-key': key } })).text();
    await c.submit('/dashboard/password', '/dashboard/password', { current: password, password: 'x', confirm: 'y' });
    await c.submit('/dashboard/playground', '/dashboard/playground', { text: password, key: 'nope' });
    await c.submit('/dashboard/keys', '/dashboard/keys', { name: 'x'.repeat(300 * 1024) }); // 413
    await new Client(s.url).signIn('logs@example.com', password + '!');
    await c.submit('/dashboard/account', '/dashboard/sign-out', {});
    await s.terminate();
    const all = s.logs.join('\n');
    assert.ok(all.includes('/dashboard/sign-up'), 'the dashboard requests are logged');
    for (const [what, secret] of [
      ['password', password],
      ['session id', session],
      ['key', key],
      ['confirmation token', confirm],
    ])
      for (const form of encodings(secret)) assert.ok(!all.includes(form), `the ${what} is in the logs as ${form}`);
  } finally {
    await s.stop();
    ops.cleanup();
  }
});
