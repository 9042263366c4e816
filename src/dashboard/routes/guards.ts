// Who may see a page. Guarantees: a page behind requireUser is never rendered without a signed-in,
// enabled account (others are sent to sign in); one behind requireAdmin answers developers 403.
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  preHandlerHookHandler,
} from 'fastify';
import { errorPage, PREFIX } from '../pages';

export function requireUser(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (req.user === null) void reply.redirect(`${PREFIX}/sign-in`, 303);
  else done();
}

export function requireAdmin(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (req.user === null) void reply.redirect(`${PREFIX}/sign-in`, 303);
  else if (req.user.role !== 'admin') void errorPage(reply, 403, 'forbidden');
  else done();
}

/** The pre-handlers of a state-changing form: CSRF first, then who may send it. */
export function form(app: FastifyInstance, ...then: preHandlerHookHandler[]): preHandlerHookHandler[] {
  const csrf: preHandlerHookHandler = (req, reply, done) => app.csrfProtection(req, reply, done);
  return [csrf, ...then];
}
