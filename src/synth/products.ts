// Synthetic products, one record at a time (products are never kept in memory), typed
// by the source contract (SourceProduct, src/source/records.ts) and written with JSON.stringify.
// Guarantees: 15–40 distinct ingredients per listed product in a plausible label order
// (water first, popular ones early), free-from tags present at the target product
// rates, the spec's null rates for category, origin, image and concentration, and
// barcodes unique after zero-stripping (see barcodes.ts).
import type { IngredientCategory, ProductCategory, SourceProduct, SourceProductEntry } from '../source/records';
import { Rng } from './prng';
import { Choice, WeightedSampler, zipfWeights } from './sampler';
import type { Dictionary } from './ingredients';
import { BarcodeNumbering } from './barcodes';
import { buildBrands, privateLabel, CATEGORY_MIX, type Brand } from './brands';
import * as V from './product-vocab';

/** Target rates of the product fields (api-spec 2.2/2.3, plus choices where the spec is silent). */
export const PRODUCT_RATES = {
  categoryNull: 0.025,
  originNull: 0.53,
  imageNull: 0.12,
  brandNull: 0.005,
  nameNull: 0.002,
  noIngredients: 0.02,
  concentrationDeclared: 0.04,
  allCapsLabels: 0.05,
};

/** Share of products (by product category) carrying each free-from tag. */
const TAG_RATE: Record<IngredientCategory, Record<string, number>> = {
  fragrance: { skincare: 0.4, suncare: 0.5, makeup: 0.38, haircare: 0.85, 'body/bath': 0.8, fragrance: 1, other: 0.5 },
  drying_alcohol: {
    skincare: 0.1,
    suncare: 0.35,
    makeup: 0.08,
    haircare: 0.2,
    'body/bath': 0.1,
    fragrance: 0.95,
    other: 0.15,
  },
  parabens: {
    skincare: 0.06,
    suncare: 0.05,
    makeup: 0.12,
    haircare: 0.06,
    'body/bath': 0.08,
    fragrance: 0.01,
    other: 0.08,
  },
  sulfates: { skincare: 0.03, suncare: 0, makeup: 0, haircare: 0.45, 'body/bath': 0.35, fragrance: 0, other: 0.15 },
  silicones: {
    skincare: 0.3,
    suncare: 0.55,
    makeup: 0.6,
    haircare: 0.6,
    'body/bath': 0.15,
    fragrance: 0.02,
    other: 0.2,
  },
};
const TAGS = Object.keys(TAG_RATE) as IngredientCategory[];
const CONCENTRATIONS = [0.1, 0.2, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 10, 12, 15, 20, 25, 30, 50, 70];
const MODIFIER = new Choice(V.MODIFIERS);
const HERO = new Choice(V.HEROES);
const TYPE: Record<string, Choice<string>> = Object.fromEntries(
  Object.entries(V.TYPES).map(([k, v]) => [k, new Choice(v)]),
);

export class ProductGenerator {
  private readonly rng: Rng;
  private readonly brands: Brand[];
  private readonly brandSampler: WeightedSampler;
  private readonly unbranded: Brand;
  private readonly pool: WeightedSampler;
  private readonly tagged: Record<IngredientCategory, WeightedSampler | null>;
  private readonly codes = new BarcodeNumbering();
  private readonly stamp: Int32Array;
  private serial = 0;

  constructor(
    seed: string,
    private readonly dict: Dictionary,
    products: number,
  ) {
    this.rng = new Rng(seed, 'products');
    this.brands = buildBrands(new Rng(seed, 'brands'), Math.max(5, Math.round(products / 60)), this.codes);
    this.brandSampler = new WeightedSampler(zipfWeights(this.brands.length, 1.25, 10));
    this.unbranded = privateLabel(this.codes);
    this.pool = new WeightedSampler(zipfWeights(dict.pool.length, 1.4, 40));
    this.tagged = Object.fromEntries(
      TAGS.map((t) => [t, dict.tagged[t].length ? new WeightedSampler(zipfWeights(dict.tagged[t].length, 1.2)) : null]),
    ) as ProductGenerator['tagged'];
    this.stamp = new Int32Array(dict.all.length);
  }

  /** The next product. */
  next(): SourceProduct {
    const rng = this.rng;
    this.serial++;
    const id = rng.uuid();
    const brand = rng.chance(PRODUCT_RATES.brandNull) ? this.unbranded : this.brands[this.brandSampler.draw(rng)];
    const category = rng.chance(0.65) ? brand.main : CATEGORY_MIX.draw(rng);
    const shownCategory = rng.chance(PRODUCT_RATES.categoryNull) ? null : category;
    const name = rng.chance(PRODUCT_RATES.nameNull) ? null : this.productName(brand, category);
    const origin =
      brand.country !== null && rng.chance((1 - PRODUCT_RATES.originNull) / (1 - PRODUCT_RATES.brandNull))
        ? brand.country
        : null;
    const image = rng.chance(PRODUCT_RATES.imageNull) ? null : `https://images.example.org/products/${id}.jpg`;
    const barcodes = this.barcodes(brand, category);
    const ingredients = rng.chance(PRODUCT_RATES.noIngredients) ? [] : this.ingredients(category);
    return {
      id,
      brand: brand.name,
      name,
      category: shownCategory,
      origin,
      image_url: image,
      barcodes,
      ingredients,
    };
  }

