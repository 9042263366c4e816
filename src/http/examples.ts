// Example answers for the OpenAPI document, one per operation: real answers of the
// bundled sample catalogue (data/sample) as the service sends them, with the request
// values that give them. Redocly's no-invalid-media-type-examples rule
// (test/openapi-lint.test.ts) checks each answer against its schema.

/** A product id and a barcode of the bundled sample (Tower 28 Beauty's facial spray). */
export const EXAMPLE_PRODUCT_ID = '0595e7e1-3f2b-50bb-b1f0-ce9d6014760d';
export const EXAMPLE_BARCODE = '2246676874462';
/** An ingredient id of the bundled sample (Niacinamide). */
export const EXAMPLE_INGREDIENT_ID = 'dc62b3b0-ced7-5c5a-bfbf-90afd3e863c6';
/** A label text, as POST /v1/labels/analyze takes it. */
export const EXAMPLE_LABEL_TEXT = 'Aqua, Niacinamide (5%), Moon Dust, Parfum.';

/** GET /health. */
export const HEALTH = { status: 'ok', products: 10746, ingredients: 33254, built_at: '2026-11-27' };

/** GET /v1/products/search?q=tower 28 spray. */
export const PRODUCT_SEARCH = {
  results: [
    {
      id: '6e274dc5-be7b-58fa-9706-ec36ab504a4f',
      brand: 'Tower 28 Beauty',
      name: 'SOS Daily Rescue Facial Spray',
      category: 'skincare',
      image_url: null,
    },
    {
      id: '83423fae-7fde-5ce0-855a-8670cf39b668',
      brand: 'Tower 28 Beauty',
      name: 'Mini SOS Daily Rescue Facial Spray',
      category: 'skincare',
      image_url: null,
    },
    {
      id: '0595e7e1-3f2b-50bb-b1f0-ce9d6014760d',
      brand: 'Tower 28 Beauty',
      name: 'SOS Save.Our.Skin Daily Rescue Facial Spray',
      category: 'skincare',
      image_url:
        'https://www.sephora.com//productimages/sku/s2284909-main-zoom.jpg?pb=2020-03-sephora-clean-2019&imwidth=300',
    },
    {
      id: '6122ab5b-7076-5556-a3f2-430570f8184a',
      brand: 'Tower 28 Beauty',
      name: 'SOS Save.Our.Skin Daily Rescue Facial Spray Mini',
      category: 'skincare',
      image_url:
        'https://www.sephora.com//productimages/sku/s2284917-main-zoom.jpg?pb=2020-03-sephora-clean-2019&imwidth=300',
    },
  ],
  pagination: { page: 1, has_more: false, total: 4 },
};

/** GET /v1/products?brand=tower 28 beauty&category=skincare. */
export const PRODUCT_FILTER = {
  results: [
    {
      id: '0595e7e1-3f2b-50bb-b1f0-ce9d6014760d',
      brand: 'Tower 28 Beauty',
      name: 'SOS Save.Our.Skin Daily Rescue Facial Spray',
      category: 'skincare',
      image_url:
        'https://www.sephora.com//productimages/sku/s2284909-main-zoom.jpg?pb=2020-03-sephora-clean-2019&imwidth=300',
    },
    {
      id: '6122ab5b-7076-5556-a3f2-430570f8184a',
      brand: 'Tower 28 Beauty',
      name: 'SOS Save.Our.Skin Daily Rescue Facial Spray Mini',
      category: 'skincare',
      image_url:
        'https://www.sephora.com//productimages/sku/s2284917-main-zoom.jpg?pb=2020-03-sephora-clean-2019&imwidth=300',
    },
    {
      id: '6e274dc5-be7b-58fa-9706-ec36ab504a4f',
      brand: 'Tower 28 Beauty',
      name: 'SOS Daily Rescue Facial Spray',
      category: 'skincare',
      image_url: null,
    },
    {
      id: '83423fae-7fde-5ce0-855a-8670cf39b668',
      brand: 'Tower 28 Beauty',
      name: 'Mini SOS Daily Rescue Facial Spray',
      category: 'skincare',
      image_url: null,
    },
    {
      id: '71cec873-d2a3-5c08-ae56-470e2eec668b',
      brand: 'Tower 28 Beauty',
      name: 'SOS Intensive Redness Relief Serum',
      category: 'skincare',
      image_url: null,
    },
  ],
  pagination: { page: 1, has_more: false, total: 5 },
};

