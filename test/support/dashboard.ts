// A real server with the dashboard on the fixture catalogue, for the dashboard tests: an
// injectable clock, an admin account made through the access layer, and a small cookie-keeping
// HTTP client that reads a page's CSRF token the way a browser form would send it. A sign-up
// through the client opens the confirmation link it mails (read from the server's mailbox: the
// outbox in the store, or a test SMTP server) and signs in, as a new user does.
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino, { type Logger } from 'pino';
import { openAccounts, type Clock } from '../../src/access';
import { startServer, type RunningServer } from '../../src/server';
import { DEFAULT_SETTINGS, type DashboardSettings } from '../../src/dashboard';
import { buildFixture } from './fixture';
import type { TestSmtp } from './smtp';

export class TestClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  /**
   * Moves the clock forward to one second after the start of the next window of `windowMs`
   * (fixed windows, as the attempt, sign-up and mail limits count in): a test that then takes
   * less than the window never sees a count start again in its middle.
   */
  startWindow(windowMs: number): void {
    const now = this.now();
    this.offset += Math.ceil(now / windowMs) * windowMs - now + 1000;
  }
}

export const ADMIN = { email: 'ops@example.com', password: 'admin password 1' };

/** The confirmation link mailed to `email` (lower case) by a sign-up; rejects when none comes. */
export type Mailbox = (email: string) => Promise<string>;
const mailboxes = new Map<string, Mailbox>();

/** Client.signUp on the server at `url` reads its confirmation links from `box`. */
export function useMailbox(url: string, box: Mailbox): void {
  mailboxes.set(url, box);
}

const CONFIRM_LINK = /(https?:\/\/\S+\/dashboard\/confirm\/[A-Za-z0-9_-]+)/;

/** Polls `find` every 20 ms until it gives a link (at most 5 s). */
async function poll(find: () => Promise<string | undefined> | string | undefined, what: string): Promise<string> {
  const end = Date.now() + 5000;
  for (;;) {
    const link = await find();
    if (link !== undefined) return link;
    if (Date.now() > end) throw new Error(`no confirmation mail for ${what} within 5 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The outbox in the access store (a server without --smtp-url). */
export function outboxMailbox(store: string): Mailbox {
  return async (email) => {
    const accounts = await openAccounts(store, { purpose: 'admin' });
    try {
      return await poll(async () => {
        const { mails } = await accounts.outbox.mails(0, 100);
        const m = mails.find((x) => x.to === email && CONFIRM_LINK.test(x.text));
        return m && CONFIRM_LINK.exec(m.text)![1];
      }, email);
    } finally {
      await accounts.close();
    }
  };
}

/**
 * A test SMTP server's mails: the confirmation mail is taken out of `smtp.mails` once read, as
 * a user who opened it, so that a test counting the other mails counts them as before.
 */
export function smtpMailbox(smtp: TestSmtp): Mailbox {
  return (email) =>
    poll(() => {
      const i = smtp.mails.findIndex(
        (m) => (m.to as { text: string } | undefined)?.text === email && CONFIRM_LINK.test(m.text ?? ''),
      );
      if (i < 0) return undefined;
      const [m] = smtp.mails.splice(i, 1);
      return CONFIRM_LINK.exec(m.text ?? '')![1];
    }, email);
}

export interface DashboardServer {
  url: string;
  server: RunningServer;
  clock: TestClock;
  store: string;
  dir: string;
  catalogue: string;
  close(): Promise<void>;
}

export async function startDashboard(
  settings: Partial<DashboardSettings> = {},
  opts: {
    store?: string;
    catalogue?: string;
    dir?: string;
    logger?: Logger;
    dashboardPort?: number;
    plans?: string;
  } = {},
): Promise<DashboardServer> {
  const own = opts.dir === undefined;
  const { file, dir } =
    opts.catalogue !== undefined && opts.dir !== undefined
      ? { file: opts.catalogue, dir: opts.dir }
      : await buildFixture();
  const store = opts.store ?? `sqlite:${path.join(dir, 'access.sqlite')}`;
  const clock = new TestClock();
  const accounts = await openAccounts(store, { purpose: 'admin', plansFile: opts.plans });
  await accounts.signUp(ADMIN.email, ADMIN.password, 'pro', 'admin');
  await accounts.close();
  const server = await startServer({
    catalogue: file,
    host: '127.0.0.1',
    port: 0,
    access: store,
    plans: opts.plans,
    clock,
    logger: opts.logger ?? pino({ level: 'silent' }),
    dashboard: { ...DEFAULT_SETTINGS, ...settings },
    dashboardPort: opts.dashboardPort,
  });
  if (settings.mail?.smtpUrl === undefined) useMailbox(server.url, outboxMailbox(store));
  return {
    url: server.url,
    server,
    clock,
    store,
    dir,
    catalogue: file,
    close: async () => {
      await server.close();
      if (own) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser-like client: keeps cookies (by name), follows no redirect, reads CSRF tokens from pages. */
export class Client {
  cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(p: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...(init.headers as Record<string, string>) });
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(this.base + p, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(pair.slice(0, i));
      else this.cookies.set(pair.slice(0, i), value);
    }
    return res;
  }

  get(p: string): Promise<Response> {
    return this.request(p);
  }

  /** GETs `page` and returns its HTML and the CSRF token of its first form. */
  async page(p: string): Promise<{ status: number; html: string; csrf: string }> {
    const res = await this.get(p);
    const html = await res.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    return { status: res.status, html, csrf };
  }

  /** POSTs a form (urlencoded), as a browser does. */
  post(p: string, fields: Record<string, string>): Promise<Response> {
    return this.request(p, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Fetches `formPage` for a token, then posts `fields` with it to `action`. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<Response> {
    const { csrf } = await this.page(formPage);
    return this.post(action, { _csrf: csrf, ...fields });
  }

  async signIn(email: string, password: string): Promise<Response> {
    return this.submit('/dashboard/sign-in', '/dashboard/sign-in', { email, password });
  }

  /** Sends the sign-up form; the answer to it. */
  async signUpOnly(email: string, password: string, invite = ''): Promise<Response> {
    return this.submit(`/dashboard/sign-up${invite ? `?invite=${invite}` : ''}`, '/dashboard/sign-up', {
      email,
      password,
      confirm: password,
      invite,
    });
  }

  /**
   * Signs up as a new user does: the form, then the confirmation link from the server's
   * mailbox (useMailbox), then sign-in; the sign-in's answer (303 to the account page). A
   * sign-up refused (not 200), or on a server with no mailbox, gives the sign-up's answer.
   */
  async signUp(email: string, password: string, invite = ''): Promise<Response> {
    const res = await this.signUpOnly(email, password, invite);
    const box = mailboxes.get(this.base);
    if (res.status !== 200 || box === undefined) return res;
    const link = await box(email.trim().toLowerCase());
    const confirmed = await this.get(new URL(link).pathname);
    if (confirmed.status !== 200) return confirmed;
    return this.signIn(email, password);
  }

  /** Creates a key on the keys page; its id and secret from the page that shows it once. */
  async createKey(name: string): Promise<{ id: string; key: string; html: string }> {
    const res = await this.submit('/dashboard/keys', '/dashboard/keys', { name });
    const html = await res.text();
    const key = /id="secret-value">([^<]+)</.exec(html)?.[1] ?? '';
    const id = /<code>(key_[^<]+)<\/code>/.exec(html)?.[1] ?? '';
    return { id, key, html };
  }
}
