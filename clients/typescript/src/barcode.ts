// Barcode input as people type or scan it. Guarantees: the result is what the barcode
// endpoint accepts (8 to 14 digits, no separators), or a CatalogueClientError with code
// 'invalid_barcode' before any request.
import { CatalogueClientError } from './errors';

/** Strips spaces and dashes; throws a CatalogueClientError (code 'invalid_barcode') unless 8 to 14 digits remain. */
export function normalizeBarcode(input: string): string {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^[0-9]{8,14}$/.test(digits)) {
    throw new CatalogueClientError(
      'invalid_barcode',
      `barcode must be 8 to 14 digits once spaces and dashes are removed; got "${input}"`,
    );
  }
  return digits;
}
