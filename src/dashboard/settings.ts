// What an operator sets for the dashboard (serve's --signup, --signup-plan, --billing-text,
// --trust-proxy, --session-secret, --smtp-url, --mail-from, --public-url; docs/dashboard.md),
// and the fixed session timeouts. Guarantees: one definition of each setting, read by the
// plugin and shown on the admin settings page as it is in force.

import type { TrustProxy } from '../http/trust-proxy';

export interface DashboardSettings {
  /** 'open': anyone may sign up; 'invite': only with an invitation link an admin made. */
  signup: 'open' | 'invite';
  /** The plan a new account gets (an invitation may name another). */
  signupPlan: string;
  /** The operator's billing instructions, shown to accounts that must pay ('' for none). */
  billingText: string;
  /**
   * Behind proxies that set X-Forwarded-Proto / X-Forwarded-For (src/http/trust-proxy.ts): their
   * number or addresses (true: one). Cookies Secure over HTTPS, client addresses from the proxy.
   */
  trustProxy: TrustProxy | true;
  /** Signs the session cookie; undefined: one generated once and kept in the access store. */
  sessionSecret?: string;
  /** Stripe mode (docs/billing.md): paid plans through Stripe Checkout; none: manual billing. */
  stripe?: StripeSettings;
  /** SMTP server and sender of the mails (src/mail); no smtpUrl: the outbox. */
  mail?: { smtpUrl?: string; from?: string };
  /** The address users reach the service at, for links in mails (undefined: the listening address). */
  publicUrl?: string;
  /** Where the API answers, for the curl example (undefined: this page's own origin). */
  apiUrl?: string;
}

export interface StripeSettings {
  /** sk_live_… or sk_test_… (a restricted key rk_… works too). */
  secretKey: string;
  /** whsec_…: webhooks whose signature does not verify with it are refused. */
  webhookSecret: string;
  /** Another address for Stripe's API (tests: a local server); default Stripe's own. */
  apiBase?: string;
}

/** A session not used for this long ends. */
export const IDLE_MS = 30 * 60_000;
/** A session ends this long after sign-in, used or not. */
export const ABSOLUTE_MS = 12 * 3_600_000;

export const DEFAULT_SETTINGS: DashboardSettings = {
  signup: 'invite',
  signupPlan: 'trial',
  billingText: '',
  trustProxy: false,
};
