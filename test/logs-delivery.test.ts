// When a real `catalogue serve` writes its log lines (src/server.ts defaultLogger): in
// blocks, yet a line reaches stderr within about a second when no more traffic follows, and
// every line still held is written when the process is stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildVariant, opsDir, serveProcess } from './support/serve-process';

test('a lone request is logged within seconds, and a stop writes every line held', async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: '2026-03-14' });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans]);
  try {
    const isRequest = (route: string) => (l: string) => l.includes('"msg":"request"') && l.includes(route);
    await (await fetch(`${s.url}/health`)).text();
    const logged = await Promise.race([s.waitForLog(isRequest('"/health"')), sleep(5_000, null)]);
    assert.notEqual(logged, null, `no line for the request after 5 s:\n${s.logs.join('\n')}`);

    const headers = { 'x-api-key': ops.key };
    for (let i = 0; i < 20; i++) await (await fetch(`${s.url}/v1/ingredients/search?q=water`, { headers })).text();
    await s.terminate();
    assert.equal(s.logs.filter(isRequest('"/v1/ingredients/search"')).length, 20, s.logs.join('\n'));
  } finally {
    await s.stop();
    ops.cleanup();
  }
});

test('a stop while the log is slow to take lines loses none of them', async () => {
  const ops = await opsDir();
  const file = path.join(ops.dir, 'catalogue.db');
  await buildVariant(file, { builtAt: '2026-03-14' });
  const s = await serveProcess(['--catalogue', file, '--access', ops.store, '--plans', ops.plans]);
  try {
    // The reader stops reading: the pipe fills, and the service's writes wait on it.
    s.child.stderr!.pause();
    const headers = { 'x-api-key': ops.key };
    const asked = 1_500;
    for (let i = 0; i < asked; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, async () =>
          (await fetch(`${s.url}/v1/ingredients/search?q=water`, { headers })).text(),
        ),
      );
    const stopped = s.terminate();
    await sleep(500);
    s.child.stderr!.resume();
    await stopped;
    const lines = s.logs.filter((l) => l.includes('"msg":"request"') && l.includes('"/v1/ingredients/search"'));
    assert.equal(lines.length, asked, `${asked - lines.length} request lines lost`);
    assert.equal(new Set(lines.map((l) => (JSON.parse(l) as { reqId: string }).reqId)).size, asked);
    assert.match(s.logs[s.logs.length - 1], /"msg":"stopped"/, 'the stop is the last line');
  } finally {
    await s.stop();
    ops.cleanup();
  }
});
