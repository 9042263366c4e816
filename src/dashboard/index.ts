// The developer dashboard: server-rendered pages under /dashboard where app builders sign up,
// make, roll and disable their keys, watch their usage and try the label analysis, and where
// admins run the accounts (docs/dashboard.md). A fastify plugin in a context of its own: its
// cookie, session, form-token and form parsers, its Content-Security-Policy and its error pages
// apply to its routes only (the /v1 routes gain no hook). Guarantees: every state-changing
// form is refused without a form token of this browser (and session), and acts once
// (form-tokens.ts); a session is stored only once someone signs in (a visitor's page view
// writes nothing to the store), and ends at sign-out, at a password change, after IDLE_MS
// unused and ABSOLUTE_MS after sign-in (by the access layer's clock); a store outage is a
// plain 503 page, never a 500; the pages run no inline script (the chart and the copy button
// are files of their own, and everything else works without JavaScript).
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie, { Signer } from '@fastify/cookie';
import session from '@fastify/session';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import view from '@fastify/view';
import fastifyStatic from '@fastify/static';
import { Eta } from 'eta';
import {
  BUSY_RETRY_S,
  hashesFree,
  isBusy,
  noteBusyRefusal,
  retryAfterPassed,
  type AccessAccounts,
  type UserRecord,
} from '../access';
import { packageRoot } from '../shared/package-root';
import { ApiError } from '../shared/errors';
import { AccessSessionStore, sessionEnd } from './session-store';
import { FormTokens } from './form-tokens';
import { ABSOLUTE_MS, type DashboardSettings } from './settings';
import { knownInHeader } from './known-browser';
import { standingOf, wallOf, type Wall } from './wall';
import { POLL_MS, refresh } from './live-settings';
import { ERROR_PAGE, PREFIX, errorPage, type DashboardDeps } from './pages';
import { accountRoutes } from './routes/account';
import { signUpRoutes } from './routes/signup';
import { keyRoutes } from './routes/keys';
import { usageRoutes } from './routes/usage';
import { playgroundRoutes } from './routes/playground';
import { adminRoutes } from './routes/admin';
import { adminMailRoutes } from './routes/admin-mail';
import { forgotRoutes } from './routes/forgot';
import { planRoutes } from './routes/plans';
import { prefsRoutes } from './routes/prefs';
import { adminRequestRoutes } from './routes/admin-requests';
import { adminKeyRoutes } from './routes/admin-keys';
import { billingRoutes, stripeWebhook } from './routes/billing';
export type { StripeBilling } from './stripe';
export { UsageAlerts } from './alerts';

export { DEFAULT_SETTINGS, type DashboardSettings } from './settings';
export { PREFIX, errorPage, type DashboardDeps } from './pages';
export { CSRF_COOKIE, FORM_MS } from './form-tokens';

export const COOKIE = 'catalogue_session';
/** How often each instance checks the usage alerts (each alert is mailed once, whoever finds it first). */
export const ALERT_MS = 5 * 60_000;
/** Only the dashboard's own files: no inline script or style, no other origin, no framing. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/** Stripe mode: a form may also lead (by its redirect) to Stripe Checkout and the customer portal. */
export const STRIPE_CSP = CSP.replace(
  "form-action 'self'",
  "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
);

declare module 'fastify' {
  interface Session {
    /** The signed-in account; absent before sign-in. */
    account?: string;
    createdAt?: number;
    seenAt?: number;
  }
  interface FastifyInstance {
    /** The pre-handler of every state-changing form (guards.ts `form`). */
    forms: FormTokens;
  }
  interface FastifyRequest {
    user: UserRecord | null;
    /** The wall the signed-in account's keys are at (the banner); null when they are served. */
    wall: Wall | null;
  }
  interface FastifyReply {
    page(view: string, data?: Record<string, unknown>): FastifyReply;
    /** A new form token (the `_csrf` field) for one form of this reply's page. */
    formToken(): string;
  }
}

