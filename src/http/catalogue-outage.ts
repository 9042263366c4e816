// While the served catalogue cannot answer (its file overwritten in place, see
// src/ops/catalogue-reloader.ts), the requests that read it — /health and every /v1
// operation — are answered 503 in the error shape with the reason and Retry-After, before
// the access hooks (so they are not charged), rather than 500s from a file changing under
// its reader; /health tells the truth instead of its usual 200.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../shared/errors';

/** Why the catalogue cannot answer now, or undefined when it can. */
export type CatalogueProblem = () => string | undefined;

const readsCatalogue = (url: string) => url.startsWith('/v1/') || url === '/health' || url.startsWith('/health?');

export function installCatalogueOutage(app: FastifyInstance, problem: CatalogueProblem): void {
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const reason = problem();
    if (reason === undefined || !readsCatalogue(req.url)) return done();
    reply.header('retry-after', '1');
    done(new ApiError('unavailable', reason));
  });
}
