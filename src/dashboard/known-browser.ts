// The cookie that marks a browser as one its account signed in with (docs/dashboard.md,
// Security): `catalogue_known`, the account's name signed with the session secret, HttpOnly,
// SameSite=Lax, on /dashboard, for KNOWN_MS. Guarantees: set at each sign-in (and password
// reset by mailed link); read only when its signature verifies; it exempts this browser from
// the per-email sign-in limit of that one account and from nothing else (the per-address and
// per email-and-address limits still hold), so that strangers guessing from many addresses do
// not keep the owner out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie, type Signer } from '@fastify/cookie';
import { PREFIX } from './pages';

export const KNOWN_COOKIE = 'catalogue_known';
/** A browser stays known this long after its last sign-in. */
export const KNOWN_MS = 180 * 86_400_000;

/** The account this browser signed in to before; '' for none (or a cookie that does not verify). */
export function knownAccount(req: FastifyRequest): string {
  const raw = req.cookies[KNOWN_COOKIE];
  if (raw === undefined) return '';
  const v = req.unsignCookie(raw);
  return v.valid && v.value !== null ? v.value : '';
}

/** knownAccount() from a raw Cookie header, before the cookie plugin has read it. */
export function knownInHeader(header: string | undefined, signer: Signer): string {
  if (header === undefined || !header.includes(KNOWN_COOKIE)) return '';
  const raw = fastifyCookie.parse(header)[KNOWN_COOKIE];
  if (raw === undefined) return '';
  const v = signer.unsign(raw);
  return v.valid && v.value !== null ? v.value : '';
}

export function rememberBrowser(reply: FastifyReply, account: string): void {
  reply.setCookie(KNOWN_COOKIE, account, {
    path: PREFIX,
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    signed: true,
    maxAge: KNOWN_MS / 1000,
  });
}
