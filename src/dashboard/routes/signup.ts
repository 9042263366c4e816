// Sign-up (open, or by invitation) and the confirmation of a new account's email address.
// Guarantees: a client address may send MAX_SIGNUPS_PER_ADDRESS sign-ups per WINDOW_MS
// (counted in the store before any password is hashed, so a script cannot repeat it cheaply);
// the answer is the same page, status and work whether or not the email already has an
// account — a new account is mailed a confirmation link, an existing one a note saying
// someone tried (both after the answer, once per account per RESEND_MS); an account made here
// can make no key until its address is confirmed by the link (keys.ts); the link works once,
// for CONFIRM_MS, and starts at --public-url (never the Host header). Nothing here signs in.
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONFIRM_MS, type UserRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { errorPage, PREFIX } from '../pages';
import { emailError, errorsOf, field, passwordError, type Body } from '../forms';
import type { MailOutcome } from '../../mail';
import { form, requireUser } from './guards';

const HIDE = { schema: { hide: true } };
/** Sign-ups one client address may send in one window. */
export const MAX_SIGNUPS_PER_ADDRESS = 5;
export const SIGNUP_WINDOW_MS = 3_600_000;
/** One confirmation (or "someone tried") mail per account in this long. */
export const RESEND_MS = 15 * 60_000;

export function signUpRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts, settings } = deps;

  app.get('/sign-up', HIDE, async (req, reply) => {
    const invite = typeof (req.query as Body)?.invite === 'string' ? field(req.query as Body, 'invite') : '';
    const valid = invite !== '' && (await accounts.peekToken(invite, 'invite')) !== null;
    return reply.page('sign-up.eta', {
      title: 'Create an account',
      email: '',
      errors: {},
      invite: valid ? invite : '',
      closed: settings.signup === 'invite' && !valid,
      badInvite: invite !== '' && !valid,
      sent: false,
    });
  });

  app.post('/sign-up', { ...HIDE, preHandler: form(app) }, async (req, reply) => {
    const body = req.body as Body;
    const email = field(body, 'email').trim();
    const password = field(body, 'password');
    const invite = field(body, 'invite');
    const errors = errorsOf({
      email: emailError(email),
      password: passwordError(password),
      confirm: field(body, 'confirm') === password ? undefined : 'The two passwords differ.',
    });
    const again = (status: number, extra: Record<string, unknown> = {}) =>
      reply.code(status).page('sign-up.eta', {
        title: 'Create an account',
        email,
        errors,
        invite,
        closed: false,
        badInvite: false,
        sent: false,
        ...extra,
      });
    if (settings.signup === 'invite' && (invite === '' || (await accounts.peekToken(invite, 'invite')) === null))
      return again(403, { closed: true, badInvite: invite !== '' });
    if (Object.keys(errors).length > 0) return again(400);
    if ((await countSignUp(deps, req)) > MAX_SIGNUPS_PER_ADDRESS) {
      errors.form = 'Too many sign-ups from your network. Wait an hour, then try again.';
      return again(429);
    }
    const token = invite === '' ? null : await accounts.takeToken(invite, 'invite');
    if (invite !== '' && token === null)
      return again(403, { closed: settings.signup === 'invite', badInvite: true, invite: '' });
    const user = await accounts
      .signUp(email, password, token?.plan || settings.signupPlan, 'developer', true)
      .catch(async (err: unknown) => {
        if (token !== null) await accounts.returnToken(invite, token); // nothing was made (busy, store)
        throw err;
      });
    if (user === null && token !== null) await accounts.returnToken(invite, token); // still good for another email
    void mailAfterSignUp(deps, email, user).catch((err: unknown) =>
      req.log.warn({ err: String(err) }, 'sign-up mail not made'),
    );
    return reply.page('sign-up.eta', { title: 'Check your mail', email, errors: {}, invite: '', sent: true });
  });

  app.get('/confirm/:token', HIDE, async (req, reply) => {
    const user = await accounts.confirmAddress((req.params as { token: string }).token);
    if (user === null)
      return reply.code(400).page('notice.eta', {
        title: 'This link is not valid',
        text: 'The confirmation link was used already, has expired, or is mistyped. Sign in to ask for a new one.',
        link: { href: `${PREFIX}/sign-in`, text: 'Sign in' },
      });
    const signedIn = req.user?.name === user.name;
    return reply.page('notice.eta', {
      title: 'Address confirmed',
      text: `Thank you: ${user.email} is confirmed. Your account can make API keys now.`,
      link: signedIn
        ? { href: `${PREFIX}/keys`, text: 'Make your first key' }
        : { href: `${PREFIX}/sign-in`, text: 'Sign in' },
    });
  });

  app.post('/confirm', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const user = req.user!;
    if (!(await accounts.unconfirmed(user.name))) return reply.redirect(`${PREFIX}/keys`, 303);
    const outcome = await confirmMail(deps, user);
    if (outcome === 'unavailable') return errorPage(reply, 503, 'unavailable');
    return reply.page('notice.eta', {
      title: 'Check your mail',
      text:
        outcome === 'duplicate'
          ? `A link was mailed to ${user.email} less than 15 minutes ago: it is still good. Check the spam folder too, or ask again later.`
          : `A new confirmation link is on its way to ${user.email}. It works once, for 48 hours.`,
      link: { href: `${PREFIX}/keys`, text: 'Back to your keys' },
    });
  });
}

/** Counts the sign-up against its client address; the count in this window after it. */
function countSignUp({ accounts }: DashboardDeps, req: FastifyRequest): Promise<number> {
  const now = accounts.now();
  const name = `signup:${hash('sha256', req.ip, 'hex')}`;
  return accounts.countAttempt(name, Math.floor(now / SIGNUP_WINDOW_MS), SIGNUP_WINDOW_MS);
}

/** The mail a sign-up causes: a confirmation link for a new account, a note to the owner of an existing one. */
async function mailAfterSignUp(deps: DashboardDeps, email: string, user: UserRecord | null): Promise<void> {
  const { accounts, mailer } = deps;
  if (user !== null) {
    await confirmMail(deps, user);
    return;
  }
  const existing = await accounts.userByEmail(email);
  if (existing === null) return;
  const slot = Math.floor(accounts.now() / RESEND_MS);
  await mailer.send(`signup-exists:${existing.name}:${slot}`, existing.email, 'exists', {
    signIn: mailer.link('/sign-in'),
    forgot: mailer.link('/forgot'),
  });
}

/** Mails the account a new confirmation link (once per RESEND_MS: 'duplicate' when one was). */
async function confirmMail({ accounts, mailer }: DashboardDeps, user: UserRecord): Promise<MailOutcome> {
  const slot = Math.floor(accounts.now() / RESEND_MS);
  const event = `confirm:${user.name}:${slot}`;
  const link = await accounts.confirmLink(user.name);
  return mailer.send(event, user.email, 'confirm', {
    link: mailer.link(`/confirm/${link.token}`),
    hours: CONFIRM_MS / 3_600_000,
  });
}
