// The request validator enforces every keyword of the schemas it is given (with a
// message for each), or refuses them at startup: a parameter type it does not check
// (here a boolean) must never be documented in /openapi.json yet accepted as any string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { compileValidator } from '../src/http/validator';
import { LETTER_OR_DIGIT, NOT_ONLY_PUNCTUATION } from '../src/http/schemas';

async function startWith(querystring: ReturnType<typeof Type.Object>): Promise<void> {
  const app = Fastify();
  app.setValidatorCompiler(compileValidator);
  app.get('/x', { schema: { querystring } }, () => 'ok');
  try {
    await app.ready();
  } finally {
    await app.close();
  }
}

test('a Type.Boolean() query parameter makes startup fail loudly', async () => {
  await assert.rejects(
    startWith(Type.Object({ flag: Type.Boolean() })),
    /parameter flag: schema type "boolean" is not enforced/,
  );
});

test('a keyword the validator does not check makes startup fail loudly', async () => {
  await assert.rejects(
    startWith(Type.Object({ n: Type.Integer({ minimum: 1, maximum: 9, multipleOf: 2 }) })),
    /parameter n: schema keyword "multipleOf" is not enforced/,
  );
});

test('the schemas the validator enforces still start', async () => {
  await startWith(Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 1 })) }));
});

test('a body field is required exactly when the schema says so', async () => {
  const app = Fastify();
  app.setValidatorCompiler(compileValidator);
  app.post('/x', { schema: { body: Type.Object({ a: Type.String(), b: Type.Optional(Type.String()) }) } }, () => 'ok');
  try {
    const post = async (body: object) => {
      const r = await app.inject({ method: 'POST', url: '/x', payload: body });
      return r.statusCode === 200 ? 'ok' : r.json<{ message: string }>().message;
    };
    assert.equal(await post({ a: 'x' }), 'ok');
    assert.equal(await post({ b: 'x' }), 'a is required; the body must be a JSON object with "a", "b"');
  } finally {
    await app.close();
  }
});

test('the standard pattern published beside a letter-or-digit rule never refuses what the server accepts', () => {
  // The server checks x-unicode-pattern only (validator.ts): every value it accepts must match the portable pattern,
  // read with Unicode support (as the server's engine would) and without (as browsers' OpenAPI tools do).
  const unicode = new RegExp(LETTER_OR_DIGIT, 'u');
  const portable = [new RegExp(NOT_ONLY_PUNCTUATION), new RegExp(NOT_ONLY_PUNCTUATION, 'u')];
  const missed: string[] = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCodePoint(c);
    if (unicode.test(ch) && !portable.every((p) => p.test(ch))) missed.push(c.toString(16));
  }
  assert.deepEqual(missed, []);
  for (const refused of ['!!!', '---', ' ', '[]{}|~`_']) assert.ok(!portable.some((p) => p.test(refused)), refused);
});
