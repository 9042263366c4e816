// Who may see a page. Guarantees: a page behind requireUser is never rendered without a signed-in,
// enabled account (others are sent to sign in); one behind requireAdmin answers developers 403.
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { errorPage, PREFIX } from '../index';

export async function requireUser(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.user === null) await reply.redirect(`${PREFIX}/sign-in`, 303);
}

export async function requireAdmin(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.user === null) await reply.redirect(`${PREFIX}/sign-in`, 303);
  else if (req.user.role !== 'admin') await errorPage(reply, 403, 'forbidden');
}

/** The pre-handlers of a state-changing form: CSRF first, then who may send it. */
export function form(app: FastifyInstance, ...then: preHandlerHookHandler[]): preHandlerHookHandler[] {
  return [app.csrfProtection as preHandlerHookHandler, ...then];
}