/** What every page gets besides its own data. */
export interface PageData {
  title: string;
  user: UserRecord | null;
  wall: Wall | null;
  /** Prints a new form token each time a template prints it, so that every form has its own. */
  csrf: { toString(): string };
  path: string;
  notice?: string;
  [k: string]: unknown;
}

const VIEWS = join(packageRoot(), 'src', 'dashboard', 'views');
const ASSETS = join(packageRoot(), 'src', 'dashboard', 'assets');

/**
 * Register with `{ prefix: PREFIX }`. Two contexts inside: the static files (no session, no
 * store access), and the pages with their cookie, session and form-body plugins and form tokens.
 */
export async function dashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  // helmet's headers for pages (cross-origin isolation, no MIME sniffing, no framing); the CSP is
  // set on the reply instead, so that it replaces the API's "default-src 'none'" (src/ops).
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    strictTransportSecurity: false, // the operator's proxy decides HSTS for the whole host
  });
  const csp = deps.settings.stripe === undefined ? CSP : STRIPE_CSP;
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('content-security-policy', csp);
    done();
  });
  const eta = new Eta({ views: VIEWS, autoEscape: true, cache: true });
  await app.register(view, { engine: { eta }, templates: VIEWS });
  app.decorateRequest('user', null);
  app.decorateRequest('wall', null);
  app.decorateReply('page', function (this: FastifyReply, name: string, data: Record<string, unknown> = {}) {
    const req = this.request;
    const page: PageData = {
      title: '',
      user: req.user,
      wall: req.wall,
      csrf: { toString: () => this.formToken() },
      path: req.url,
      ...data,
    };
    return this.type('text/html; charset=utf-8').view(name, page);
  });
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    app.forms?.release(req); // nothing was done: the form may be sent again
    if (isBusy(err))
      return retryAfterPassed().then(() => errorPage(reply.header('retry-after', String(BUSY_RETRY_S)), 503, 'busy'));
    if (err instanceof ApiError && err.code === 'unavailable') return errorPage(reply, 503, 'unavailable');
    if (err.statusCode === 413) return errorPage(reply, 413, 'large');
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500)
      return errorPage(reply, err.statusCode, 'bad');
    req.log.error({ err }, 'dashboard error');
    return errorPage(reply, 500, 'bug');
  });
  app.setNotFoundHandler((_req, reply) => errorPage(reply, 404, 'missing'));

  await app.register(async (files) => {
    await files.register(fastifyStatic, { root: ASSETS, prefix: '/assets/', index: false });
    await files.register(fastifyStatic, {
      root: dirname(require.resolve('@picocss/pico/css/pico.min.css')),
      prefix: '/assets/pico/',
      decorateReply: false,
      index: false,
    });
    await files.register(fastifyStatic, {
      root: dirname(require.resolve('uplot/dist/uPlot.iife.min.js')),
      prefix: '/assets/uplot/',
      decorateReply: false,
      index: false,
    });
  });
  const { accounts, access, catalogue, labels, settings, mailer, billing, alerts } = deps; // not the options' `prefix`, already applied
  const all: DashboardDeps = { accounts, access, catalogue, labels, settings, mailer, billing, alerts };
  await app.register(stripeWebhook, all);
  const every = (ms: number, what: string, job: () => Promise<unknown>) => {
    const run = () => void job().catch((err: unknown) => app.log.warn({ err: String(err) }, what));
    const first = setTimeout(run, 10_000).unref();
    const timer = setInterval(run, ms).unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      clearInterval(timer);
    });
  };
  await refresh(settings, accounts).catch(() => {}); // the store may be down now: the poll tries again
  const live = setInterval(() => void refresh(settings, accounts).catch(() => {}), POLL_MS).unref();
  app.addHook('onClose', async () => clearInterval(live));
  if (billing !== undefined) every(3_600_000, 'overage not reported', () => billing.reportOverage());
  if (alerts !== undefined) every(ALERT_MS, 'usage alerts not checked', () => alerts.check());
  await app.register(pages, { ...all, busyPage: eta.render('./error', { ...ERROR_PAGE.busy, ...BLANK, status: 503 }) });
}

