// The request validator enforces every keyword of the schemas it is given (with a
// message for each), or refuses them at startup: a parameter type it does not check
// (here a boolean) must never be documented in /openapi.json yet accepted as any string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { compileValidator } from '../src/http/validator';

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
