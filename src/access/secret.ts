// API key secrets and ids. Guarantees: secrets carry 256 random bits; only their SHA-256
// is ever stored or compared, and comparison takes constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET = /^ck_[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return `ck_${randomBytes(32).toString('base64url')}`;
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
  return createHash('sha256').update(secret).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'));
}
