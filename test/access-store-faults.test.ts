// The SQLite access store under faults, through a real server: a lock held by another
// connection never stalls what does not need the store (/health answers while a charge
// waits for the lock), and a store file overwritten or replaced while serving answers
// 503 — never 200 with the charge counted nowhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from './support/server';
import { productId } from './support/fixture';

const storeFile = (t: TestServer) => t.store.slice('sqlite:'.length);

test('while another connection holds the store lock, /health keeps answering and the charged request alone waits (then 503)', async () => {
  const t = await startTestServer();
  const holder = new Database(storeFile(t));
  try {
    assert.equal((await t.get(`/v1/products/${productId(0)}`)).status, 200);
    holder.exec('BEGIN IMMEDIATE');
    const order: string[] = [];
    const charged = t.get(`/v1/products/${productId(1)}`).then((r) => order.push(`v1 ${r.status}`));
    await new Promise((r) => setTimeout(r, 30)); // let the charge reach the store
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${t.url}/health`);
      order.push(`health ${r.status}`);
    }
    await charged;
    assert.deepEqual(order, [...Array(5).fill('health 200'), 'v1 503']);
    holder.exec('COMMIT');
  } finally {
    holder.close();
    await t.close();
  }
});

test('a store file overwritten in place while serving answers 503, not an uncharged 200', async () => {
  const t = await startTestServer();
  try {
    assert.equal((await t.get(`/v1/products/${productId(0)}`)).status, 200);
    fs.writeFileSync(storeFile(t), 'this is not a database\n'.repeat(400));
    const res = await t.get(`/v1/products/${productId(0)}`);
    assert.equal(res.status, 503);
    assert.equal((await fetch(`${t.url}/health`)).status, 200);
  } finally {
    await t.close();
  }
});

test('a store file replaced by another file while serving answers 503', async () => {
  const t = await startTestServer();
  try {
    assert.equal((await t.get(`/v1/products/${productId(0)}`)).status, 200);
    const other = path.join(t.dir, 'other.sqlite');
    new Database(other).close();
    fs.renameSync(other, storeFile(t));
    assert.equal((await t.get(`/v1/products/${productId(0)}`)).status, 503);
  } finally {
    await t.close();
  }
});
