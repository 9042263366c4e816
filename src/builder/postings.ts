// Each ingredient's postings (format.ts ingredient_products: the ords of the products that list
// it), gathered while the product pass reads. Guarantees: `encoded()` gives, for every ingredient
// ord that some product lists, in ascending ingredient ord, the product ords that list it,
// ascending and each once, as encodePostings writes them; an ingredient no product lists has no
// entry. Products must be added in ascending ord. How: each product's distinct ingredient ords
// are appended to one growing Int32Array and counted per ingredient; the lists are laid out once
// at the end by those counts (a counting sort), not grown one push at a time in 30,000 arrays met
// at random (their growth was garbage, their headers cache misses: docs/performance.md).
const FIRST_ENTRIES = 1 << 16;

export class PostingsBuilder {
  /** Per ingredient ord: how many products list it. */
  private readonly counts: Int32Array;
  /** Per ingredient ord: 1 + the last product ord that listed it (0: none yet). */
  private readonly lastProduct: Int32Array;
  /** The distinct ingredient ords of every product, product after product. */
  private entries = new Int32Array(FIRST_ENTRIES);
  private size = 0;
  /** Per product added, in order: its ord and where its entries start. */
  private products: number[] = [];
  private starts: number[] = [];

  constructor(ingredients: number) {
    this.counts = new Int32Array(ingredients);
    this.lastProduct = new Int32Array(ingredients);
  }

  /** A product's ingredient ords (repeats count once). */
  add(ord: number, ingredientOrds: readonly number[]): void {
    this.products.push(ord);
    this.starts.push(this.size);
    if (this.size + ingredientOrds.length > this.entries.length) this.grow(ingredientOrds.length);
    for (let i = 0; i < ingredientOrds.length; i++) {
      const iord = ingredientOrds[i];
      if (this.lastProduct[iord] === ord + 1) continue;
      this.lastProduct[iord] = ord + 1;
      this.counts[iord]++;
      this.entries[this.size++] = iord;
    }
  }

  /** [ingredient ord, its postings encoded] for every ingredient some product lists, in ord order. */
  *encoded(): IterableIterator<[number, Buffer]> {
    const { counts, entries, products, starts } = this;
    const at = new Int32Array(counts.length + 1); // where each ingredient's list begins, then its cursor
    for (let i = 0; i < counts.length; i++) at[i + 1] = at[i] + counts[i];
    const bytes = Buffer.allocUnsafe(at[counts.length] * 4);
    const cursor = at.slice(0, counts.length);
    for (let p = 0; p < products.length; p++) {
      const end = p + 1 < starts.length ? starts[p + 1] : this.size;
      for (let e = starts[p]; e < end; e++) bytes.writeInt32LE(products[p], 4 * cursor[entries[e]]++);
    }
    for (let i = 0; i < counts.length; i++) if (counts[i] > 0) yield [i, bytes.subarray(4 * at[i], 4 * at[i + 1])];
  }

  private grow(atLeast: number): void {
    const grown = new Int32Array(Math.max(2 * this.entries.length, this.size + atLeast));
    grown.set(this.entries.subarray(0, this.size));
    this.entries = grown;
  }
}
