// A real server with the dashboard on the fixture catalogue, for the dashboard tests: an
// injectable clock, an admin account made through the access layer, and a small cookie-keeping
// HTTP client that reads a page's CSRF token the way a browser form would send it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino, { type Logger } from 'pino';
import { openAccounts, type Clock } from '../../src/access';
import { startServer, type RunningServer } from '../../src/server';
import { DEFAULT_SETTINGS, type DashboardSettings } from '../../src/dashboard';
import { buildFixture } from './fixture';

export class TestClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

export const ADMIN = { email: 'ops@example.com', password: 'admin password 1' };

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

  async signUp(email: string, password: string, invite = ''): Promise<Response> {
    return this.submit(`/dashboard/sign-up${invite ? `?invite=${invite}` : ''}`, '/dashboard/sign-up', {
      email,
      password,
      confirm: password,
      invite,
    });
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