/** A page that needs no session, user or form token. */
const BLANK = { user: null, wall: null, csrf: '', path: '' };

/** The forms whose handling hashes a password (src/access/passwords.ts bounds the hashes at once). */
const HASHING_FORMS = new Set(['sign-in', 'sign-up', 'password', 'reset/:token'].map((p) => `${PREFIX}/${p}`));

async function pages(app: FastifyInstance, deps: DashboardDeps & { busyPage: string }): Promise<void> {
  const { accounts, settings } = deps;
  const forms = new FormTokens(accounts);
  let signer: Signer | undefined;
  /** Reads the session secret once; it signs the cookies and keys the form tokens. */
  const secret = async (): Promise<void> => {
    if (signer !== undefined) return;
    const key =
      settings.sessionSecret ?? (await accounts.setting('session-secret', () => randomBytes(32).toString('base64url')));
    forms.setKey(key);
    signer = new Signer(key);
  };
  await secret().catch(() => {}); // the store may be down now: each request tries again first
  // First of all, before cookies, session, body and form token: a form that would hash a password
  // while the process hashes its bound already is refused, never queued, with the page made at
  // start (a browser its account signed in with may still use the slot kept for owners), sent
  // when its Retry-After has passed (retryAfterPassed).
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'POST' || hashesFree() || !HASHING_FORMS.has(req.routeOptions.url ?? '')) return done();
    if (hashesFree(true) && signer !== undefined && knownInHeader(req.headers.cookie, signer) !== '') return done();
    noteBusyRefusal();
    reply.code(503).header('retry-after', String(BUSY_RETRY_S)).type('text/html; charset=utf-8');
    void retryAfterPassed().then(() => reply.send(deps.busyPage));
  });
  app.addHook('onRequest', secret);
  const signed = { sign: (v: string) => signer!.sign(v), unsign: (v: string) => signer!.unsign(v) };
  await app.register(cookie, { secret: signed });
  await app.register(session, {
    secret: signed,
    cookieName: COOKIE,
    store: new AccessSessionStore(accounts),
    saveUninitialized: false,
    rolling: false,
    cookie: { path: PREFIX, httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: ABSOLUTE_MS },
  });
  app.decorate('forms', forms);
  app.decorateReply('formToken', function (this: FastifyReply) {
    return forms.make(this);
  });
  await app.register(formbody, { bodyLimit: 256 * 1024 });
  app.addHook('preHandler', (req, reply) => loadUser(req, reply, accounts, settings));

  app.get('/', { schema: { hide: true } }, (req, reply) =>
    reply.redirect(req.user ? `${PREFIX}/account` : `${PREFIX}/sign-in`, 303),
  );
  accountRoutes(app, deps);
  signUpRoutes(app, deps);
  forgotRoutes(app, deps);
  planRoutes(app, deps);
  prefsRoutes(app, deps);
  billingRoutes(app, deps);
  adminRequestRoutes(app, deps);
  adminKeyRoutes(app, deps);
  keyRoutes(app, deps);
  usageRoutes(app, deps);
  playgroundRoutes(app, deps);
  adminRoutes(app, deps);
  adminMailRoutes(app, deps);
}

/**
 * The session's account, ended when it is past its idle or absolute end, or the account is
 * disabled; and the wall its keys are at. A visitor's session is left untouched, so that it is
 * never stored.
 */
async function loadUser(
  req: FastifyRequest,
  reply: FastifyReply,
  accounts: AccessAccounts,
  settings: DashboardSettings,
): Promise<void> {
  const s = req.session;
  if (s.account === undefined) return;
  const now = accounts.now();
  const user = now < sessionEnd(s.createdAt ?? now, s.seenAt ?? now) ? await accounts.user(s.account) : null;
  if (user === null || user.disabled) {
    await s.regenerate(); // a new, empty session (not stored); the old one is gone from the store
    void reply.clearCookie(COOKIE, { path: PREFIX });
    return;
  }
  s.seenAt = now;
  req.user = user;
  req.wall = wallOf(user, await standingOf(accounts, user), settings.stripe !== undefined);
}
