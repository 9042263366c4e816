// Forgot password: a user asks for a one-time reset link by email, without the operator.
// Guarantees: the page answers the same words, status and timing whether or not an account
// has the address (the store work and the mail run after the answer); one reset mail per
// account per RESEND_MS at most (the mail's event key), so the form cannot flood a mailbox;
// a client address may ask MAX_PER_ADDRESS times per window (attempt counters in the store).
import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../pages';
import { emailError, errorsOf, field, type Body } from '../forms';
import { form } from './guards';

const HIDE = { schema: { hide: true } };
/** One reset mail per account in this long. */
export const RESEND_MS = 15 * 60_000;
const WINDOW_MS = 15 * 60_000;
export const MAX_PER_ADDRESS = 10;
const LINK_HOURS = 24;

export function forgotRoutes(app: FastifyInstance, { accounts, mailer }: DashboardDeps): void {
  app.get('/forgot', HIDE, (_req, reply) =>
    reply.page('forgot.eta', { title: 'Forgot your password?', email: '', errors: {}, sent: false }),
  );

  app.post('/forgot', { ...HIDE, preHandler: form(app) }, async (req, reply) => {
    const email = field(req.body as Body, 'email').trim();
    const errors = errorsOf({ email: emailError(email) });
    if (Object.keys(errors).length > 0)
      return reply.code(400).page('forgot.eta', { title: 'Forgot your password?', email, errors, sent: false });
    const now = accounts.now();
    const asked = await accounts.countAttempt(
      `forgot:${hash('sha256', req.ip, 'hex')}`,
      Math.floor(now / WINDOW_MS),
      WINDOW_MS,
    );
    if (asked > MAX_PER_ADDRESS)
      return reply.code(429).page('forgot.eta', {
        title: 'Forgot your password?',
        email,
        errors: { form: 'Too many reset requests from your network. Wait 15 minutes, then try again.' },
        sent: false,
      });
    void (async () => {
      const link = await accounts.resetLink(email);
      if (link === null) return;
      await mailer.send(`reset:${link.account}:${Math.floor(now / RESEND_MS)}`, link.email, 'reset', {
        link: mailer.link(`/reset/${link.token}`),
        hours: LINK_HOURS,
      });
    })().catch((err: unknown) => req.log.warn({ err: String(err) }, 'reset mail not made'));
    return reply.page('forgot.eta', { title: 'Forgot your password?', email, errors: {}, sent: true });
  });
}
