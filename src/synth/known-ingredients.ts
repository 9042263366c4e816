// Hand-written ingredients every realistic catalogue has: the staples (water, glycerin,
// common preservatives, ...) with the share of products that list them, and the
// free-from-tagged ingredients in popularity order within each tag. Data only.
import type { IngredientCategory, Rating } from '../source/records';

export type { Rating };


export interface KnownIngredient {
  name: string;
  /** Typical label position, 0 (first) to 1 (last); -1 means always first. */
  pos: number;
  functions: string[];
  cas?: string; ec?: string; iupac?: string; phEur?: string; other?: string;
  rating?: Rating; irritancy?: string; comedogenicity?: string;
  /** Other spellings printed on labels. */
  variants?: string[];
  category?: IngredientCategory;
  /** Staples only: share of products listing it, and the product categories where it is three times likelier. */
  share?: number;
  boost?: string[];
}

const SA: Rating = 'supporting actives';
const DA: Rating = 'direct actives';
const SE: Rating = 'sensitizers';

export const STAPLES: KnownIngredient[] = [
  { name: 'Aqua', pos: -1, share: 0.88, functions: ['solvent'], cas: '7732-18-5', ec: '231-791-2', phEur: 'Aqua purificata', iupac: 'oxidane', other: 'Water, Eau, Purified Water', variants: ['Aqua/Water/Eau', 'Water', 'Aqua (Water)', 'Water/Aqua/Eau', 'Eau', 'Purified Water'] },
  { name: 'Glycerin', pos: 0.08, share: 0.65, functions: ['humectant', 'solvent'], cas: '56-81-5', ec: '200-289-5', phEur: 'Glycerolum', iupac: 'propane-1,2,3-triol', other: 'Glycerol, Glycerine', rating: SA, irritancy: '0', comedogenicity: '0', variants: ['Glycerine', 'Glycerol'] },
  { name: 'Phenoxyethanol', pos: 0.78, share: 0.45, functions: ['preservative'], cas: '122-99-6', ec: '204-589-7', iupac: '2-phenoxyethanol', other: 'Ethylene Glycol Monophenyl Ether' },
  { name: 'Butylene Glycol', pos: 0.15, share: 0.28, functions: ['humectant', 'solvent', 'masking'], cas: '107-88-0', ec: '203-529-7', iupac: 'butane-1,3-diol', other: '1,3-Butanediol' },
  { name: 'Tocopherol', pos: 0.72, share: 0.25, functions: ['antioxidant', 'skin conditioning'], cas: '59-02-9', ec: '200-412-2', other: 'Vitamin E', rating: SA, variants: ['Tocopherol (Vitamin E)', 'Vitamin E'] },
  { name: 'Citric Acid', pos: 0.82, share: 0.25, functions: ['buffering', 'chelating'], cas: '77-92-9', ec: '201-069-1', iupac: '2-hydroxypropane-1,2,3-tricarboxylic acid', phEur: 'Acidum citricum' },
  { name: 'Ethylhexylglycerin', pos: 0.8, share: 0.22, functions: ['skin conditioning', 'deodorant'], cas: '70445-33-9', ec: '408-080-2', iupac: '3-(2-ethylhexoxy)propane-1,2-diol' },
  { name: 'Xanthan Gum', pos: 0.62, share: 0.2, functions: ['viscosity controlling', 'emulsion stabilising'], cas: '11138-66-2', ec: '234-394-2' },
  { name: 'Disodium EDTA', pos: 0.76, share: 0.2, functions: ['chelating'], cas: '139-33-3', ec: '205-358-3', other: 'Edetate Disodium' },
  { name: 'Caprylic/Capric Triglyceride', pos: 0.25, share: 0.2, functions: ['emollient', 'solvent'], cas: '65381-09-1', ec: '265-724-3', other: 'Fractionated Coconut Oil', comedogenicity: '1' },
  { name: 'Cetearyl Alcohol', pos: 0.25, share: 0.2, functions: ['emollient', 'emulsifying', 'viscosity controlling'], cas: '67762-27-0', ec: '267-008-6', other: 'Cetostearyl Alcohol', comedogenicity: '2' },
  { name: 'Sodium Hydroxide', pos: 0.82, share: 0.18, functions: ['buffering', 'denaturant'], cas: '1310-73-2', ec: '215-185-5', phEur: 'Natrii hydroxidum' },
  { name: 'Carbomer', pos: 0.52, share: 0.18, functions: ['viscosity controlling', 'emulsion stabilising'], cas: '9003-01-4' },
  { name: 'Panthenol', pos: 0.45, share: 0.15, functions: ['antistatic', 'hair conditioning', 'skin conditioning'], cas: '81-13-0', ec: '201-327-3', other: 'Provitamin B5, D-Panthenol', rating: SA, variants: ['D-Panthenol'] },
  { name: 'Tocopheryl Acetate', pos: 0.6, share: 0.15, functions: ['antioxidant', 'skin conditioning'], cas: '7695-91-2', ec: '231-710-0', other: 'Vitamin E Acetate' },
  { name: 'Caprylyl Glycol', pos: 0.76, share: 0.15, functions: ['emollient', 'humectant', 'skin conditioning'], cas: '1117-86-8', ec: '214-254-7', iupac: 'octane-1,2-diol' },
  { name: 'Propanediol', pos: 0.2, share: 0.15, functions: ['solvent', 'viscosity controlling'], cas: '504-63-2', ec: '207-997-3', iupac: 'propane-1,3-diol' },
  { name: 'Glyceryl Stearate', pos: 0.3, share: 0.14, functions: ['emollient', 'emulsifying'], cas: '31566-31-1', ec: '250-705-4', comedogenicity: '1-3' },
  { name: 'Sodium Hyaluronate', pos: 0.55, share: 0.12, functions: ['humectant', 'skin conditioning'], cas: '9067-32-7', other: 'Hyaluronic Acid Sodium Salt', rating: DA },
  { name: 'Allantoin', pos: 0.5, share: 0.12, functions: ['skin protecting', 'soothing'], cas: '97-59-6', ec: '202-592-8', iupac: '(2,5-dioxoimidazolidin-4-yl)urea', rating: SA },
  { name: 'Sodium Benzoate', pos: 0.86, share: 0.12, functions: ['preservative', 'anticorrosive'], cas: '532-32-1', ec: '208-534-8', iupac: 'sodium benzoate' },
  { name: 'Cetyl Alcohol', pos: 0.3, share: 0.12, functions: ['emollient', 'emulsifying', 'opacifying'], cas: '36653-82-4', ec: '253-149-0', iupac: 'hexadecan-1-ol', comedogenicity: '2' },
  { name: '1,2-Hexanediol', pos: 0.7, share: 0.12, functions: ['solvent'], cas: '6920-22-5', ec: '230-029-6', iupac: 'hexane-1,2-diol' },
  { name: 'Sodium Chloride', pos: 0.5, share: 0.12, functions: ['viscosity controlling'], cas: '7647-14-5', ec: '231-598-3', other: 'Salt', boost: ['haircare', 'body/bath'] },
  { name: 'Niacinamide', pos: 0.3, share: 0.1, functions: ['skin conditioning', 'smoothing'], cas: '98-92-0', ec: '202-713-4', iupac: 'pyridine-3-carboxamide', other: 'Nicotinamide, Vitamin B3', rating: DA, irritancy: '0', comedogenicity: '0' },
  { name: 'Potassium Sorbate', pos: 0.86, share: 0.1, functions: ['preservative'], cas: '24634-61-5', ec: '246-376-1' },
  { name: 'Squalane', pos: 0.3, share: 0.1, functions: ['emollient', 'skin conditioning'], cas: '111-01-3', ec: '203-825-6', comedogenicity: '1', rating: SA },
  { name: 'Stearic Acid', pos: 0.35, share: 0.1, functions: ['emulsifying', 'cleansing'], cas: '57-11-4', ec: '200-313-4', iupac: 'octadecanoic acid', comedogenicity: '2-3' },
  { name: 'Aloe Barbadensis Leaf Juice', pos: 0.12, share: 0.1, functions: ['skin conditioning'], cas: '85507-69-3', ec: '287-390-8', other: 'Aloe Vera Juice', variants: ['Aloe Barbadensis (Aloe Vera) Leaf Juice'] },
  { name: 'Titanium Dioxide', pos: 0.4, share: 0.08, functions: ['colorant', 'uv filter', 'opacifying'], cas: '13463-67-7', ec: '236-675-5', other: 'CI 77891', boost: ['makeup', 'suncare'], variants: ['Titanium Dioxide (CI 77891)'] },
  { name: 'Cocamidopropyl Betaine', pos: 0.2, share: 0.06, functions: ['cleansing', 'foam boosting', 'surfactant'], cas: '61789-40-0', ec: '263-058-8', boost: ['haircare', 'body/bath'] },
  { name: 'Mica', pos: 0.15, share: 0.06, functions: ['colorant', 'opacifying'], cas: '12001-26-2', other: 'CI 77019', boost: ['makeup'] },
  { name: 'Chlorphenesin', pos: 0.8, share: 0.07, functions: ['preservative'], cas: '104-29-0', ec: '203-192-6' },
  { name: 'Benzyl Alcohol', pos: 0.84, share: 0.07, functions: ['preservative', 'solvent', 'perfuming'], cas: '100-51-6', ec: '202-859-9', iupac: 'phenylmethanol' },
  { name: 'Polysorbate 20', pos: 0.7, share: 0.07, functions: ['emulsifying', 'surfactant'], cas: '9005-64-5' },
  { name: 'Lactic Acid', pos: 0.7, share: 0.06, functions: ['buffering', 'humectant'], cas: '50-21-5', ec: '200-018-0', rating: DA },
  { name: 'Isopropyl Myristate', pos: 0.3, share: 0.05, functions: ['emollient', 'binding'], cas: '110-27-0', ec: '203-751-4', iupac: 'propan-2-yl tetradecanoate', irritancy: '3', comedogenicity: '5' },
  { name: 'Zinc Oxide', pos: 0.3, share: 0.04, functions: ['uv filter', 'colorant', 'skin protecting'], cas: '1314-13-2', ec: '215-222-5', other: 'CI 77947', boost: ['suncare', 'makeup'] },
  { name: 'Ceramide NP', pos: 0.65, share: 0.05, functions: ['skin conditioning'], other: 'Ceramide 3', rating: DA },
  { name: 'Behentrimonium Chloride', pos: 0.3, share: 0.03, functions: ['antistatic', 'hair conditioning'], cas: '17301-53-0', ec: '241-327-0', boost: ['haircare'] },
  { name: 'Salicylic Acid', pos: 0.5, share: 0.03, functions: ['keratolytic', 'preservative'], cas: '69-72-7', ec: '200-712-3', iupac: '2-hydroxybenzoic acid', rating: DA },
  { name: 'Ascorbic Acid', pos: 0.3, share: 0.03, functions: ['antioxidant'], cas: '50-81-7', ec: '200-066-2', other: 'Vitamin C, L-Ascorbic Acid', rating: DA },
  { name: 'Retinol', pos: 0.6, share: 0.02, functions: ['skin conditioning'], cas: '68-26-8', ec: '200-683-7', other: 'Vitamin A', rating: DA, irritancy: '1-2' },
];

