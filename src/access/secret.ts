// API key secrets and ids. Guarantees: secrets carry 256 random bits; only their SHA-256
// is ever stored, kept in memory or looked up — never the secret itself. A lookup is by
// that hash: its timing can reveal at most something about the hash of what the caller
// sent, never about a stored secret (finding a preimage is infeasible), so there is no
// separate comparison to make constant-time. A key's public prefix (the first PREFIX_CHARS
// characters after `ck_`, 48 of the 256 bits) is kept beside it so that an admin can find a
// leaked key by the start of its secret.
import { hash, randomBytes } from 'node:crypto';
import type { Backend } from './backend';

const PREFIX = 'ck_';
/** 'ck_' and 43 base64url characters (32 bytes). */
const LENGTH = 46;
const SECRET = /^ck_[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function newKeyId(): string {
  return `key_${randomBytes(9).toString('base64url')}`;
}

export function newAccountName(): string {
  return `acct_${randomBytes(9).toString('base64url')}`;
}

/** The stored form of a secret (hex SHA-256); undefined for anything not shaped like a secret. */
export function hashSecret(secret: string | undefined): string | undefined {
  if (secret === undefined || !SECRET.test(secret)) return undefined;
  return hash('sha256', secret, 'hex');
}

/**
 * The hash to look a presented secret up by, on the request path: only the length and
 * prefix are checked (a string of that shape that is not a secret hashes to nothing stored).
 */
export function lookupHash(presented: string | undefined): string | undefined {
  if (presented === undefined || presented.length !== LENGTH || !presented.startsWith(PREFIX)) return undefined;
  return hash('sha256', presented, 'hex');
}

/** Characters of a secret (after `ck_`) kept to find its key by: 48 of its 256 random bits. */
export const PREFIX_CHARS = 8;

/** Records the secret's public prefix (records of kind `key-prefix`, grouped by the prefix). */
export async function rememberPrefix(store: Backend, secret: string, id: string, at: number): Promise<void> {
  await store.putRecord('key-prefix', secret.slice(3, 3 + PREFIX_CHARS), { id, at, data: '{}' }, false);
}
