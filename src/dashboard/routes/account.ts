// Sign-in, sign-out, the account page, password change and password reset by a one-time link
// (sign-up: signup.ts). Guarantees: the session id changes at sign-in
// (regenerate); sign-out ends the session in the store; a password change or reset ends every
// session of the account (the one changing it signs in again under a new id); an unknown email
// and a wrong password get the same message; a sign-in or a password check refused because
// the process hashes its bound already is answered at once, 503 with Retry-After, on the same
// form; each limit of src/access/attempt-limits.ts has its own message (429).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUSY, BUSY_RETRY_S, isBusy, retryAfterPassed, type UserRecord } from '../../access';
import type { DashboardDeps } from '../pages';
import { PREFIX } from '../pages';
import { emailError, errorsOf, field, passwordError, type Body } from '../forms';
import { form, requireUser } from './guards';
import { planFacts } from './plan-facts';
import { knownAccount, rememberBrowser } from '../known-browser';

const HIDE = { schema: { hide: true } };

const SIGN_IN_REFUSED = {
  invalid: 'That email and password do not match an account.',
  'pair-limited':
    'Too many failed sign-ins for this account from your network. Wait five minutes, then try again, or reset your password.',
  'account-limited':
    'Too many failed sign-ins for this account from many networks. Sign in from a browser you signed in with before, wait 15 minutes, or reset your password by email.',
  'address-limited': 'Too many failed sign-ins from your network. Wait five minutes, then try again.',
  disabled: 'This account is disabled. Contact the operator of this service.',
} as const;

/** Runs a password check; null when it was refused because too many run now (the caller answers 503, held for its Retry-After). */
async function unlessBusy<T>(reply: FastifyReply, check: () => Promise<T>): Promise<T | null> {
  try {
    return await check();
  } catch (err) {
    if (!isBusy(err)) throw err;
    void reply.header('retry-after', String(BUSY_RETRY_S));
    await retryAfterPassed();
    return null;
  }
}

/** Starts a signed-in session for `user` under a new session id. */
async function startSession(req: FastifyRequest, user: UserRecord, now: number): Promise<void> {
  await req.session.regenerate();
  req.session.account = user.name;
  req.session.createdAt = req.session.seenAt = now;
  req.user = user;
}

export function accountRoutes(app: FastifyInstance, { accounts, settings }: DashboardDeps): void {
  app.get('/sign-in', HIDE, (req, reply) => {
    if (req.user) return reply.redirect(`${PREFIX}/account`, 303);
    const signedOut = (req.query as Body)?.['signed-out'] === '1';
    return reply.page('sign-in.eta', {
      title: 'Sign in',
      email: '',
      errors: {},
      signup: settings.signup,
      notice: signedOut ? 'You are signed out.' : undefined,
    });
  });

  app.post('/sign-in', { ...HIDE, preHandler: form(app) }, async (req, reply) => {
    const body = req.body as Body;
    const email = field(body, 'email');
    const password = field(body, 'password');
    const errors = errorsOf({
      email: emailError(email),
      password: password === '' ? 'Enter your password.' : undefined,
    });
    const again = (status: number, extra: Record<string, string>) =>
      reply
        .code(status)
        .page('sign-in.eta', { title: 'Sign in', email, errors: { ...errors, ...extra }, signup: settings.signup });
    if (Object.keys(errors).length > 0) return again(400, {});
    const result = await unlessBusy(reply, () => accounts.signIn(email, password, req.ip, knownAccount(req)));
    if (result === null) return again(503, { form: BUSY });
    if (!result.ok)
      return again(result.why === 'invalid' || result.why === 'disabled' ? 401 : 429, {
        form: SIGN_IN_REFUSED[result.why],
      });
    await startSession(req, result.user, accounts.now());
    rememberBrowser(reply, result.user.name);
    return reply.redirect(`${PREFIX}/account`, 303);
  });

  app.post('/sign-out', { ...HIDE, preHandler: form(app) }, async (req, reply) => {
    await req.session.destroy();
    return reply.redirect(`${PREFIX}/sign-in?signed-out=1`, 303);
  });

  app.get('/account', { ...HIDE, preHandler: requireUser }, async (req, reply) => {
    const user = req.user!;
    const keys = await accounts.keys(user.name);
    return reply.page('account.eta', {
      title: 'Your account',
      facts: await planFacts(accounts, user, keys),
      billingText: settings.billingText,
      keys: keys.length,
      alerts: (await accounts.selfServe.prefs(user.name)).alerts,
    });
  });

  app.get('/password', { ...HIDE, preHandler: requireUser }, (_req, reply) =>
    reply.page('password.eta', { title: 'Change your password', errors: {} }),
  );

  app.post('/password', { ...HIDE, preHandler: form(app, requireUser) }, async (req, reply) => {
    const body = req.body as Body;
    const current = field(body, 'current');
    const next = field(body, 'password');
    const errors = errorsOf({
      current: current === '' ? 'Enter your current password.' : undefined,
      password: passwordError(next),
      confirm: field(body, 'confirm') === next ? undefined : 'The two passwords differ.',
    });
    const again = (status: number) =>
      reply.code(status).page('password.eta', { title: 'Change your password', errors });
    if (Object.keys(errors).length > 0) return again(400);
    const user = req.user!;
    const changed = await unlessBusy(reply, () => accounts.changePassword(user.name, current, next));
    if (changed !== 'changed') {
      if (changed === null) errors.form = BUSY;
      else if (changed === 'limited')
        errors.form = 'Too many wrong current passwords. Wait five minutes, then try again, or sign out and reset it.';
      else errors.current = 'This is not your current password.';
      return again({ changed: 400, wrong: 400, limited: 429, null: 503 }[String(changed)]!);
    }
    await startSession(req, user, accounts.now()); // every other session of the account has ended
    return reply.page('notice.eta', {
      title: 'Password changed',
      text: 'Your password is changed. Every other session of your account has been signed out.',
    });
  });

  app.get('/reset/:token', HIDE, async (req, reply) => {
    const token = (req.params as { token: string }).token;
    const valid = (await accounts.peekToken(token, 'reset')) !== null;
    return reply.page('reset.eta', { title: 'Choose a new password', token, valid, errors: {} });
  });

  app.post('/reset/:token', { ...HIDE, preHandler: form(app) }, async (req, reply) => {
    const token = (req.params as { token: string }).token;
    const body = req.body as Body;
    const password = field(body, 'password');
    const errors = errorsOf({
      password: passwordError(password),
      confirm: field(body, 'confirm') === password ? undefined : 'The two passwords differ.',
    });
    if (Object.keys(errors).length > 0)
      return reply.code(400).page('reset.eta', { title: 'Choose a new password', token, valid: true, errors });
    const account = await unlessBusy(reply, () => accounts.resetPassword(token, password));
    if (account === null)
      return reply
        .code(503)
        .page('reset.eta', { title: 'Choose a new password', token, valid: true, errors: { form: BUSY } });
    if (account === false)
      return reply.code(400).page('reset.eta', { title: 'Choose a new password', token, valid: false, errors: {} });
    await req.session.regenerate();
    rememberBrowser(reply, account); // the mailbox's owner: not held to the per-email sign-in limit
    return reply.page('notice.eta', {
      title: 'Password changed',
      text: 'Your new password is set and every session of your account has been signed out. Sign in with it now.',
      link: { href: `${PREFIX}/sign-in`, text: 'Sign in' },
    });
  });
}