/** GET /v1/products/{EXAMPLE_PRODUCT_ID}, and by EXAMPLE_BARCODE. */
export const PRODUCT = {
  id: '0595e7e1-3f2b-50bb-b1f0-ce9d6014760d',
  brand: 'Tower 28 Beauty',
  name: 'SOS Save.Our.Skin Daily Rescue Facial Spray',
  image_url:
    'https://www.sephora.com//productimages/sku/s2284909-main-zoom.jpg?pb=2020-03-sephora-clean-2019&imwidth=300',
  category: 'skincare',
  origin: 'United States',
  contains_fragrance: false,
  contains_drying_alcohol: false,
  contains_parabens: false,
  contains_sulfates: false,
  contains_silicones: false,
  ingredients: [
    {
      position: 0,
      label_name: 'Water',
      concentration: null,
      id: 'a84655d1-5796-5f40-9cb8-5220648630ab',
      name: 'Aqua',
      rating: null,
      irritancy: '0',
      comedogenicity: '0',
      functions: ['solvent'],
      cas_number: '7732-18-5',
      ec_number: '231-791-2',
      ph_eur_name: 'Aqua',
      iupac_name: null,
      other_names:
        'Water, H2O, Eau, Aqueous, Acqua, Purified Water, Pure Water, Purified Aqua, Water Purified, Deionized Water, Deionic water, Deionised water',
      category: null,
    },
    {
      position: 1,
      label_name: 'Sodium Chloride',
      concentration: null,
      id: '2c85d727-4352-567f-abc4-bd483009e338',
      name: 'Sodium Chloride',
      rating: null,
      irritancy: '3',
      comedogenicity: '5',
      functions: ['bulking', 'fragrance', 'oral care', 'viscosity controlling'],
      cas_number: '7647-14-5',
      ec_number: '231-598-3',
      ph_eur_name: 'Natrii chloridum',
      iupac_name: null,
      other_names: 'Natrii chloridum, NaCl, Natrum muriaticum',
      category: null,
    },
    {
      position: 2,
      label_name: 'Hypochlorous Acid',
      concentration: null,
      id: 'dc0c53ec-254a-5475-97a3-a4d47b4d2f3c',
      name: 'Hypochlorous Acid',
      rating: null,
      irritancy: null,
      comedogenicity: null,
      functions: ['anti-sebum', 'antimicrobial', 'deodorant', 'oxidising'],
      cas_number: '7790-92-3',
      ec_number: '232-232-5',
      ph_eur_name: null,
      iupac_name: null,
      other_names: null,
      category: null,
    },
  ],
};

/** POST /v1/products/batch with EXAMPLE_PRODUCT_ID and an id no product has. */
export const BATCH = [PRODUCT, null];

/** GET /v1/ingredients/search?q=nicotinamide. */
export const INGREDIENT_SEARCH = {
  results: [
    {
      id: '1f15dff6-ad3a-58e1-96f8-476d2070f4f6',
      name: 'Nicotinamide Mononucleotide',
      other_names: null,
      rating: null,
    },
    {
      id: '509c8d9c-2c69-51a6-a228-5055372dc2a5',
      name: 'Nicotinamide Adenine Dinucleotide',
      other_names: 'Nadide',
      rating: null,
    },
    {
      id: 'a1d0b774-2b3e-58b6-9776-a592f10deb11',
      name: 'Nicotinamide Riboside Hydrogren Malate',
      other_names: null,
      rating: null,
    },
    {
      id: 'dc62b3b0-ced7-5c5a-bfbf-90afd3e863c6',
      name: 'Niacinamide',
      other_names: 'Nicotinamide, Nicotinamidum, Nicotinic acid amide',
      rating: 'direct actives',
    },
  ],
  pagination: { page: 1, has_more: false, total: 4 },
};

