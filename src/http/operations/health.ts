// GET /health — liveness and catalogue build information, read from the served file. No key.
// 503 (error shape) while the served file cannot answer: overwritten in place, see src/ops/catalogue-reloader.ts.
import type { Api } from '../api';
import { Health, errors } from '../schemas';
import { sendJson } from '../json';

export function health(app: Api): void {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Service health and catalogue build information',
        tags: ['service'],
        security: [],
        response: {
          200: Health,
          431: {
            type: 'null',
            description: 'Request headers over 16 KiB; answered by the HTTP layer before the service, with no body.',
          },
          // The served catalogue file is being overwritten in place (src/http/catalogue-outage.ts).
          ...errors(503),
        },
      },
    },
    (_req, reply) => sendJson(reply, app.catalogue().healthJson),
  );
}
