// The OpenAPI document and the API reference page: the document's settings (title,
// security scheme, tags, the rules every operation shares), /openapi.json and the Swagger
// UI under /docs. Guarantees: the document is generated from the schemas the operations
// register with (swagger() reads them once the routes are added), so what it says is what
// the validator enforces; the error body is one component (ErrorBody, responses.ts); every
// GET operation is also published as the HEAD operation fastify answers for it (same
// statuses and headers, no body), named `<operationId>-head`.
import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { JSON_TYPE } from './json';
import { ErrorBody, everyAnswerHeaders } from './responses';
import { BODY_LIMIT } from './schemas';

const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Cosmetics Catalogue API',
    version: '1.0.0',
    description: [
      'Read-only catalogue of cosmetics products with full INCI ingredient lists in label order, joined to a dictionary of canonical ingredients with safety data. Every operation has a stable operationId (the typed client in clients/typescript is generated from them).',
      'Rules every /v1 operation shares: the `x-api-key` header is required; a query parameter the operation does not list, or one given twice, is refused with 400; a JSON body field the operation does not list is refused with 400; request bodies are limited to ' +
        `${BODY_LIMIT / 1024} KiB (640 KiB for a label analysis), larger ones are refused with 413; every request that passes these checks is charged one call (a batch one call per id, a 404 included) and, on trial keys, the answer says how many trial requests remain (X-Trial-Requests-Remaining).`,
      'Every GET operation also answers HEAD with the same status and headers and no body; a HEAD request is checked and charged as the GET is.',
      `Every answer carries ${everyAnswerHeaders()}, besides the headers each response lists.`,
    ].join('\n\n'),
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/', description: 'The server that serves this document' }],
  components: { securitySchemes: { apiKey: { type: 'apiKey' as const, in: 'header', name: 'x-api-key' } } },
  security: [{ apiKey: [] }],
  tags: [
    {
      name: 'products',
      description:
        'Search, filter and fetch products with their full ingredient lists (by id, barcode or in batches of 50).',
    },
    { name: 'ingredients', description: 'Search and fetch canonical ingredients with their safety data.' },
    {
      name: 'labels',
      description: "Analyse any ingredient label given as text, joined to this catalogue's ingredients.",
    },
    { name: 'service', description: 'Health and catalogue build information; no API key needed.' },
  ],
};

/** Schema components are named by their $id (ErrorBody), not def-0. */
const refResolver = {
  buildLocalReference: (json: { $id?: unknown }, _base: unknown, _fragment: string, i: number) =>
    typeof json.$id === 'string' ? json.$id : `def-${i}`,
};

type RouteSchema = NonNullable<RouteOptions['schema']> & { summary?: string; description?: string };

/**
 * A HEAD route's schema as published: fastify registers it with its GET route's schema,
 * so its responses keep their meaning and headers and lose their body; all but the 431,
 * which the HTTP layer sends, body included, before it has read the method.
 */
function headOperation(schema: RouteSchema): RouteSchema {
  const response: Record<string, object> = {};
  for (const [status, r] of Object.entries((schema.response ?? {}) as Record<string, Record<string, unknown>>)) {
    if (status === '431') {
      response[status] = r;
      continue;
    }
    const description = r['x-response-description'] ?? r.description;
    response[status] = { type: 'null', description, ...(r.headers ? { headers: r.headers } : {}) };
  }
  return {
    ...schema,
    summary: `${schema.summary ?? ''} (headers only)`,
    description: 'The GET operation of this path without its body: same checks, status, headers and charge.',
    response,
  };
}

/** Registers the document generator, /openapi.json and /docs; call before the operations are added. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: DOCUMENT,
    refResolver,
    exposeHeadRoutes: true,
    transform: ({ schema, url, route }) => ({
      schema: route.method === 'HEAD' && schema ? headOperation(schema as RouteSchema) : schema,
      url,
    }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, (_req, reply) =>
    reply.type(JSON_TYPE).send(JSON.stringify(app.swagger())),
  );
}
