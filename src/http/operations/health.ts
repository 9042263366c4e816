// GET /health — liveness and catalogue build information, read from the served file. No key.
// 503 (error shape) while the served file cannot answer: overwritten in place, see src/ops/catalogue-reloader.ts.
import type { Api } from '../api';
import { Health } from '../schemas';
import { answer, refusals } from '../responses';
import { HEALTH } from '../examples';
import { sendJson } from '../json';

export function health(app: Api): void {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Service health and catalogue build information',
        description:
          'Needs no API key and is not charged; `built_at` is the freshness signal. Query parameters are ignored.',
        tags: ['service'],
        security: [],
        response: {
          200: answer(Health, 'The service is up: the size and build date of the catalogue it serves.', {}, HEALTH),
          // 503: the served catalogue file is being overwritten in place (src/http/catalogue-outage.ts).
          ...refusals([431, 503], {
            503: 'The served catalogue file is being replaced and cannot answer: retry shortly (Retry-After).',
          }),
        },
      },
    },
    (_req, reply) => sendJson(reply, app.catalogue().healthJson),
  );
}
