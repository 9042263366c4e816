// Wires the access layer into every /v1 route, in the order the metering spec fixes:
// key (403/503) → billing (402) → per-second rate (429) [onRequest, before parsing]
// → request validation (400/415) [framework] → allowances (429) [preHandler, just
// before the catalogue is read]. Guarantees: no /v1 handler runs for a request that
// was not admitted and charged; a batch is charged once per id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Callback hooks rather than async functions: fastify then runs the next step as soon as the
 * store's promise settles, with no promise of the hook's own for it to wait on (one promise
 * and one microtask turn less per hook per request).
 */
export function installAccessHooks(app: FastifyInstance, access: AccessControl): void {
  app.decorateRequest('grant', null);
  app.addHook('onRequest', (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const key = req.headers['x-api-key'];
    settle(
      () => access.admit(typeof key === 'string' ? key : undefined),
      (grant) => {
        req.grant = grant;
        done(req.routeOptions.config.barcode && !grant.plan.barcode ? ApiError.refusal('noBarcodePlan') : undefined);
      },
      done,
    );
  });
  app.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const units = req.routeOptions.config.units?.(req) ?? 1;
    settle(
      () => access.charge(req.grant!, units),
      ({ trialRemaining }) => {
        if (trialRemaining !== null) reply.header('X-Trial-Requests-Remaining', trialRemaining);
        done();
      },
      done,
    );
  });
}

/** Runs `op`; `then` with its result, or `fail` with its error, thrown or rejected. */
function settle<T>(op: () => Promise<T>, then: (value: T) => void, fail: (err: Error) => void): void {
  let pending: Promise<T>;
  try {
    pending = op();
  } catch (err) {
    fail(err as Error);
    return;
  }
  pending.then((value) => {
    try {
      then(value);
    } catch (err) {
      fail(err as Error);
    }
  }, fail);
}
