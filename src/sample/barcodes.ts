// Synthetic demo barcodes from the GS1 restricted-circulation range (prefix 2),
// which is never assigned to real trade items. Each product gets one code derived
// from its id: most a GTIN-13 "2…"; about 1 in 12 a restricted GTIN-8 "2…"
// written as 13 digits with leading zeros; about 1 in 8 also a GTIN-14 multipack
// code (indicator 1–8 + the unit code). Guarantees: valid GS1 check digits;
// deterministic; no two codes in the catalogue equal after removing leading zeros
// (the allocator of src/source/barcodes.ts).
import { createHash } from 'node:crypto';
import { withCheckDigit, type BarcodeAllocator } from '../source/barcodes';

function digits(seed: string, n: number): string {
  let out = '';
  for (let round = 0; out.length < n; round++) {
    const h = createHash('sha256').update(`${round}:${seed}`).digest();
    for (const b of h) if (b < 250 && out.length < n) out += String(b % 10);
  }
  return out;
}

/** A product's codes, derived from its id (attempt by attempt until the allocator takes them). */
export function sampleBarcodes(alloc: BarcodeAllocator, productId: string): string[] {
  const pick = Number.parseInt(digits(`kind:${productId}`, 3), 10);
  const short = pick % 12 === 0;
  const multipack = pick % 8 === 1;
  return alloc.allocate((attempt) => {
    const seed = `${productId}:${attempt}`;
    const unit = short ? '00000' + withCheckDigit('2' + digits(seed, 6)) : withCheckDigit('2' + digits(seed, 11));
    return multipack ? [unit, withCheckDigit(String(1 + (pick % 8)) + unit.slice(0, 12))] : [unit];
  });
}
