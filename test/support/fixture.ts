// The small catalogue the HTTP tests serve: hand-written products that exercise
// every rule (accents, punctuation, free-from tags, barcodes, nulls) plus a bulk
// brand large enough to page past the 1,020 reachable rows.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCatalogue } from '../../src/builder';
import { entry, ingredient, product, uuid, writeSource } from './source';

export const ING = {
  aqua: 0,
  glycerin: 1,
  parfum: 2,
  alcohol: 3,
  methylparaben: 4,
  sles: 5,
  dimethicone: 6,
  niacinamide: 7,
  sls: 8,
  sodiumChloride: 9,
  linalool: 10,
  salicylic: 11,
  tocopherol: 12,
  sodiumHyaluronate: 13,
  hyaluronic: 14,
  zinc: 15,
} as const;

export const ingredients = [
  ingredient(ING.aqua, { name: 'Aqua', other_names: 'Water, Eau', functions: ['solvent'] }),
  ingredient(ING.glycerin, {
    name: 'Glycerin',
    rating: 'supporting actives',
    irritancy: '0',
    comedogenicity: '0',
    functions: ['humectant', 'solvent'],
    cas_number: '56-81-5',
    ec_number: '200-289-5',
    ph_eur_name: 'Glycerolum',
    iupac_name: 'propane-1,2,3-triol',
    other_names: 'Glycerol, Glycerine',
  }),
  ingredient(ING.parfum, { name: 'Parfum', other_names: 'Fragrance', category: 'fragrance', functions: ['perfuming'] }),
  ingredient(ING.alcohol, { name: 'Alcohol Denat.', category: 'drying_alcohol', functions: ['solvent'] }),
  ingredient(ING.methylparaben, { name: 'Methylparaben', category: 'parabens', functions: ['preservative'] }),
  ingredient(ING.sles, {
    name: 'Sodium Laureth Sulfate',
    category: 'sulfates',
    irritancy: '1-3',
    functions: ['surfactant'],
  }),
  ingredient(ING.dimethicone, {
    name: 'Dimethicone',
    category: 'silicones',
    comedogenicity: '1',
    functions: ['emollient'],
  }),
  ingredient(ING.niacinamide, { name: 'Niacinamide', rating: 'direct actives', functions: ['skin conditioning'] }),
  ingredient(ING.sls, { name: 'Sodium Lauryl Sulfate', category: 'sulfates', irritancy: '2-5', comedogenicity: '5' }),
  ingredient(ING.sodiumChloride, { name: 'Sodium Chloride' }),
  ingredient(ING.linalool, { name: 'Linalool', rating: 'sensitizers' }),
  ingredient(ING.salicylic, { name: 'Salicylic Acid', rating: 'direct actives' }),
  ingredient(ING.tocopherol, { name: 'Tocopherol', other_names: 'Vitamin E', functions: ['antioxidant'] }),
  ingredient(ING.sodiumHyaluronate, { name: 'Sodium Hyaluronate', other_names: 'Hyaluronic acid sodium salt' }),
  ingredient(ING.hyaluronic, { name: 'Hyaluronic Acid' }),
  ingredient(ING.zinc, { name: 'Zinc Oxide' }),
];

/** Hand-written products, ords 0..N-1 (catalogue order). */
export const P = {
  caudalie: 0,
  loreal: 1,
  roche: 2,
  cerave: 3,
  ordinary: 4,
  nobrand: 5,
  shampoo: 6,
  silky: 7,
  hydraSerum: 8,
  hydrating: 9,
} as const;

