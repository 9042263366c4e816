// GTIN check digits and barcode allocation, defined once for the sample and the
// synthetic generators. Guarantees: `checkDigit` is the GS1 check digit (weights
// 3,1,3,… from the right) of any GTIN body; `isValidGtin` accepts exactly 8 to 14
// digits whose last digit is the check digit of the rest; a `BarcodeAllocator` never
// hands out two codes that are equal once leading zeros are removed (gtinKey).
import { gtinKey, isBarcode } from '../shared/text';

/** GS1 check digit of the digits that precede it (any GTIN length), as one character. */
export function checkDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** True when `code` is 8 to 14 digits and its last digit is the check digit of the rest. */
export function isValidGtin(code: string): boolean {
  return isBarcode(code) && checkDigit(code.slice(0, -1)) === code.slice(-1);
}

/** `body` followed by its check digit. */
export function withCheckDigit(body: string): string {
  return body + checkDigit(body);
}

/**
 * Hands out a product's codes, never reusing a GTIN key. The caller proposes candidate
 * sets of codes (attempt 0, 1, …; the codes and their attempts are the caller's scheme:
 * hashed from an id, or drawn from a seeded generator); the first set whose keys are all
 * unused and distinct is taken.
 */
export class BarcodeAllocator {
  private readonly used = new Set<string>();

  allocate(candidate: (attempt: number) => string[]): string[] {
    for (let attempt = 0; ; attempt++) {
      const codes = candidate(attempt);
      const keys = codes.map(gtinKey);
      if (keys.some((k) => this.used.has(k)) || new Set(keys).size !== keys.length) continue;
      for (const k of keys) this.used.add(k);
      return codes;
    }
  }
}
