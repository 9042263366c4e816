// Barcode numbering of synthetic products: EAN-13 under GS1 country prefixes, UPC-A
// for North American brands, a few EAN-8, printed in their usual short and zero-padded
// forms. Guarantees: every code has a valid GTIN check digit, and no two codes are
// equal after removing leading zeros: the allocator of src/source/barcodes.ts enforces
// it, and the counters here never propose a taken key (EAN-13 keys have 13 digits,
// UPC keys 11, EAN-8 keys 8 once zeros are stripped), so output depends on the seed only.
import type { Rng } from './prng';
import { BarcodeAllocator, checkDigit } from '../source/barcodes';

const MULT = 7919; // prime, so n -> n * MULT mod 10^k (or 9 * 10^k) is a bijection

/** A brand's numbering: its GS1 prefixes (or 'upc'), [company prefix, item offset] used so far, and items issued. */
export interface Numbering {
  scheme: string[] | 'upc';
  companies: Array<[string, number]>;
  issued: number;
}

export class BarcodeNumbering {
  private readonly codes = new BarcodeAllocator();
  private readonly perPrefix = new Map<string, { next: number; offset: number }>();
  private upcCompanies = 0;
  private ean8Issued = 0;

  numbering(scheme: string[] | 'upc'): Numbering {
    return { scheme, companies: [], issued: 0 };
  }

  /** The next code of this brand as printed on a pack. */
  next(rng: Rng, n: Numbering, allowEan8: boolean): string {
    return this.codes.allocate(() => [this.propose(rng, n, allowEan8)])[0];
  }

  private propose(rng: Rng, n: Numbering, allowEan8: boolean): string {
    if (n.scheme === 'upc') return this.nextUpc(rng, n);
    if (allowEan8 && this.ean8Issued < 9_000_000 && rng.chance(0.08)) return this.nextEan8(rng);
    const capacity = 10_000;
    if (n.issued === n.companies.length * capacity)
      n.companies.push([this.newEanCompany(rng, n.scheme), rng.int(capacity)]);
    const [company, offset] = n.companies[Math.floor(n.issued / capacity)];
    const item = String(((n.issued % capacity) * MULT + offset) % capacity).padStart(4, '0');
    n.issued++;
    const payload = company + item;
    const code = payload + checkDigit(payload);
    return rng.chance(0.06) ? '0' + code : code;
  }

  private newEanCompany(rng: Rng, prefixes: string[]): string {
    const prefix = rng.pick(prefixes);
    let counter = this.perPrefix.get(prefix);
    if (!counter) this.perPrefix.set(prefix, (counter = { next: 0, offset: rng.int(100_000) }));
    const k = counter.next++;
    if (k >= 100_000) throw new Error(`barcode space of GS1 prefix ${prefix} exhausted`);
    return prefix + String((k * MULT + counter.offset) % 100_000).padStart(5, '0');
  }

  private nextUpc(rng: Rng, n: Numbering): string {
    const capacity = 100_000;
    if (n.issued === n.companies.length * capacity) {
      const k = this.upcCompanies++;
      if (k >= 90_000) throw new Error('UPC company space exhausted');
      n.companies.push([String(10_000 + ((k * MULT + 321) % 90_000)), rng.int(capacity)]);
    }
    const [company, offset] = n.companies[Math.floor(n.issued / capacity)];
    const item = String(((n.issued % capacity) * MULT + offset) % capacity).padStart(5, '0');
    n.issued++;
    const payload = company + item;
    const key = payload + checkDigit(payload); // 11 digits, first non-zero
    const r = rng.next();
    return r < 0.75 ? '0' + key : r < 0.8 ? key : r < 0.95 ? '00' + key : '000' + key;
  }

  private nextEan8(rng: Rng): string {
    const payload = String(1_000_000 + ((this.ean8Issued++ * MULT + 99) % 9_000_000));
    const code = payload + checkDigit(payload);
    return rng.chance(0.15) ? '00000' + code : code;
  }
}
