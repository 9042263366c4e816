// Text normalisation shared by the build and the read model, so that what the
// build indexes and what a request looks up are folded by the same rules.
// Guarantees: folding is case- and accent-insensitive; words are maximal runs of
// letters and digits; brand keys ignore case, accents, punctuation and spaces;
// GTIN keys ignore leading zeros; a search query has 1 to 10 words or is a 400.

import { ApiError } from './errors';

const MARKS = /\p{M}+/gu;
const NOT_ALNUM = /[^\p{L}\p{N}]+/u;
const NOT_ALNUM_G = /[^\p{L}\p{N}]+/gu;
const HAS_ALNUM = /[\p{L}\p{N}]/u;

/** Lower-case, strip accents (NFKD, then drop combining marks). */
export function fold(text: string): string {
  if (!NOT_ASCII.test(text)) return text.toLowerCase(); // NFKD leaves ASCII as it is, with no marks
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}
const NOT_ASCII = /[\u0080-\uffff]/; // any UTF-16 code unit beyond ASCII

/** The searchable words of a text: folded, split on anything not a letter or digit. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of fold(text).split(NOT_ALNUM)) if (w !== '') out.push(w);
  return out;
}

/** True when the text holds at least one letter or digit. */
export function hasAlnum(text: string): boolean {
  return HAS_ALNUM.test(text);
}

/** Brand match key: case, accents, punctuation and spaces removed. */
export function brandKey(brand: string): string {
  return fold(brand).replace(NOT_ALNUM_G, '');
}

/** Folded words joined by one space: used for "name starts with the query". */
export function phraseKey(text: string): string {
  return words(text).join(' ');
}

/** GTIN lookup key: the digits without leading zeros (all zero-padded forms agree). */
export function gtinKey(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return digits.slice(i);
}

export const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
const UUID_RE = new RegExp(UUID_PATTERN);
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && value.length === 36 && UUID_RE.test(value);
}

export const BARCODE_PATTERN = '^[0-9]{8,14}$';
const BARCODE_RE = new RegExp(BARCODE_PATTERN);
export function isBarcode(value: unknown): value is string {
  return typeof value === 'string' && BARCODE_RE.test(value);
}

/** The searched words of a query q: folded, at most the first 10; none is a 400 naming q. */
export function searchWords(q: string): string[] {
  const w = words(q);
  if (w.length === 0) throw new ApiError('bad_request', 'q contains no searchable characters');
  return w.length > 10 ? w.slice(0, 10) : w;
}