/** GET /v1/ingredients/{EXAMPLE_INGREDIENT_ID}. */
export const INGREDIENT = {
  id: 'dc62b3b0-ced7-5c5a-bfbf-90afd3e863c6',
  name: 'Niacinamide',
  rating: 'direct actives',
  irritancy: null,
  comedogenicity: null,
  functions: ['smoothing'],
  cas_number: '98-92-0',
  ec_number: '202-713-4',
  ph_eur_name: 'Nicotinamidum',
  iupac_name: '3-Pyridinecarboxamide',
  other_names: 'Nicotinamide, Nicotinamidum, Nicotinic acid amide',
  category: null,
};

/** POST /v1/labels/analyze with EXAMPLE_LABEL_TEXT. */
export const LABEL_ANALYSIS = {
  contains_fragrance: true,
  contains_drying_alcohol: false,
  contains_parabens: false,
  contains_sulfates: false,
  contains_silicones: false,
  counts: { entries: 4, recognised: 3, unrecognised: 1 },
  sections: [{ header: null }],
  notes: [],
  entries: [
    {
      position: 0,
      label_name: 'Aqua',
      concentration: null,
      may_contain: false,
      section: 0,
      joined_by: 'exact',
      join_rule: 'exact',
      ingredient: {
        id: 'a84655d1-5796-5f40-9cb8-5220648630ab',
        name: 'Aqua',
        rating: null,
        irritancy: '0',
        comedogenicity: '0',
        functions: ['solvent'],
        cas_number: '7732-18-5',
        ec_number: '231-791-2',
        ph_eur_name: 'Aqua',
        iupac_name: null,
        other_names:
          'Water, H2O, Eau, Aqueous, Acqua, Purified Water, Pure Water, Purified Aqua, Water Purified, Deionized Water, Deionic water, Deionised water',
        category: null,
      },
    },
    {
      position: 1,
      label_name: 'Niacinamide (5%)',
      concentration: 5,
      may_contain: false,
      section: 0,
      joined_by: 'exact',
      join_rule: 'exact',
      ingredient: {
        id: 'dc62b3b0-ced7-5c5a-bfbf-90afd3e863c6',
        name: 'Niacinamide',
        rating: 'direct actives',
        irritancy: null,
        comedogenicity: null,
        functions: ['smoothing'],
        cas_number: '98-92-0',
        ec_number: '202-713-4',
        ph_eur_name: 'Nicotinamidum',
        iupac_name: '3-Pyridinecarboxamide',
        other_names: 'Nicotinamide, Nicotinamidum, Nicotinic acid amide',
        category: null,
      },
    },
    {
      position: 2,
      label_name: 'Moon Dust',
      concentration: null,
      may_contain: false,
      section: 0,
      joined_by: 'none',
      join_rule: 'none',
      ingredient: null,
    },
    {
      position: 3,
      label_name: 'Parfum',
      concentration: null,
      may_contain: false,
      section: 0,
      joined_by: 'exact',
      join_rule: 'exact',
      ingredient: {
        id: 'e0043fcc-db2c-5b9d-9118-1f98d5a879b1',
        name: 'Parfum',
        rating: 'sensitizers',
        irritancy: null,
        comedogenicity: null,
        functions: ['fragrance'],
        cas_number: null,
        ec_number: null,
        ph_eur_name: null,
        iupac_name: null,
        other_names: 'Fragance, Fragrances, Perfumery, Flavor, Fragrance, Perfume, Natural Fragrance',
        category: 'fragrance',
      },
    },
  ],
};
