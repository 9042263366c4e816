// Word lists for brands and product names, with weights chosen so that word frequencies
// look like a real cosmetics catalogue (a few words such as "Cream", "Serum" or
// "Hydrating" very common, most words rare). Data only.

/** [country, weight of brands, GS1 prefixes (3 digits) or 'upc' for UPC-A companies] */
export const COUNTRIES: Array<[string, number, string[] | 'upc']> = [
  ['United States', 30, 'upc'], ['France', 14, ['300', '301', '330', '340', '350', '360', '370']],
  ['South Korea', 12, ['880']], ['United Kingdom', 7, ['500', '501', '502', '503', '506', '509']],
  ['Japan', 6, ['450', '451', '490', '491', '492', '493', '494', '495', '496', '497', '498', '499']],
  ['Germany', 5, ['400', '401', '402', '403', '404', '405', '406', '407', '408', '409', '410', '428']],
  ['Italy', 4, ['800', '801', '802', '803', '804', '805', '806', '807', '808', '809', '830']],
  ['Canada', 3, 'upc'], ['Australia', 3, ['930', '931', '932', '933', '934', '935']],
  ['Spain', 2, ['840', '841', '842', '843', '844', '845', '846', '847', '848', '849']],
  ['Sweden', 2, ['730', '731', '732', '733', '734', '735']], ['Switzerland', 2, ['760', '761', '762', '763', '764', '765']],
  ['Poland', 1.5, ['590']], ['China', 1.5, ['690', '691', '692', '693', '694', '695']], ['Netherlands', 1, ['870', '871', '872', '873']],
  ['Brazil', 1, ['789', '790']], ['India', 1, ['890']], ['Denmark', 0.7, ['570', '571', '572', '573', '574']],
  ['Belgium', 0.7, ['540', '541', '542', '543', '544', '545']], ['Israel', 0.5, ['729']], ['Austria', 0.5, ['900', '901', '902', '903']],
  ['Russia', 0.5, ['460', '461', '462', '463', '464', '465']], ['Turkey', 0.5, ['869']], ['Taiwan', 0.5, ['471']],
  ['New Zealand', 0.4, ['940', '941', '942']], ['Thailand', 0.4, ['885']], ['Greece', 0.3, ['520', '521']],
  ['Portugal', 0.3, ['560']], ['Mexico', 0.3, ['750']], ['South Africa', 0.3, ['600', '601']], ['Ireland', 0.2, ['539']],
  ['Finland', 0.2, ['640', '641', '642', '643']], ['Norway', 0.2, ['700', '701', '702', '703']], ['Czech Republic', 0.2, ['859']],
];

export const SYLLABLE_HEADS = ['Derma', 'Lumi', 'Vel', 'Aur', 'Sol', 'Nat', 'Bio', 'Cos', 'Skin', 'Glow', 'Pur', 'Ver', 'Lux', 'Bell', 'Nov', 'Aqu', 'Cel', 'Dew', 'Flor', 'Gen', 'Hydr', 'Ise', 'Kal', 'Lor', 'Mar', 'Neo', 'Oli', 'Pri', 'Ros', 'Ser', 'Ter', 'Vit', 'Zen', 'Ami', 'Cla', 'Elo', 'Fre', 'Ilu', 'Jol', 'Mel', 'Ora', 'Sen', 'Val', 'Xen', 'Yu', 'Kin', 'Mi', 'Ra', 'Su', 'Ta', 'No', 'Sa'];
export const SYLLABLE_TAILS = ['a', 'ia', 'ique', 'elle', 'ora', 'ene', 'ix', 'is', 'on', 'ara', 'ance', 'ology', 'ist', 'lab', 'ea', 'ina', 'essa', 'ova', 'ium', 'yne', 'o', 'ami', 'ko', 'sol', 'va', 'ri', 'line', 'derm', 'skin', 'ssa'];
export const SYLLABLE_MIDS = ['la', 'ri', 'no', 'va', 'mi', 'te', 'so', 'lu', 've', 'ra', 'di', 'ne', 'ko', 'sa', 'li', 'ta', 'mo', 're', 'ni', 'da'];
export const EDITIONS = ['Edition', 'Collection', 'Limited Edition', 'Set', 'Duo', ''];
export const FIRST_NAMES = ['Anna', 'Marie', 'Sophie', 'Claire', 'Emma', 'Laura', 'Julia', 'Grace', 'Lily', 'Rose', 'Eva', 'Nina', 'Paula', 'Iris', 'Mila', 'Hana', 'Yuki', 'Jin', 'Ines', 'Elena', 'Olivia', 'Victoria', 'Charlotte', 'Kate', 'Sarah', 'Jane', 'Lucas', 'Henri', 'Thomas', 'Daniel', 'Max', 'Oscar'];
export const SURNAMES = ['Martin', 'Bernard', 'Dubois', 'Laurent', 'Moreau', 'Fontaine', 'Hart', 'Wells', 'Stone', 'Brooks', 'Reed', 'Hayes', 'Klein', 'Weber', 'Berger', 'Rossi', 'Bianchi', 'Conti', 'Park', 'Kim', 'Lee', 'Tanaka', 'Sato', 'Larsen', 'Nilsson', 'Novak', 'Silva', 'Costa', 'Meyer', 'Fischer', 'Hughes', 'Carter', 'Ellis', 'Vance', 'Monroe', 'Ashford', 'Whitmore', 'Sinclair', 'Beaumont', 'Delacroix'];
export const ADJECTIVES = ['Pure', 'Simple', 'Green', 'Clean', 'True', 'Bare', 'Wild', 'Fresh', 'Good', 'Happy', 'Honest', 'Glow', 'Bright', 'Soft', 'Calm', 'Golden', 'Velvet', 'Silk', 'Urban', 'Little', 'Natural', 'Organic', 'Clear', 'Daily', 'Blue', 'White', 'Red', 'Rose', 'Sweet', 'Kind'];
export const NOUNS = ['Botanics', 'Skin', 'Beauty', 'Garden', 'Lab', 'Labs', 'Apothecary', 'Ritual', 'Bloom', 'Leaf', 'Harvest', 'Island', 'Studio', 'Society', 'Co.', 'Cosmetics', 'Naturals', 'Essentials', 'Care', 'Atelier', 'Science', 'Formula', 'Origins', 'Elements', 'Alchemy', 'Remedy', 'Theory', 'Collective', 'Club', 'House'];
/** French-flavoured words, several accented. */
export const FRENCH = ['Éclat', 'Clé', 'Sève', 'Belle', 'Époque', 'Crème', 'Rosée', 'Lumière', 'Maison', 'Douceur', 'Pétale', 'Fleur', 'Été', 'Élixir', 'Bohème', 'Précieux', 'Jolie', 'Beauté', 'Soleil', 'Rivière', 'Château', 'Café', 'Étoile', 'Mélodie', 'Aimée', 'Héritage', 'Atelier', 'Vérité', 'Île', 'Côte'];
export const BRAND_SUFFIXES = ['Paris', 'Skin', 'Beauty', 'Cosmetics', 'Lab', 'Skincare', 'Professional', 'London', 'New York', 'Seoul', 'Tokyo', 'Berlin', 'Milano', 'Naturals', 'Organics'];

