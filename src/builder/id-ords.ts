// Ingredient id -> ord for the build's product pass, which looks up every label entry's
// id (about 27 a product, 5.4 million for 200,000 products). Guarantees: `get` answers
// exactly what a Map from the lower-cased ids would for the id lower-cased, for any string;
// an id already lower-case (what sources hold) is found without lower-casing it or hashing
// it as a whole: the slot comes from its first eight hex digits, and one string comparison
// confirms it. Cost, in process: 2.7–3.1 µs a product against 5.7–6.7 µs for
// `Map#get(id.toLowerCase())` (docs/performance.md, round five).
const FIRST_BITS = 12;

export class IdOrds {
  private bits = FIRST_BITS;
  /** Open addressing: ord + 1 per slot, 0 for an empty slot. */
  private slots = new Int32Array(1 << FIRST_BITS);
  /** ord -> lower-case id. */
  private readonly ids: string[] = [];
  private count = 0;

  /** Adds a lower-case id with its ord (the caller keeps ids unique). */
  add(id: string, ord: number): void {
    if (2 * (this.count + 1) > this.slots.length) this.grow();
    this.ids[ord] = id;
    this.place(id, ord);
    this.count++;
  }

  /** The ord of the id, compared ignoring case, or undefined. */
  get(id: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let s = slotHash(id) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === 0) return undefined;
      const known = this.ids[v - 1];
      if (known === id || (known.length === id.length && known === id.toLowerCase())) return v - 1;
    }
  }

  private place(id: string, ord: number): void {
    const mask = this.slots.length - 1;
    let s = slotHash(id) & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = ord + 1;
  }

  private grow(): void {
    this.bits++;
    this.slots = new Int32Array(1 << this.bits);
    this.ids.forEach((id, ord) => this.place(id, ord));
  }
}

/**
 * The first eight characters read as hex digits, case-insensitively (uuids are random there);
 * other characters give some number too: a slot is only where the search starts.
 */
function slotHash(id: string): number {
  let h = 0;
  for (let i = 0; i < 8; i++) {
    const c = id.charCodeAt(i) | 0; // NaN past the end
    h = (h << 4) | ((c & 0xf) + (c >> 6) * 9);
  }
  return h;
}