  private productName(brand: Brand, category: ProductCategory): string {
    const rng = this.rng;
    const parts: string[] = [];
    if (brand.lines.length && rng.chance(0.4)) parts.push(rng.pick(brand.lines));
    const type = TYPE[category].draw(rng);
    if (category === 'fragrance') {
      if (!parts.length || rng.chance(0.5)) parts.push(rng.pick(V.SCENTS));
      if (rng.chance(0.3))
        parts.push(rng.pick(['Noir', 'Intense', 'Absolu', 'Blanc', 'Nuit', 'Extrême', 'Eau Fraîche']));
      parts.push(type);
    } else {
      const r = rng.next();
      const mods = category === 'makeup' ? (r < 0.6 ? 0 : 1) : r < 0.35 ? 0 : r < 0.8 ? 1 : 2;
      for (let i = 0; i < mods; i++) {
        const m = MODIFIER.draw(rng);
        if (!parts.includes(m)) parts.push(m);
      }
      if (category !== 'makeup' && rng.chance(0.2)) parts.push(HERO.draw(rng));
      parts.push(type);
      if (category === 'suncare' && !type.startsWith('After') && !type.startsWith('Self') && rng.chance(0.85))
        parts.push(`SPF ${rng.pick(['15', '20', '30', '30', '50', '50', '50+'])}`);
      else if (category === 'skincare' && /Moisturizer|Day Cream/.test(type) && rng.chance(0.15)) parts.push('SPF 30');
      else if (category === 'makeup' && rng.chance(0.4))
        parts.push(
          rng.chance(0.5) ? `- ${String(rng.range(1, 60)).padStart(2, '0')} ${rng.pick(V.SHADES)}` : rng.pick(V.SHADES),
        );
    }
    if (rng.chance(0.12)) parts.push(this.rareWord(), rng.pick(V.EDITIONS));
    if (rng.chance(0.06))
      parts.push(
        rng.pick(['15 ml', '30 ml', '50 ml', '50ml', '100 ml', '200ml', '250 ml', '400 ml', '1.7 oz', '1 fl oz']),
      );
    return parts.filter((p) => p !== '').join(' ');
  }

  /** One of ~30,000 invented words, so that most name words are rare as in real catalogues. */
  private rareWord(): string {
    const rng = this.rng;
    return rng.pick(V.SYLLABLE_HEADS) + rng.pick(V.SYLLABLE_MIDS) + rng.pick(V.SYLLABLE_TAILS).toLowerCase();
  }

  private barcodes(brand: Brand, category: ProductCategory): string[] {
    const r = this.rng.next();
    const count = r < 0.07 ? 0 : r < 0.87 ? 1 : r < 0.98 ? 2 : 3;
    const small = category === 'makeup' || category === 'other';
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(this.codes.next(this.rng, brand.codes, small));
    return out;
  }

  private ingredients(category: ProductCategory): SourceProductEntry[] {
    const rng = this.rng;
    const { dict, stamp } = this;
    const serial = this.serial;
    const n = 15 + Math.round((25 * (rng.next() + rng.next())) / 2);
    const chosen: number[] = [];
    const take = (index: number) => {
      if (stamp[index] === serial || chosen.length >= n) return;
      stamp[index] = serial;
      chosen.push(index);
    };
    for (const tag of TAGS) {
      const sampler = this.tagged[tag];
      if (!sampler || !rng.chance(TAG_RATE[tag][category])) continue;
      const list = dict.tagged[tag];
      take(list[tag === 'fragrance' && rng.chance(0.8) ? 0 : sampler.draw(rng)]);
      while (rng.chance(tag === 'fragrance' ? 0.5 : 0.25)) take(list[sampler.draw(rng)]);
    }
    for (const s of dict.staples) {
      if (rng.chance(Math.min(0.95, s.boost.includes(category) ? s.share * 3 : s.share))) take(s.index);
    }
    for (let guard = 0; chosen.length < n && guard < 10_000; guard++) take(dict.pool[this.pool.draw(rng)]);

    const key = new Float64Array(chosen.length);
    chosen.forEach((i, at) => {
      const ing = dict.all[i];
      const early =
        category === 'fragrance' && (ing.record.category === 'drying_alcohol' || ing.record.name === 'Parfum');
      key[at] = ing.pos < 0 ? -2 : early ? -1 + ing.pos : ing.pos + (rng.next() - 0.5) * 0.5;
    });
    const order = chosen
      .map((_, at) => at)
      .sort((a, b) => key[a] - key[b])
      .map((at) => chosen[at]);

    const caps = rng.chance(PRODUCT_RATES.allCapsLabels);
    const declared = new Set<number>();
    if (rng.chance(PRODUCT_RATES.concentrationDeclared)) {
      for (let k = rng.range(1, 3); k > 0; k--) declared.add(rng.range(1, order.length - 1));
    }
    return order.map((index, position) => {
      const ing = dict.all[index];
      const labels = ing.labels;
      const label = caps
        ? labels[1]
        : labels.length > 2 && rng.chance(0.3)
          ? labels[2 + rng.int(labels.length - 2)]
          : labels[0];
      const concentration = declared.has(position) ? rng.pick(CONCENTRATIONS) : null;
      return { id: ing.record.id, label_name: label, concentration };
    });
  }
}
