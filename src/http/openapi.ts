// The OpenAPI document and the API reference page: the document's settings (title,
// security scheme, tags), /openapi.json and the Swagger UI under /docs. Guarantees: the
// document is generated from the schemas the operations register with (swagger() reads
// them once the routes are added), so what it says is what the validator enforces.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { JSON_TYPE } from './json';

const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Cosmetics Catalogue API',
    version: '1.0.0',
    description:
      'Read-only catalogue of cosmetics products with full INCI ingredient lists in label order, joined to a dictionary of canonical ingredients with safety data. Every operation has a stable operationId (the typed client in clients/typescript is generated from them).',
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

/** Registers the document generator, /openapi.json and /docs; call before the operations are added. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, { openapi: DOCUMENT });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, (_req, reply) =>
    reply.type(JSON_TYPE).send(JSON.stringify(app.swagger())),
  );
}
