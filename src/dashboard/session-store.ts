// The session store @fastify/session uses, on the access store (SQLite or Redis), so that every
// instance sees every session and a session can be ended on the server. Guarantees: only a
// signed-in session is stored (a visitor's is never written); it is kept until its idle or
// absolute end, whichever is sooner, by the access layer's clock; the store holds only the
// SHA-256 of a session id (src/access/accounts.ts); a store failure is
// passed to the callback (the dashboard then answers its "service unavailable" page).
import type { SessionStore } from '@fastify/session';
import type { Session as FastifySession } from 'fastify';
import type { AccessAccounts } from '../access';
import { ABSOLUTE_MS, IDLE_MS } from './settings';

type Callback = (err?: unknown) => void;

/** When a session with these times ends. */
export function sessionEnd(createdAt: number, seenAt: number): number {
  return Math.min(seenAt + IDLE_MS, createdAt + ABSOLUTE_MS);
}

export class AccessSessionStore implements SessionStore {
  constructor(private readonly accounts: AccessAccounts) {}

  set(id: string, session: FastifySession, callback: Callback): void {
    if (session.account === undefined) return callback(); // nobody to remember
    const now = this.accounts.now();
    const expiresAt = sessionEnd(session.createdAt ?? now, session.seenAt ?? now);
    const data = JSON.stringify(session);
    this.accounts.saveSession(id, { account: session.account, data, expiresAt }).then(() => callback(), callback);
  }

  get(id: string, callback: (err: unknown, session?: FastifySession | null) => void): void {
    this.accounts.session(id).then(
      (s) => callback(null, s === null ? null : (JSON.parse(s.data) as FastifySession)),
      (err) => callback(err),
    );
  }

  destroy(id: string, callback: Callback): void {
    this.accounts.endSession(id).then(() => callback(), callback);
  }
}