/** [product type, weight] per product category. */
export const TYPES: Record<string, Array<[string, number]>> = {
  skincare: [
    ['Cream', 20], ['Serum', 16], ['Moisturizer', 12], ['Cleanser', 10], ['Toner', 6], ['Mask', 7], ['Eye Cream', 5], ['Lotion', 5],
    ['Gel', 4], ['Essence', 3], ['Face Oil', 3], ['Balm', 3], ['Exfoliator', 2], ['Face Mist', 2], ['Peel', 1], ['Ampoule', 1],
    ['Sheet Mask', 2], ['Night Cream', 3], ['Day Cream', 3], ['Face Wash', 2], ['Micellar Water', 1], ['Cleansing Oil', 1],
    ['Eye Serum', 1], ['Gel Cream', 2], ['Sleeping Mask', 1], ['Emulsion', 1], ['Scrub', 1], ['Spot Treatment', 1], ['Lip Balm', 1],
  ],
  suncare: [['Sunscreen', 10], ['Sun Cream', 5], ['Sun Lotion', 4], ['Sun Fluid', 2], ['Sun Spray', 3], ['Sun Stick', 1], ['After Sun Lotion', 2], ['Self Tanner', 2], ['Tinted Sunscreen', 1]],
  makeup: [
    ['Foundation', 10], ['Lipstick', 9], ['Mascara', 7], ['Concealer', 6], ['Primer', 4], ['Blush', 4], ['Eyeshadow Palette', 4], ['Lip Gloss', 5],
    ['Eyeliner', 4], ['Powder', 4], ['BB Cream', 3], ['CC Cream', 2], ['Highlighter', 3], ['Bronzer', 2], ['Setting Spray', 2], ['Brow Gel', 2],
    ['Liquid Lipstick', 2], ['Cushion Compact', 2], ['Lip Liner', 2], ['Tinted Moisturizer', 1], ['Nail Polish', 3],
  ],
  haircare: [['Shampoo', 14], ['Conditioner', 11], ['Hair Mask', 6], ['Hair Oil', 4], ['Leave-In Conditioner', 3], ['Dry Shampoo', 2], ['Hair Serum', 2], ['Styling Cream', 2], ['Hair Spray', 2], ['Scalp Treatment', 1], ['Curl Cream', 1], ['Heat Protectant Spray', 1], ['Hair Gel', 1]],
  'body/bath': [['Body Lotion', 10], ['Shower Gel', 10], ['Body Wash', 8], ['Hand Cream', 7], ['Body Butter', 4], ['Body Scrub', 3], ['Body Oil', 3], ['Bath Foam', 2], ['Soap', 4], ['Deodorant', 4], ['Body Cream', 4], ['Foot Cream', 1], ['Body Mist', 1], ['Bath Salts', 1]],
  fragrance: [['Eau de Parfum', 10], ['Eau de Toilette', 8], ['Parfum', 2], ['Body Mist', 3], ['Eau de Cologne', 2], ['Perfume Oil', 1], ['Hair Mist', 1]],
  other: [['Toothpaste', 3], ['Nail Polish', 3], ['Lip Balm', 3], ['Deodorant', 3], ['Makeup Remover', 2], ['Baby Lotion', 2], ['Shaving Cream', 2], ['Aftershave Balm', 2], ['Beard Oil', 1], ['Mouthwash', 1], ['Intimate Wash', 1], ['Nail Oil', 1]],
};

