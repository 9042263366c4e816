// The dashboard's form fields: each with its length limit and the message shown next to it.
// Guarantees: a field is read only as a string (anything else, an array from a repeated field
// included, is treated as empty); every check answers in words naming what to change.
import { PASSWORD_MAX, PASSWORD_MIN } from '../access';
import { MAX_LABEL_TEXT } from '../http/operations/analyze-label';

export type Body = Record<string, unknown> | undefined;
export type Errors = Record<string, string>;

export const LIMITS = {
  email: 254,
  keyName: 60,
  /** The API's own limit (POST /v1/labels/analyze). */
  label: MAX_LABEL_TEXT,
};

/** The field as a string ('' when missing or not a single string). */
export function field(body: Body, name: string): string {
  const v = body?.[name];
  return typeof v === 'string' ? v : '';
}

/** The local part may hold an apostrophe (o'neil@x.io); the domain may not. */
const EMAIL = /^[^\s@<>"()\\,;:]+@[^\s@<>"'()\\,;:]+\.[^\s@<>"'()\\,;:]+$/;

export function emailError(v: string): string | undefined {
  const e = v.trim();
  if (e === '') return 'Enter your email address.';
  if (e.length > LIMITS.email) return `An email address has at most ${LIMITS.email} characters.`;
  if (!EMAIL.test(e)) return 'Enter an email address like name@example.com.';
  return undefined;
}

export function passwordError(v: string): string | undefined {
  if (v.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (v.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return undefined;
}

export function keyNameError(v: string): string | undefined {
  const n = v.trim();
  if (n === '') return 'Give the key a name, for example "production" or "my app".';
  if (n.length > LIMITS.keyName) return `A key name has at most ${LIMITS.keyName} characters.`;
  return undefined;
}

export function labelError(v: string): string | undefined {
  if (v.trim() === '') return 'Paste the ingredient text of a label.';
  if (v.length > LIMITS.label) return `A label has at most ${LIMITS.label.toLocaleString('en')} characters.`;
  if (!/[\p{L}\p{N}]/u.test(v)) return 'The text needs at least one letter or digit.';
  return undefined;
}

/** Only the fields that have a message. */
export function errorsOf(checks: Record<string, string | undefined>): Errors {
  return Object.fromEntries(Object.entries(checks).filter(([, m]) => m !== undefined)) as Errors;
}
