// GTIN check digits, defined once for the sample and the synthetic generators.
// Guarantees: `checkDigit` is the GS1 check digit (weights 3,1,3,… from the right)
// of any GTIN body; `isValidGtin` accepts exactly 8 to 14 digits whose last digit is
// the check digit of the rest.

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
  return /^\d{8,14}$/.test(code) && checkDigit(code.slice(0, -1)) === code.slice(-1);
}