/** [claim word, weight]; the first few dominate like in real product names. */
export const MODIFIERS: Array<[string, number]> = [
  ['Hydrating', 14], ['Daily', 8], ['Gentle', 7], ['Ultra', 6], ['Intense', 5], ['Advanced', 5], ['Soothing', 5], ['Nourishing', 5],
  ['Brightening', 5], ['Moisturizing', 5], ['Firming', 3], ['Repairing', 3], ['Purifying', 3], ['Anti-Aging', 4], ['Renewing', 2],
  ['Radiance', 3], ['Night', 3], ['Rich', 2], ['Light', 2], ['Mattifying', 2], ['Protective', 2], ['Smoothing', 2], ['Revitalizing', 2],
  ['Deep', 2], ['Fresh', 2], ['Pure', 2], ['Calming', 2], ['Clarifying', 2], ['Restorative', 1], ['Intensive', 1], ['Overnight', 1],
  ['Volumizing', 1], ['Long-Lasting', 1], ['Waterproof', 1], ['Sensitive', 2], ['Oil-Free', 1], ['Foaming', 2], ['Exfoliating', 1],
  ['Barrier', 1], ['Glow', 2], ['Perfecting', 1], ['Supreme', 1], ['Essential', 1], ['Organic', 1], ['Natural', 1], ['Extra', 1],
  ['Age-Defying', 1], ['Plumping', 1], ['Lifting', 1], ['Replenishing', 1], ['Refreshing', 1], ['Comforting', 1], ['Silky', 1], ['Velvet', 1],
];

/** [hero ingredient as printed in product names, weight] */
export const HEROES: Array<[string, number]> = [
  ['Vitamin C', 8], ['Hyaluronic Acid', 8], ['Retinol', 5], ['Niacinamide', 5], ['Ceramide', 4], ['Rose', 4], ['Aloe', 3], ['Green Tea', 3],
  ['Collagen', 3], ['Shea', 3], ['Argan', 3], ['Coconut', 3], ['Peptide', 2], ['Charcoal', 2], ['Tea Tree', 2], ['Honey', 2], ['Cica', 2],
  ['Snail', 1], ['Rice', 1], ['Vitamin E', 2], ['AHA', 1], ['BHA', 1], ['Salicylic', 1], ['Lavender', 1], ['Cucumber', 1], ['Avocado', 1],
  ['Oat', 1], ['Clay', 1], ['Caviar', 1], ['Gold', 1], ['Pearl', 1], ['Bakuchiol', 1], ['Squalane', 1], ['Propolis', 1], ['Mango', 1],
];

export const SHADES = ['Ivory', 'Porcelain', 'Beige', 'Sand', 'Honey', 'Caramel', 'Mocha', 'Espresso', 'Nude', 'Rosewood', 'Ruby', 'Coral', 'Berry', 'Mauve', 'Cherry', 'Plum', 'Black', 'Brown', 'Taupe', 'Champagne', 'Bronze', 'Peach', 'Natural', 'Light', 'Medium', 'Deep', 'Fair', 'Warm', 'Cool', 'Tan'];
export const SCENTS = ['Rose', 'Vanilla', 'Lavender', 'Citrus', 'Coconut', 'Oud', 'Amber', 'Musk', 'Jasmine', 'Bergamot', 'Sandalwood', 'Peony', 'Cherry Blossom', 'Fig', 'Neroli', 'Vetiver', 'Santal', 'Iris', 'Tuberose', 'Cedar'];
export const LINE_HEADS = ['Hydra', 'Aqua', 'Vino', 'Clear', 'Derma', 'Lumi', 'Cica', 'Pro', 'Skin', 'Age', 'Nutri', 'Bio', 'Vita', 'Repair', 'Youth', 'Pure', 'Ultra', 'Super', 'Glow', 'Dew', 'Micro', 'Revi', 'Neo', 'Phyto', 'Lift', 'Matte', 'Sensi', 'Color', 'Perfect', 'Time', 'Oil', 'Moist', 'Multi', 'Liquid', 'Cell'];
export const LINE_TAILS = ['Boost', 'Perfect', 'Bomb', 'Genius', 'Fix', 'Balance', 'Shield', 'Life', 'Luxe', 'Renew', 'Plus', 'Essence', 'Lab', 'Pro', 'Max', 'Care', 'Active', 'Bright', 'Calm', 'Drop', 'Rescue', 'Miracle', 'Protect', 'Comfort', 'Expert', 'Sense', 'Vital', 'Pure', 'Clinical', 'Code'];
