// The token every dashboard form carries (`_csrf`): CSRF protection that stores nothing for a
// visitor, and forms that act once. Tokens are @fastify/csrf's, made from a random secret kept
// in the browser's own cookie (signed with the session secret, HttpOnly, SameSite=Lax, on
// /dashboard) and, once signed in, bound to the session's id (HMAC with the session secret).
// Guarantees: a form is refused (403) without a token made for this browser — and, signed in,
// for this session — in the last FORM_MS; each printed form gets a token of its own; a form
// sent in a signed-in session acts once: its token sent again (a page refreshed, a button
// clicked twice) is answered 409 and changes nothing; rendering a page writes nothing to the
// store (a sent form of a signed-in session stores the SHA-256 of its token until it expires).
import Tokens from '@fastify/csrf';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessAccounts } from '../access';
import { field, type Body } from './forms';
import { errorPage, PREFIX } from './pages';

export const CSRF_COOKIE = 'catalogue_csrf';
/** A form can be sent this long after its page was made. */
export const FORM_MS = 2 * 3_600_000;

type Maker = ReturnType<typeof makeTokens>;

function makeTokens(hmacKey: string) {
  return new Tokens({ validity: FORM_MS, userInfo: true, hmacKey });
}

/** The secret of this request's browser, made (and its cookie set) on first use. */
const secrets = new WeakMap<FastifyRequest, string>();

export class FormTokens {
  private tokens: Maker | undefined;

  constructor(private readonly accounts: AccessAccounts) {}

  /** The session secret, once known (it may be read from the store after the first requests). */
  setKey(key: string): void {
    this.tokens = makeTokens(key);
  }

  /** A new token for one form of the page `reply` answers with. */
  make(reply: FastifyReply): string {
    const req = reply.request;
    let secret = secrets.get(req) ?? browserSecret(req);
    if (secret === undefined) {
      secret = this.tokens!.secretSync();
      reply.setCookie(CSRF_COOKIE, secret, {
        path: PREFIX,
        httpOnly: true,
        sameSite: 'lax',
        secure: 'auto',
        signed: true,
      });
    }
    secrets.set(req, secret);
    return this.tokens!.create(secret, owner(req));
  }

  /** The pre-handler of every state-changing form: the token is checked, then (signed in) used up. */
  readonly check = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const token = field(req.body as Body, '_csrf');
    const secret = browserSecret(req);
    if (secret === undefined || token === '' || !this.tokens!.verify(secret, token, owner(req)))
      return errorPage(reply, 403, 'csrf');
    if (req.user === null) return undefined; // forms of visitors are idempotent by what they do (docs/dashboard.md)
    if (!(await this.accounts.claimForm(token, FORM_MS))) return errorPage(reply, 409, 'resent');
    sentForms.set(req, token);
    return undefined;
  };

  /** After a failure that changed nothing (503): the form may be sent again. */
  release(req: FastifyRequest): void {
    const token = sentForms.get(req);
    if (token !== undefined) this.accounts.releaseForm(token).catch(() => {});
  }
}

const sentForms = new WeakMap<FastifyRequest, string>();

function browserSecret(req: FastifyRequest): string | undefined {
  const cookie = req.cookies[CSRF_COOKIE];
  if (cookie === undefined) return undefined;
  const { valid, value } = req.unsignCookie(cookie);
  return valid && value !== null && value !== '' ? value : undefined;
}

/** Whose form: the signed-in session's id, or the visitor's. */
function owner(req: FastifyRequest): string {
  return req.user === null ? 'visitor' : `session:${req.session.sessionId}`;
}
