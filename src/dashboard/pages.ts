// What the dashboard's pages share with its routes: the path prefix, the dependencies the
// routes are given and the plain error page. Kept apart from index.ts (the plugin that
// registers the routes) so that routes and plugin import no circle.
import type { FastifyReply } from 'fastify';
import type { AccessAccounts, MeteredAccess } from '../access';
import type { CatalogueRef } from '../catalogue/read-model';
import type { LabelPool } from '../catalogue/label-pool';
import type { DashboardSettings } from './settings';
import type { Mailer } from '../mail';
import type { StripeBilling } from './stripe';
import type { UsageAlerts } from './alerts';

export const PREFIX = '/dashboard';

export interface DashboardDeps {
  accounts: AccessAccounts;
  /** The API's access control: the playground's calls are admitted and charged by it. */
  access: MeteredAccess;
  catalogue: CatalogueRef;
  /** The API's label analysis threads: the playground's labels are analysed there too. */
  labels: LabelPool;
  settings: DashboardSettings;
  /** The dashboard's mail: SMTP, or the outbox admins read (src/mail). */
  mailer: Mailer;
  /** Stripe mode (settings.stripe): made by the plugin. */
  billing?: StripeBilling;
  /** Usage alerts by mail, checked every ALERT_MS by the plugin. */
  alerts?: UsageAlerts;
}

export const ERROR_PAGE: Record<string, { title: string; text: string }> = {
  unavailable: {
    title: 'Service unavailable',
    text: 'The dashboard cannot reach its data store just now. Nothing was changed. Please retry in a few seconds.',
  },
  busy: {
    title: 'Too many sign-ins right now',
    text: 'Too many sign-ins right now. Try again in a moment. Nothing was changed.',
  },
  csrf: {
    title: 'This form has expired',
    text: 'The form was not sent from this page, or it is too old. Go back, reload the page and try again.',
  },
  resent: {
    title: 'This form was already sent',
    text:
      'Nothing was done again: this form was sent before (a page reloaded, or a button pressed twice), and its ' +
      'result was the answer to the first sending. Open the page again to see where things stand.',
  },
  large: { title: 'Too much text', text: 'The form sent more text than the dashboard accepts.' },
  bad: { title: 'Bad request', text: 'The dashboard could not read this request.' },
  missing: { title: 'Page not found', text: 'There is no such page, or it is not yours to see.' },
  forbidden: { title: 'Admins only', text: 'This page is for the operators of this service.' },
  billing: {
    title: 'Billing is unavailable',
    text: 'The payment provider could not be reached just now. Nothing was changed or charged. Please retry in a minute.',
  },
  bug: { title: 'Something went wrong', text: 'The dashboard hit an error. It has been logged; please retry.' },
};

/** A plain page for a refusal or a failure; never a stack trace. */
export function errorPage(reply: FastifyReply, status: number, kind: keyof typeof ERROR_PAGE): FastifyReply {
  const e = ERROR_PAGE[kind];
  let csrf = '';
  try {
    csrf = reply.formToken();
  } catch {
    // no form token before the session secret is read (the store is down): no form on this page needs one
  }
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .view('error.eta', { title: e.title, text: e.text, status, user: reply.request.user, wall: null, csrf, path: '' });
}