const F: IngredientCategory = 'fragrance';
const S: IngredientCategory = 'silicones';
const D: IngredientCategory = 'drying_alcohol';
const P: IngredientCategory = 'parabens';
const L: IngredientCategory = 'sulfates';

/** Tagged ingredients, interleaved so that any prefix covers every tag; popularity order within a tag. */
export const TAGGED: KnownIngredient[] = [
  { name: 'Parfum', category: F, pos: 0.8, functions: ['perfuming', 'masking'], other: 'Fragrance, Perfume', rating: SE, variants: ['Parfum/Fragrance', 'Fragrance', 'Parfum (Fragrance)', 'Fragrance (Parfum)'] },
  { name: 'Dimethicone', category: S, pos: 0.3, functions: ['emollient', 'skin protecting', 'antifoaming'], cas: '9006-65-9', other: 'Polydimethylsiloxane', irritancy: '0', comedogenicity: '1' },
  { name: 'Alcohol Denat.', category: D, pos: 0.25, functions: ['solvent', 'antimicrobial'], cas: '64-17-5', ec: '200-578-6', other: 'Denatured Alcohol, SD Alcohol', variants: ['Alcohol Denat', 'Denatured Alcohol'] },
  { name: 'Sodium Laureth Sulfate', category: L, pos: 0.1, functions: ['cleansing', 'surfactant', 'foaming'], cas: '9004-82-4', other: 'SLES', irritancy: '3', variants: ['Sodium Lauryl Ether Sulfate'] },
  { name: 'Methylparaben', category: P, pos: 0.85, functions: ['preservative'], cas: '99-76-3', ec: '202-785-7', iupac: 'methyl 4-hydroxybenzoate', other: 'Methyl 4-Hydroxybenzoate' },
  { name: 'Limonene', category: F, pos: 0.95, functions: ['perfuming', 'solvent'], cas: '5989-27-5', ec: '227-813-5', rating: SE },
  { name: 'Cyclopentasiloxane', category: S, pos: 0.3, functions: ['emollient', 'solvent', 'hair conditioning'], cas: '541-02-6', ec: '208-764-9', other: 'D5, Decamethylcyclopentasiloxane' },
  { name: 'Alcohol', category: D, pos: 0.25, functions: ['solvent', 'antimicrobial'], cas: '64-17-5', ec: '200-578-6', other: 'Ethanol, Ethyl Alcohol', iupac: 'ethanol' },
  { name: 'Sodium Lauryl Sulfate', category: L, pos: 0.1, functions: ['cleansing', 'surfactant'], cas: '151-21-3', ec: '205-788-1', other: 'SLS', irritancy: '5', comedogenicity: '5' },
  { name: 'Propylparaben', category: P, pos: 0.87, functions: ['preservative'], cas: '94-13-3', ec: '202-307-7', iupac: 'propyl 4-hydroxybenzoate' },
  { name: 'Linalool', category: F, pos: 0.95, functions: ['perfuming'], cas: '78-70-6', ec: '201-134-4', rating: SE },
  { name: 'Dimethiconol', category: S, pos: 0.4, functions: ['emollient', 'skin conditioning'], cas: '31692-79-2' },
  { name: 'Isopropyl Alcohol', category: D, pos: 0.3, functions: ['solvent', 'antifoaming'], cas: '67-63-0', ec: '200-661-7', iupac: 'propan-2-ol', other: 'Isopropanol' },
  { name: 'Ammonium Lauryl Sulfate', category: L, pos: 0.1, functions: ['cleansing', 'surfactant'], cas: '2235-54-3', ec: '218-793-9' },
  { name: 'Ethylparaben', category: P, pos: 0.86, functions: ['preservative'], cas: '120-47-8', ec: '204-399-4' },
  { name: 'Citronellol', category: F, pos: 0.95, functions: ['perfuming'], cas: '106-22-9', ec: '203-375-0', rating: SE },
  { name: 'Cyclohexasiloxane', category: S, pos: 0.35, functions: ['emollient', 'solvent'], cas: '540-97-6', ec: '208-762-8' },
  { name: 'SD Alcohol 40-B', category: D, pos: 0.25, functions: ['solvent'] },
  { name: 'Sodium Coco-Sulfate', category: L, pos: 0.12, functions: ['cleansing', 'surfactant'], cas: '97375-27-4', ec: '306-682-4' },
  { name: 'Butylparaben', category: P, pos: 0.87, functions: ['preservative'], cas: '94-26-8', ec: '202-318-7' },
  { name: 'Geraniol', category: F, pos: 0.95, functions: ['perfuming'], cas: '106-24-1', ec: '203-377-1', rating: SE },
  { name: 'Amodimethicone', category: S, pos: 0.4, functions: ['antistatic', 'hair conditioning'], cas: '71750-79-3' },
  { name: 'Ammonium Laureth Sulfate', category: L, pos: 0.12, functions: ['cleansing', 'surfactant'], cas: '32612-48-9' },
  { name: 'Isobutylparaben', category: P, pos: 0.87, functions: ['preservative'], cas: '4247-02-3', ec: '224-208-8' },
  { name: 'Hexyl Cinnamal', category: F, pos: 0.95, functions: ['perfuming'], cas: '101-86-0', ec: '202-983-3' },
  { name: 'Phenyl Trimethicone', category: S, pos: 0.4, functions: ['antifoaming', 'hair conditioning', 'skin conditioning'], cas: '2116-84-9', ec: '218-320-6' },
  { name: 'Benzyl Salicylate', category: F, pos: 0.95, functions: ['perfuming', 'uv absorber'], cas: '118-58-1', ec: '204-262-9' },
  { name: 'Dimethicone Crosspolymer', category: S, pos: 0.45, functions: ['viscosity controlling', 'emulsion stabilising'] },
  { name: 'Sodium Myreth Sulfate', category: L, pos: 0.12, functions: ['cleansing', 'surfactant'], cas: '25446-80-4' },
  { name: 'Coumarin', category: F, pos: 0.95, functions: ['perfuming'], cas: '91-64-5', ec: '202-086-7' },
  { name: 'Trimethylsiloxysilicate', category: S, pos: 0.45, functions: ['antifoaming', 'emollient'], cas: '56275-01-5' },
  { name: 'Citral', category: F, pos: 0.96, functions: ['perfuming'], cas: '5392-40-5', ec: '226-394-6' },
  { name: 'PEG-10 Dimethicone', category: S, pos: 0.45, functions: ['emulsifying', 'skin conditioning'], cas: '68937-54-2' },
  { name: 'Butylphenyl Methylpropional', category: F, pos: 0.96, functions: ['perfuming'], cas: '80-54-6', ec: '201-289-8' },
  { name: 'Caprylyl Methicone', category: S, pos: 0.45, functions: ['emollient', 'skin conditioning'], cas: '17955-88-3' },
  { name: 'Alpha-Isomethyl Ionone', category: F, pos: 0.96, functions: ['perfuming'], cas: '127-51-5', ec: '204-846-3' },
  { name: 'Eugenol', category: F, pos: 0.96, functions: ['perfuming', 'denaturant'], cas: '97-53-0', ec: '202-589-1' },
  { name: 'Cyclomethicone', category: S, pos: 0.35, functions: ['emollient', 'solvent'], cas: '69430-24-6' },
  { name: 'Benzyl Benzoate', category: F, pos: 0.96, functions: ['perfuming', 'solvent'], cas: '120-51-4', ec: '204-402-9' },
  { name: 'Hydroxycitronellal', category: F, pos: 0.96, functions: ['perfuming'], cas: '107-75-5', ec: '203-518-7' },
  { name: 'Amyl Cinnamal', category: F, pos: 0.96, functions: ['perfuming'], cas: '122-40-7', ec: '204-541-5' },
  { name: 'Lavandula Angustifolia Oil', category: F, pos: 0.85, functions: ['perfuming', 'masking'], cas: '8000-28-0', other: 'Lavender Oil' },
  { name: 'Citrus Aurantium Dulcis Peel Oil', category: F, pos: 0.85, functions: ['perfuming'], other: 'Sweet Orange Peel Oil' },
  { name: 'Farnesol', category: F, pos: 0.96, functions: ['perfuming', 'deodorant'], cas: '4602-84-0', ec: '225-004-1' },
];
