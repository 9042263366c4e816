// Who may see a page or send a form. Guarantees: a page behind requireUser is never rendered
// without a signed-in, enabled account (others are sent to sign in); one behind requireAdmin
// answers developers 403; a form behind `form` is refused without its form token.
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

/**
 * The pre-handlers of a state-changing form: its form token first (CSRF, and sent once when
 * signed in: form-tokens.ts), then who may send it. Every POST route of the dashboard uses it.
 */
export function form(app: FastifyInstance, ...then: preHandlerHookHandler[]): preHandlerHookHandler[] {
  return [app.forms.check, ...then];
}
