// The mails' words: one Eta template per mail in src/mail/templates/NAME.eta, written as plain
// text (its first line `Subject: …`, then a blank line, then the body; a line of control code
// ends `-%>` so that it leaves no line behind). Guarantees: the HTML part is made from that
// same text — every character escaped, paragraphs kept, each http(s) address a link — so the
// two parts never disagree and nothing a user typed becomes markup; each mail's data is typed
// below.
import { join } from 'node:path';
import { Eta } from 'eta';
import { packageRoot } from '../shared/package-root';

/** The data of each mail, by template name. */
export interface Mails {
  /** Confirm the address of a new account. */
  confirm: { link: string; hours: number };
  /** A sign-up with the address of an existing account: sent to that account instead of saying so on the page. */
  exists: { signIn: string; forgot: string };
  /** Forgot password: a one-time link. */
  reset: { link: string; hours: number };
  /** An invitation to make an account; `trial`: the plan is a trial (no card needed). */
  invite: { link: string; plan: string; trial: boolean; price: string; days: number };
  /** `percent` (80 or 100) of the plan's included calls or cap used this month. */
  usage: { plan: string; percent: number; calls: string; allowance: string; hardCap: boolean; link: string };
  /** A trial nearly used up or nearly ended; `left` says what is left ("3 days", "10 requests"). */
  trial: { left: string; link: string };
  /** Every key of the account answers 402 until the account pays. */
  payment: { link: string; billingText: string };
  /** An admin decided the account's request for a plan. */
  decided: { plan: string; approved: boolean; link: string; billingText: string };
}
export type MailName = keyof Mails;

/** What every template sees besides its own data. */
export interface Common {
  service: string;
  /** The dashboard's address (where a user turns the alerts off, among others). */
  dashboard: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const eta = new Eta({
  views: join(packageRoot(), 'src', 'mail', 'templates'),
  autoEscape: false,
  autoTrim: false,
  cache: true,
});

export function render<N extends MailName>(name: N, data: Mails[N] & Common): Rendered {
  const out = eta.render(`./${name}`, data).replace(/\r\n/g, '\n');
  const m = /^Subject: (.+)\n\n([\s\S]*)$/.exec(out);
  if (m === null) throw new Error(`mail template ${name} must start with "Subject: …" and a blank line`);
  const text = m[2].replace(/\n{3,}/g, '\n\n').trim() + '\n';
  return { subject: m[1].trim(), text, html: toHtml(m[1].trim(), text) };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
/** An http(s) address in escaped text (it ends before a space or a quote's entity). */
const URL = /https?:\/\/[^\s<>"]+?(?=[.,;:!?)]*(?:\s|$|&quot;|&#39;))/g;

/** The text as a simple HTML page: escaped, one <p> per paragraph, line breaks kept, addresses linked. */
export function toHtml(subject: string, text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${escape(p).replace(URL, '<a href="$&">$&</a>').replace(/\n/g, '<br>\n')}</p>`);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escape(subject)}</title></head>\n` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:36em">\n${paragraphs.join('\n')}\n</body></html>\n`
  );
}
