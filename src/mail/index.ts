// Mail to the dashboard's users (docs/dashboard.md, "Mail"): over SMTP with nodemailer when the
// operator gives --smtp-url, otherwise into an outbox in the access store that admins read on
// the dashboard. Guarantees: at most one mail per event, however many instances or calls ask
// for it — the store's addMail claims the event's key before anything is sent; a mail sent over
// SMTP keeps no bodies in the store (its links live only in the recipient's mailbox); send()
// never throws and never waits on the caller's behalf for more than the store and the SMTP
// server take: a failure is recorded on the mail (the admin's mail page shows it) and logged
// without the mail's text or the SMTP credentials.
import { hash } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Clock, MailRecord, MailStore } from '../access';
import { render, type MailName, type Mails } from './templates';

export type { MailName, Mails } from './templates';
export { render } from './templates';

export interface MailOptions {
  /** smtp:// or smtps:// address of the server, credentials included; undefined: the outbox. */
  smtpUrl?: string;
  /** The sender (required with smtpUrl), e.g. `Catalogue <no-reply@example.com>`. */
  from?: string;
  /** The service's name in the mails' words. */
  service?: string;
}

/** What became of one send(). */
export type MailOutcome = 'sent' | 'outbox' | 'duplicate' | 'failed' | 'unavailable';

/** Mails are kept (outbox, log) this long. */
export const KEEP_MS = 30 * 86_400_000;
const SERVICE = 'Cosmetics Catalogue API';

/** Throws, naming the option, when the mail options cannot work; the message never shows a password. */
export function checkMailOptions(o: MailOptions): void {
  if (o.smtpUrl === undefined) return;
  let url: URL;
  try {
    url = new URL(o.smtpUrl);
  } catch {
    throw new Error('--smtp-url must be smtp://[USER:PASS@]HOST[:PORT] or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`--smtp-url must start smtp:// or smtps://, not "${url.protocol}//"`);
  if (o.from === undefined || o.from.trim() === '')
    throw new Error('--smtp-url needs --mail-from (the sender address, e.g. "Catalogue <no-reply@example.com>")');
}

export class Mailer {
  readonly mode: 'smtp' | 'outbox';
  /** Made on the first send over SMTP (nodemailer is loaded only by a service that mails). */
  private transport: Promise<Transporter> | undefined;
  private base = '';

  constructor(
    private readonly store: MailStore,
    private readonly opts: MailOptions,
    private readonly clock: Clock,
    private readonly onError: (what: string, err: unknown) => void = () => {},
  ) {
    checkMailOptions(opts);
    this.mode = opts.smtpUrl === undefined ? 'outbox' : 'smtp';
  }

  private smtp(url: string): Promise<Transporter> {
    this.transport ??= import('nodemailer').then((m) =>
      m.default.createTransport(
        { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
        { from: this.opts.from },
      ),
    );
    return this.transport;
  }

  /** The dashboard's public address (no trailing slash): links in mails start with it. */
  setDashboardUrl(url: string): void {
    this.base = url.replace(/\/+$/, '');
  }

  /** An absolute link to a dashboard page, e.g. link('/plans'). */
  link(path: string): string {
    return this.base + path;
  }

  /**
   * The mail `name` to `to`, once per `event` (a key naming what happened, e.g.
   * `usage-80:ACCOUNT:2026-11`): later calls with the same event send nothing ('duplicate').
   */
  async send<N extends MailName>(event: string, to: string, name: N, data: Mails[N]): Promise<MailOutcome> {
    let mail: MailRecord;
    try {
      const r = render(name, { ...data, service: this.opts.service ?? SERVICE, dashboard: this.base });
      mail = {
        id: hash('sha256', event, 'hex').slice(0, 32),
        to,
        ...r,
        createdAt: this.clock.now(),
        state: this.mode === 'smtp' ? 'sending' : 'outbox',
        error: '',
      };
      if (!(await this.store.addMail(mail, KEEP_MS))) return 'duplicate';
    } catch (err) {
      this.onError(`mail ${name}: not stored`, err);
      return 'unavailable';
    }
    if (this.opts.smtpUrl === undefined) return 'outbox';
    try {
      await (
        await this.smtp(this.opts.smtpUrl)
      ).sendMail({ to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (err) {
      this.onError(`mail ${name}: not sent`, err);
      await this.mark(mail.id, 'failed', errorText(err));
      return 'failed';
    }
    await this.mark(mail.id, 'sent', '');
    return 'sent';
  }

  private async mark(id: string, state: 'sent' | 'failed', error: string): Promise<void> {
    await this.store.setMailState(id, state, error).catch((err) => this.onError('mail state not stored', err));
  }

  close(): void {
    void this.transport?.then((t) => t.close());
  }
}

/** A failure in a few words for the admin's page (nodemailer's messages carry no password). */
function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`.slice(0, 300);
}
