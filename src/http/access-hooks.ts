// Wires the access layer into every /v1 route, in the order the metering spec fixes:
// key (403/503) → billing (402) → per-second rate (429) [onRequest, before parsing]
// → request validation (400/415) [framework] → allowances (429) [preHandler, just
// before the catalogue is read]. Guarantees: no /v1 handler runs for a request that
// was not admitted and charged; a batch is charged once per id.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessControl, Grant } from '../access/types';
import { ApiError } from '../shared/errors';

declare module 'fastify' {
  interface FastifyRequest {
    grant: Grant | null;
  }
  interface FastifyContextConfig {
    /** Calls this request is charged (default 1). */
    units?: (req: FastifyRequest) => number;
    /** The route needs a plan with barcode lookup. */
    barcode?: boolean;
  }
}

export function installAccessHooks(app: FastifyInstance, access: AccessControl): void {
  app.decorateRequest('grant', null);
  app.addHook('onRequest', async (req) => {
    const key = req.headers['x-api-key'];
    req.grant = await access.admit(typeof key === 'string' ? key : undefined);
    if (req.routeOptions.config.barcode && !req.grant.plan.barcode) throw ApiError.refusal('noBarcodePlan');
  });
  app.addHook('preHandler', async (req: FastifyRequest, reply) => {
    const units = req.routeOptions.config.units?.(req) ?? 1;
    const { trialRemaining } = await access.charge(req.grant!, units);
    if (trialRemaining !== null) reply.header('X-Trial-Requests-Remaining', trialRemaining);
  });
}