const handWritten = [
  product(P.caudalie, {
    brand: 'Caudalíe',
    name: 'Vinoperfect Radiance Serum',
    category: 'skincare',
    origin: 'France',
    image_url: 'https://images.example.org/p/caudalie.jpg',
    barcodes: ['3522930003045', '0000012345670'],
    ingredients: [
      entry(ING.aqua, { label_name: 'Aqua/Water/Eau' }),
      entry(ING.glycerin),
      entry(ING.niacinamide, { concentration: 5 }),
      entry(ING.parfum, { label_name: 'Fragrance' }),
    ],
  }),
  product(P.loreal, {
    brand: "L'Oréal Paris",
    name: 'Revitalift Night Cream',
    category: 'skincare',
    origin: 'France',
    barcodes: ['30123456789012'],
    ingredients: [entry(ING.aqua), entry(ING.alcohol), entry(ING.methylparaben), entry(ING.linalool)],
  }),
  product(P.roche, {
    brand: 'La Roche-Posay',
    name: 'Effaclar Duo',
    category: 'skincare',
    origin: 'France',
    ingredients: [entry(ING.aqua), entry(ING.salicylic), entry(ING.dimethicone)],
  }),
  product(P.cerave, {
    brand: 'CeraVe',
    name: 'Foaming Facial Cleanser',
    category: 'skincare',
    origin: 'United States',
    barcodes: ['12345678'],
    ingredients: [entry(ING.aqua), entry(ING.sles), entry(ING.glycerin), entry(ING.niacinamide)],
  }),
  product(P.ordinary, {
    brand: 'The Ordinary',
    name: 'Niacinamide 10% + Zinc 1%',
    category: 'skincare',
    origin: 'Canada',
    ingredients: [entry(ING.aqua), entry(ING.niacinamide, { concentration: 10 }), entry(ING.glycerin)],
  }),
  product(P.nobrand, { brand: null, name: null, category: null, origin: null, ingredients: [] }),
  product(P.shampoo, {
    brand: 'Curl Co',
    name: 'Sulfate Shampoo',
    category: 'haircare',
    origin: null,
    ingredients: [entry(ING.aqua), entry(ING.sls), entry(ING.sodiumChloride), entry(ING.parfum)],
  }),
  product(P.silky, {
    brand: 'Curl Co',
    name: 'Silky Conditioner',
    category: 'haircare',
    ingredients: [entry(ING.aqua), entry(ING.dimethicone), entry(ING.tocopherol)],
  }),
  product(P.hydraSerum, {
    brand: 'Hydra Labs',
    name: 'Hydra Serum',
    category: 'skincare',
    ingredients: [entry(ING.aqua), entry(ING.sodiumHyaluronate), entry(ING.hyaluronic)],
  }),
  product(P.hydrating, {
    brand: 'Hydra Labs',
    name: 'Hydrating Gentle Hydra Cleanser With Extra Long Name',
    category: 'skincare',
    ingredients: [entry(ING.aqua), entry(ING.glycerin)],
  }),
];

/** Bulk products: "Bulk Brand" / "Daily Moisturizer N", enough to page past page 51. */
export const BULK = 1100;
export const BULK_FIRST_ORD = handWritten.length;
const bulk = Array.from({ length: BULK }, (_, i) =>
  product(BULK_FIRST_ORD + i, {
    brand: 'Bulk Brand',
    name: `Daily Moisturizer ${i + 1}`,
    category: i % 2 ? 'body/bath' : 'skincare',
    origin: i % 3 ? null : 'Germany',
    ingredients: [entry(ING.aqua), entry(ING.glycerin), ...(i % 4 === 0 ? [entry(ING.parfum)] : [])],
  }),
);

export const products = [...handWritten, ...bulk];
export const productId = (ord: number) => uuid(ord, 'b');
export const ingredientId = (n: number) => uuid(n, 'a');
export const BUILT_AT = '2026-03-14';

/** Builds the fixture catalogue into a fresh temp dir; returns the file path. */
export async function buildFixture(): Promise<{ file: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-fixture-'));
  writeSource(path.join(dir, 'source'), { ingredients, products });
  const file = path.join(dir, 'catalogue.db');
  await buildCatalogue({ sourceDir: path.join(dir, 'source'), outFile: file, builtAt: BUILT_AT });
  return { file, dir };
}
