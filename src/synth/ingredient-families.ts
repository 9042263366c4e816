// INCI-like name families (plant extracts, esters, PEGs, surfactant salts, peptides,
// polymers, colorants, ferments, ...) used to invent a realistic ingredient dictionary.
// Guarantees: each generator returns a plausible INCI name plus its typical label
// position, function vocabulary and, where the family has them, synonyms and systematic names.
import type { IngredientCategory } from '../source/records';
import type { Rng } from './prng';
import { Choice } from './sampler';

export interface Invented {
  name: string;
  pos: number;
  functions: string[];
  iupac?: string;
  phEur?: string;
  other?: string;
  variant?: string;
  /** Larger means usually less popular (applied when ranking the untagged pool). */
  rarity?: number;
}

// [genus species, common name or '']
const PLANTS: Array<[string, string]> = [
  ['Camellia Sinensis', 'Green Tea'],
  ['Centella Asiatica', 'Gotu Kola'],
  ['Aloe Barbadensis', 'Aloe Vera'],
  ['Butyrospermum Parkii', 'Shea'],
  ['Argania Spinosa', 'Argan'],
  ['Simmondsia Chinensis', 'Jojoba'],
  ['Rosa Canina', 'Rosehip'],
  ['Rosa Damascena', 'Rose'],
  ['Chamomilla Recutita', 'Matricaria'],
  ['Calendula Officinalis', 'Calendula'],
  ['Glycyrrhiza Glabra', 'Licorice'],
  ['Vitis Vinifera', 'Grape'],
  ['Olea Europaea', 'Olive'],
  ['Prunus Amygdalus Dulcis', 'Sweet Almond'],
  ['Helianthus Annuus', 'Sunflower'],
  ['Cocos Nucifera', 'Coconut'],
  ['Persea Gratissima', 'Avocado'],
  ['Theobroma Cacao', 'Cocoa'],
  ['Hamamelis Virginiana', 'Witch Hazel'],
  ['Melaleuca Alternifolia', 'Tea Tree'],
  ['Salvia Officinalis', 'Sage'],
  ['Rosmarinus Officinalis', 'Rosemary'],
  ['Citrus Limon', 'Lemon'],
  ['Citrus Aurantium Bergamia', 'Bergamot'],
  ['Citrus Paradisi', 'Grapefruit'],
  ['Citrus Reticulata', 'Tangerine'],
  ['Cucumis Sativus', 'Cucumber'],
  ['Carica Papaya', 'Papaya'],
  ['Ananas Sativus', 'Pineapple'],
  ['Vaccinium Myrtillus', 'Bilberry'],
  ['Vaccinium Macrocarpon', 'Cranberry'],
  ['Punica Granatum', 'Pomegranate'],
  ['Morus Alba', 'White Mulberry'],
  ['Paeonia Suffruticosa', 'Peony'],
  ['Panax Ginseng', 'Ginseng'],
  ['Ginkgo Biloba', 'Ginkgo'],
  ['Curcuma Longa', 'Turmeric'],
  ['Zingiber Officinale', 'Ginger'],
  ['Oryza Sativa', 'Rice'],
  ['Avena Sativa', 'Oat'],
  ['Triticum Vulgare', 'Wheat'],
  ['Glycine Soja', 'Soybean'],
  ['Zea Mays', 'Corn'],
  ['Hordeum Vulgare', 'Barley'],
  ['Linum Usitatissimum', 'Linseed'],
  ['Cannabis Sativa', 'Hemp'],
  ['Sesamum Indicum', 'Sesame'],
  ['Ricinus Communis', 'Castor'],
  ['Macadamia Ternifolia', 'Macadamia'],
  ['Limnanthes Alba', 'Meadowfoam'],
  ['Adansonia Digitata', 'Baobab'],
  ['Moringa Oleifera', 'Moringa'],
  ['Opuntia Ficus-Indica', 'Prickly Pear'],
  ['Hibiscus Sabdariffa', 'Hibiscus'],
  ['Nelumbo Nucifera', 'Lotus'],
  ['Nymphaea Alba', 'White Water Lily'],
  ['Lavandula Angustifolia', 'Lavender'],
  ['Mentha Piperita', 'Peppermint'],
  ['Eucalyptus Globulus', 'Eucalyptus'],
  ['Juniperus Communis', 'Juniper'],
  ['Cedrus Atlantica', 'Cedarwood'],
  ['Santalum Album', 'Sandalwood'],
  ['Pogostemon Cablin', 'Patchouli'],
  ['Jasminum Officinale', 'Jasmine'],
  ['Pelargonium Graveolens', 'Geranium'],
  ['Cymbopogon Citratus', 'Lemongrass'],
  ['Arnica Montana', 'Arnica'],
  ['Echinacea Purpurea', 'Coneflower'],
  ['Equisetum Arvense', 'Horsetail'],
  ['Urtica Dioica', 'Nettle'],
  ['Betula Alba', 'Birch'],
  ['Quercus Alba', 'White Oak'],
  ['Pinus Sylvestris', 'Scots Pine'],
  ['Houttuynia Cordata', ''],
  ['Portulaca Oleracea', 'Purslane'],
  ['Artemisia Vulgaris', 'Mugwort'],
  ['Scutellaria Baicalensis', 'Baikal Skullcap'],
  ['Polygonum Cuspidatum', 'Japanese Knotweed'],
  ['Sophora Flavescens', ''],
  ['Bambusa Vulgaris', 'Bamboo'],
  ['Tremella Fuciformis', 'Snow Mushroom'],
  ['Ganoderma Lucidum', 'Reishi Mushroom'],
  ['Laminaria Digitata', 'Kelp'],
  ['Fucus Vesiculosus', 'Bladderwrack'],
  ['Chlorella Vulgaris', 'Chlorella'],
  ['Spirulina Platensis', 'Spirulina'],
  ['Ascophyllum Nodosum', ''],
  ['Chondrus Crispus', 'Irish Moss'],
  ['Undaria Pinnatifida', 'Wakame'],
  ['Malus Domestica', 'Apple'],
  ['Pyrus Malus', 'Apple'],
  ['Prunus Persica', 'Peach'],
  ['Fragaria Vesca', 'Strawberry'],
  ['Rubus Idaeus', 'Raspberry'],
  ['Ribes Nigrum', 'Blackcurrant'],
  ['Sambucus Nigra', 'Elderberry'],
  ['Euterpe Oleracea', 'Acai'],
  ['Lycium Barbarum', 'Goji'],
  ['Hippophae Rhamnoides', 'Sea Buckthorn'],
  ['Mangifera Indica', 'Mango'],
  ['Passiflora Edulis', 'Passion Fruit'],
  ['Actinidia Chinensis', 'Kiwi'],
  ['Daucus Carota Sativa', 'Carrot'],
  ['Solanum Lycopersicum', 'Tomato'],
  ['Beta Vulgaris', 'Beet'],
  ['Allium Cepa', 'Onion'],
  ['Coffea Arabica', 'Coffee'],
  ['Vanilla Planifolia', 'Vanilla'],
  ['Cinnamomum Zeylanicum', 'Cinnamon'],
  ['Piper Nigrum', 'Black Pepper'],
  ['Capsicum Frutescens', 'Chili'],
  ['Tilia Cordata', 'Linden'],
  ['Sambucus Canadensis', ''],
  ['Bellis Perennis', 'Daisy'],
  ['Centaurea Cyanus', 'Cornflower'],
  ['Iris Florentina', 'Orris'],
  ['Magnolia Officinalis', 'Magnolia'],
  ['Plumeria Rubra', 'Frangipani'],
  ['Tagetes Erecta', 'Marigold'],
  ['Achillea Millefolium', 'Yarrow'],
  ['Plantago Lanceolata', 'Plantain'],
  ['Symphytum Officinale', 'Comfrey'],
  ['Althaea Officinalis', 'Marshmallow'],
  ['Malva Sylvestris', 'Mallow'],
  ['Boswellia Serrata', 'Frankincense'],
  ['Commiphora Myrrha', 'Myrrh'],
  ['Leontopodium Alpinum', 'Edelweiss'],
  ['Rhodiola Rosea', 'Golden Root'],
  ['Withania Somnifera', 'Ashwagandha'],
  ['Crithmum Maritimum', 'Sea Fennel'],
  ['Buddleja Davidii', 'Butterfly Bush'],
  ['Kigelia Africana', 'Sausage Tree'],
  ['Terminalia Ferdinandiana', 'Kakadu Plum'],
  ['Schisandra Chinensis', ''],
  ['Lilium Candidum', 'Madonna Lily'],
  ['Eclipta Prostrata', ''],
  ['Saccharum Officinarum', 'Sugar Cane'],
];

// [part, latin part for Ph. Eur. style names]
const PARTS: Array<[string, number, string]> = [
  ['Leaf', 20, 'folii'],
  ['Root', 10, 'radicis'],
  ['Seed', 14, 'seminis'],
  ['Flower', 12, 'floris'],
  ['Fruit', 12, 'fructus'],
  ['Bark', 4, 'corticis'],
  ['Peel', 4, 'pericarpii'],
  ['Stem', 4, 'caulis'],
  ['Kernel', 3, 'nuclei'],
  ['Bud', 2, 'gemmae'],
  ['Sprout', 2, 'germinis'],
  ['Callus Culture', 2, 'culturae'],
  ['', 10, 'herbae'],
  ['Leaf/Stem', 3, 'folii et caulis'],
  ['Flower/Leaf/Stem', 2, 'herbae'],
];
const PART = new Choice(PARTS.map((p) => [p, p[1]] as const));
const FORM = new Choice<string>([
  ['Extract', 60],
  ['Oil', 10],
  ['Water', 5],
  ['Juice', 3],
  ['Powder', 4],
  ['Butter', 2],
  ['Wax', 1],
  ['Cell Extract', 2],
  ['Ferment Extract', 2],
  ['Oil Unsaponifiables', 1],
  ['Sterols', 1],
]);

function plant(rng: Rng): Invented {
  const [species, common] = rng.pick(PLANTS);
  const [part, , partLatin] = PART.draw(rng);
  let form = FORM.draw(rng);
  if (form === 'Butter' && part !== 'Seed' && part !== 'Kernel') form = 'Extract';
  if ((form === 'Oil' || form === 'Wax') && !['Seed', 'Kernel', 'Fruit', 'Flower', ''].includes(part)) form = 'Extract';
  const hydro = form === 'Oil' && rng.chance(0.08) ? 'Hydrogenated ' : '';
  const tail = `${part ? part + ' ' : ''}${form}`;
  const name = `${hydro}${species} ${tail}`;
  const pos = form === 'Water' || form === 'Juice' ? 0.1 : form === 'Oil' || form === 'Butter' ? 0.3 : 0.6;
  const functions =
    form === 'Oil' || form === 'Butter'
      ? ['emollient', 'skin conditioning']
      : form === 'Water'
        ? ['skin conditioning', 'solvent']
        : ['skin conditioning', 'antioxidant', 'soothing', 'astringent', 'tonic'];
  const out: Invented = { name, pos, functions };
  if (common) {
    out.other = `${hydro}${common} ${tail}`;
    if (!hydro) out.variant = `${species} (${common}) ${tail}`;
  }
  if (!hydro && form === 'Extract')
    out.phEur = `${species.split(' ')[0]}ae ${species.split(' ')[1].toLowerCase()} ${partLatin} extractum`;
  return out;
}

// [INCI alcohol part, IUPAC prefix or '']
const ESTER_ALCOHOLS: Array<[string, string]> = [
  ['Cetyl', 'hexadecyl'],
  ['Stearyl', 'octadecyl'],
  ['Cetearyl', ''],
  ['Isopropyl', 'propan-2-yl'],
  ['Ethylhexyl', '2-ethylhexyl'],
  ['Octyldodecyl', '2-octyldodecyl'],
  ['Isostearyl', ''],
  ['Myristyl', 'tetradecyl'],
  ['Lauryl', 'dodecyl'],
  ['Decyl', 'decyl'],
  ['Isodecyl', ''],
  ['Isocetyl', ''],
  ['Behenyl', 'docosyl'],
  ['Oleyl', ''],
  ['Butyl', 'butyl'],
  ['Hexyl', 'hexyl'],
  ['Tridecyl', 'tridecyl'],
  ['C12-15 Alkyl', ''],
  ['Diisopropyl', ''],
  ['Neopentyl Glycol', ''],
  ['Propylene Glycol', ''],
  ['Glyceryl', ''],
  ['Sorbitan', ''],
  ['Polyglyceryl-2', ''],
  ['Polyglyceryl-3', ''],
  ['Polyglyceryl-4', ''],
  ['Polyglyceryl-6', ''],
  ['Polyglyceryl-10', ''],
  ['Pentaerythrityl', ''],
  ['Methyl', 'methyl'],
  ['Ethyl', 'ethyl'],
  ['Caprylyl', 'octyl'],
  ['Isoamyl', '3-methylbutyl'],
  ['Coco', ''],
  ['Arachidyl', 'icosyl'],
  ['Hydroxystearyl', ''],
  ['Dicaprylyl', ''],
  ['Isononyl', ''],
  ['Methylheptyl', ''],
  ['Heptyl', 'heptyl'],
  ['Undecyl', 'undecyl'],
  ['Ethylhexyl Methoxy', ''],
];
const ESTER_ACIDS: Array<[string, string]> = [
  ['Palmitate', 'hexadecanoate'],
  ['Stearate', 'octadecanoate'],
  ['Myristate', 'tetradecanoate'],
  ['Laurate', 'dodecanoate'],
  ['Oleate', '(Z)-octadec-9-enoate'],
  ['Isostearate', ''],
  ['Caprylate', 'octanoate'],
  ['Caprate', 'decanoate'],
  ['Cocoate', ''],
  ['Behenate', 'docosanoate'],
  ['Benzoate', 'benzoate'],
  ['Lactate', '2-hydroxypropanoate'],
  ['Citrate', ''],
  ['Succinate', ''],
  ['Sebacate', ''],
  ['Adipate', ''],
  ['Ricinoleate', ''],
  ['Linoleate', ''],
  ['Erucate', ''],
  ['Ethylhexanoate', '2-ethylhexanoate'],
  ['Isononanoate', ''],
  ['Neopentanoate', ''],
  ['Heptanoate', 'heptanoate'],
  ['Undecylenate', ''],
  ['Dilinoleate', ''],
  ['Distearate', ''],
  ['Dicaprylate/Dicaprate', ''],
  ['Olivate', ''],
  ['Sunflowerseedate', ''],
  ['Salicylate', '2-hydroxybenzoate'],
  ['Acetate', 'acetate'],
  ['Malate', ''],
  ['Hydroxystearate', ''],
  ['Tetraisostearate', ''],
  ['Triisostearate', ''],
  ['Caprylate/Caprate', ''],
  ['Diisostearate', ''],
];

function ester(rng: Rng): Invented {
  const [alc, alcI] = rng.pick(ESTER_ALCOHOLS);
  const [acid, acidI] = rng.pick(ESTER_ACIDS);
  const out: Invented = {
    name: `${alc} ${acid}`,
    pos: 0.3,
    functions: ['emollient', 'skin conditioning', 'emulsifying', 'binding'],
  };
  if (alcI && acidI) out.iupac = `${alcI} ${acidI}`;
  return out;
}

const PEG_N = [2, 4, 6, 7, 8, 10, 12, 15, 16, 20, 25, 30, 32, 35, 40, 45, 50, 60, 75, 80, 90, 100, 120, 150, 180, 200];
const PEG_BASES = [
  'Hydrogenated Castor Oil',
  'Stearate',
  'Glyceryl Cocoate',
  'Glyceryl Stearate',
  'Sorbitan Isostearate',
  'Castor Oil',
  'Lanolin',
  'Almond Glycerides',
  'Distearate',
  'Dioleate',
  'Laurate',
  'Methyl Glucose Dioleate',
  'Hydrogenated Lanolin',
  'Caprylic/Capric Glycerides',
  'Soy Sterol',
  'Beeswax',
  'Oleate',
  'Cocamide',
  'Isostearate',
  'Glyceryl Isostearate',
  'Palm Kernel Glycerides',
  'Shea Butter Glycerides',
  'Olive Glycerides',
  'Sorbitan Laurate',
  'Glyceryl Oleate',
  'Methyl Glucose Sesquistearate',
  'Glyceryl Laurate',
  'Sorbitan Tetraoleate',
  'Dilaurate',
  'Hydrogenated Tallowamine',
];
const ETHERS = [
  'Ceteareth',
  'Steareth',
  'Laureth',
  'Oleth',
  'Ceteth',
  'Beheneth',
  'Isoceteth',
  'Trideceth',
  'Pareth',
  'Coceth',
  'Deceth',
  'Isosteareth',
];

function peg(rng: Rng): Invented {
  const f = ['emulsifying', 'surfactant', 'cleansing', 'solubilizing'];
  const r = rng.next();
  if (r < 0.55) return { name: `PEG-${rng.pick(PEG_N)} ${rng.pick(PEG_BASES)}`, pos: 0.55, functions: f };
  if (r < 0.8) return { name: `${rng.pick(ETHERS)}-${rng.pick(PEG_N)}`, pos: 0.45, functions: f };
  if (r < 0.9)
    return {
      name: `PPG-${rng.pick(PEG_N)} ${rng.pick(['Methyl Glucose Ether', 'Butyl Ether', 'Myristyl Ether', 'Stearyl Ether', 'Cetyl Ether', 'Glyceryl Ether'])}`,
      pos: 0.5,
      functions: f,
    };
  if (r < 0.95)
    return {
      name: `PEG/PPG-${rng.pick(PEG_N)}/${rng.pick(PEG_N)} ${rng.pick(['Copolymer', 'Butyl Ether', 'Glyceryl Ether'])}`,
      pos: 0.55,
      functions: f,
    };
  return { name: `Poloxamer ${rng.range(101, 407)}`, pos: 0.6, functions: f };
}

const CATIONS = [
  'Sodium',
  'Disodium',
  'Potassium',
  'TEA',
  'Ammonium',
  'Magnesium',
  'Zinc',
  'Calcium',
  'Dipotassium',
  'Trisodium',
  'Arginine',
  'MEA',
];
const ACYLS = [
  'Lauroyl',
  'Cocoyl',
  'Myristoyl',
  'Palmitoyl',
  'Stearoyl',
  'Oleoyl',
  'Caproyl',
  'Capryloyl',
  'Behenoyl',
  'Undecylenoyl',
  'Isostearoyl',
];
const AMINO = [
  'Glutamate',
  'Glycinate',
  'Sarcosinate',
  'Taurate',
  'Methyl Taurate',
  'Alaninate',
  'Aspartate',
  'Isethionate',
  'Lactylate',
  'Apple Amino Acids',
  'Oat Amino Acids',
  'Hydrolyzed Collagen',
  'Hydrolyzed Wheat Protein',
  'Methyl Isethionate',
  'Threoninate',
];
const ANIONS = [
  'Chloride',
  'Citrate',
  'Lactate',
  'Gluconate',
  'PCA',
  'Phosphate',
  'Ascorbyl Phosphate',
  'Hyaluronate',
  'Carbonate',
  'Bicarbonate',
  'Silicate',
  'Salicylate',
  'Sulfite',
  'Acetate',
  'Stearate',
  'Polyacrylate',
  'Phytate',
  'Succinate',
  'Malate',
  'Glycerophosphate',
  'Aspartate',
  'Ascorbate',
  'Metabisulfite',
  'Hydroxide',
  'Laurate',
];

function salt(rng: Rng): Invented {
  if (rng.chance(0.6)) {
    return {
      name: `${rng.pick(CATIONS)} ${rng.pick(ACYLS)} ${rng.pick(AMINO)}`,
      pos: 0.2,
      functions: ['cleansing', 'surfactant', 'foaming', 'hair conditioning'],
    };
  }
  return {
    name: `${rng.pick(CATIONS)} ${rng.pick(ANIONS)}`,
    pos: 0.6,
    functions: ['buffering', 'humectant', 'viscosity controlling', 'chelating'],
  };
}

const PEPTIDE_ACYL = ['Palmitoyl ', 'Acetyl ', 'Myristoyl ', '', '', 'Hexanoyl ', 'Nicotinoyl '];
const PEPTIDE_LEN = [
  'Dipeptide',
  'Tripeptide',
  'Tetrapeptide',
  'Pentapeptide',
  'Hexapeptide',
  'Heptapeptide',
  'Octapeptide',
  'Nonapeptide',
  'Decapeptide',
  'Oligopeptide',
  'Polypeptide',
];

function peptide(rng: Rng): Invented {
  const name = rng.chance(0.15)
    ? `sh-${rng.pick(['Oligopeptide', 'Polypeptide'])}-${rng.range(1, 120)}`
    : `${rng.pick(PEPTIDE_ACYL)}${rng.pick(PEPTIDE_LEN)}-${rng.range(1, 80)}`;
  return { name, pos: 0.68, functions: ['skin conditioning', 'antioxidant'] };
}

const MONOMERS = [
  'Acrylates',
  'VP',
  'VA',
  'Styrene',
  'Ammonium Acryloyldimethyltaurate',
  'Sodium Acrylate',
  'Sodium Acryloyldimethyl Taurate',
  'Hydroxyethyl Acrylate',
  'Vinyl Neodecanoate',
  'Methacrylate',
  'Butyl Acrylate',
  'Steareth-20 Methacrylate',
  'C10-30 Alkyl Acrylate',
  'Beheneth-25 Methacrylate',
  'Dimethylacrylamide',
  'Eicosene',
  'Hexadecene',
  'Ethylene',
  'Crotonates',
  'Octylacrylamide',
  'Lauryl Methacrylate',
  'Glycol Dimethacrylate',
  'Isobutylene',
  'Maleic Anhydride',
];

function polymer(rng: Rng): Invented {
  const f = ['film forming', 'viscosity controlling', 'emulsion stabilising', 'binding'];
  const r = rng.next();
  if (r < 0.25)
    return {
      name: `Polyquaternium-${rng.range(1, 90)}`,
      pos: 0.55,
      functions: ['antistatic', 'film forming', 'hair conditioning'],
    };
  const a = rng.pick(MONOMERS);
  let b = rng.pick(MONOMERS);
  if (b === a) b = 'VA';
  if (r < 0.85) return { name: `${a}/${b} ${rng.pick(['Copolymer', 'Crosspolymer'])}`, pos: 0.55, functions: f };
  return {
    name: `${rng.pick(['Hydroxypropyl', 'Hydroxyethyl', 'Ethyl', 'Methyl', 'Carboxymethyl', 'Cetyl Hydroxyethyl'])} ${rng.pick(['Cellulose', 'Starch Phosphate', 'Guar', 'Chitosan', 'Methylcellulose'])}`,
    pos: 0.55,
    functions: f,
  };
}

const COLORS = ['Red', 'Yellow', 'Blue', 'Green', 'Orange', 'Violet'];

function colorant(rng: Rng): Invented {
  if (rng.chance(0.8)) return { name: `CI ${rng.range(10000, 77999)}`, pos: 0.97, functions: ['colorant'] };
  return {
    name: `${rng.pick(COLORS)} ${rng.range(1, 40)}${rng.chance(0.5) ? ' Lake' : ''}`,
    pos: 0.97,
    functions: ['colorant'],
  };
}

const MICROBES = [
  'Lactobacillus',
  'Saccharomyces',
  'Bifida',
  'Bacillus',
  'Leuconostoc',
  'Streptococcus Thermophilus',
  'Galactomyces',
  'Aspergillus',
  'Pseudoalteromonas',
  'Lactococcus',
  'Rhizobian',
  'Lactobacillus Acidophilus',
];

function ferment(rng: Rng): Invented {
  const m = rng.pick(MICROBES);
  const name = rng.chance(0.4)
    ? `${m} Ferment${rng.chance(0.5) ? ' Lysate' : ''}`
    : `${m}/${rng.pick(PLANTS)[0]} ${rng.pick(['Leaf', 'Root', 'Seed', 'Fruit', 'Flower'])} Ferment ${rng.pick(['Filtrate', 'Extract'])}`;
  return { name, pos: name.endsWith('Filtrate') ? 0.15 : 0.55, functions: ['skin conditioning', 'humectant'] };
}

const PROTEINS = [
  'Wheat Protein',
  'Collagen',
  'Silk',
  'Keratin',
  'Rice Protein',
  'Soy Protein',
  'Hyaluronic Acid',
  'Sodium Hyaluronate',
  'Oat Protein',
  'Quinoa',
  'Pea Protein',
  'Elastin',
  'Milk Protein',
  'Corn Protein',
  'Algae Extract',
  'Jojoba Esters',
  'Yeast Protein',
  'Vegetable Protein',
  'Lupine Protein',
  'Sweet Almond Protein',
  'Conchiolin Powder',
];

function hydrolyzed(rng: Rng): Invented {
  const pre = rng.pick([
    'Hydrolyzed ',
    'Hydrolyzed ',
    'Hydroxypropyltrimonium Hydrolyzed ',
    'Cocodimonium Hydroxypropyl Hydrolyzed ',
    'Potassium Cocoyl Hydrolyzed ',
    'Laurdimonium Hydroxypropyl Hydrolyzed ',
  ]);
  return {
    name: `${pre}${rng.pick(PROTEINS)}`,
    pos: 0.6,
    functions: ['hair conditioning', 'skin conditioning', 'film forming'],
  };
}

const FATTY = [
  'Lauryl',
  'Cetyl',
  'Stearyl',
  'Behenyl',
  'Coco',
  'Myristyl',
  'Oleyl',
  'Tallow',
  'Soy',
  'Babassu',
  'Palm Kernel',
  'Isostearyl',
  'Linoleyl',
];
const FATTY_AMIDO = [
  'Lauramido',
  'Cocamido',
  'Stearamido',
  'Behenamido',
  'Oleamido',
  'Myristamido',
  'Babassuamido',
  'Soyamido',
  'Isostearamido',
  'Ricinoleamido',
  'Wheat Germamido',
  'Capramido',
];

const TREATMENTS: Array<[string, string[]]> = [
  ['Hydrogenated', ['Oil', 'Butter', 'Glycerides']],
  ['Hydrolyzed', ['Starch', 'Protein', 'Extract']],
  ['Sulfated', ['Oil']],
  ['Ethoxylated', ['Glycerides', 'Oil']],
  ['Acetylated', ['Glycerides']],
  ['Maleated', ['Oil']],
];

function misc(rng: Rng): Invented {
  const r = rng.next();
  if (r < 0.25) {
    const stem = rng.pick([
      'Behen',
      'Cet',
      'Stear',
      'Laur',
      'Myris',
      'Coco',
      'Soy',
      'Dicet',
      'Distear',
      'Cinnamidopropyl',
      'Palm',
    ]);
    return {
      name: `${stem}trimonium ${rng.pick(['Chloride', 'Methosulfate', 'Bromide'])}`,
      pos: 0.35,
      functions: ['antistatic', 'hair conditioning', 'emulsifying'],
    };
  }
  if (r < 0.45)
    return {
      name: `${rng.pick(FATTY_AMIDO)}propyl ${rng.pick(['Betaine', 'Dimethylamine', 'Hydroxysultaine', 'PG-Dimonium Chloride', 'Dimethylamine Oxide', 'Ethyldimonium Ethosulfate'])}`,
      pos: 0.3,
      functions: ['antistatic', 'cleansing', 'hair conditioning', 'foam boosting'],
    };
  if (r < 0.6)
    return {
      name: `${rng.pick(['Cocamide', 'Lauramide', 'Stearamide', 'Linoleamide', 'Oleamide', 'Myristamide', 'Babassuamide', 'Isostearamide'])} ${rng.pick(['MEA', 'DEA', 'MIPA', 'DIPA'])}`,
      pos: 0.35,
      functions: ['foam boosting', 'viscosity controlling', 'emulsifying'],
    };
  if (r < 0.72)
    return {
      name: `${rng.pick(FATTY)}${rng.pick(['amine Oxide', ' Glucoside', ' Betaine', ' Lactate', ' Hydroxyethylcellulose', ' Alcohol Ethoxylate'])}`,
      pos: 0.3,
      functions: ['cleansing', 'surfactant', 'emulsifying'],
    };
  if (r < 0.86) {
    const v = rng.pick([
      'Ascorbyl',
      'Retinyl',
      'Tocopheryl',
      'Pyridoxine',
      'Thiamine',
      'Riboflavin',
      'Menadione',
      'Biotinoyl',
      'Cholecalciferol',
      'Phytonadione',
      'Dipalmitoyl Hydroxyproline',
      'Glucosyl Hesperidin',
    ]);
    return {
      name: `${v} ${rng.pick(['Glucoside', 'Palmitate', 'Acetate', 'Linoleate', 'Phosphate', 'Succinate', 'Nicotinate', 'Tetraisopalmitate', 'HCl', 'Dipalmitate'])}`,
      pos: 0.65,
      functions: ['antioxidant', 'skin conditioning'],
    };
  }
  const [treatment, forms] = rng.pick(TREATMENTS);
  return {
    name: `${treatment} ${rng.pick(PLANTS)[1] || 'Vegetable'} ${rng.pick(forms)}`,
    pos: 0.35,
    functions: ['emollient', 'skin conditioning', 'viscosity controlling'],
  };
}

// [family, share of invented names, rarity: functional chemicals are common, botanicals and actives rarer]
const FAMILY_TABLE: Array<[(rng: Rng) => Invented, number, number]> = [
  [plant, 35, 4],
  [ester, 12, 1],
  [peg, 10, 1],
  [salt, 8, 1.5],
  [polymer, 8, 1],
  [misc, 8, 1.5],
  [peptide, 5, 3],
  [colorant, 5, 4],
  [ferment, 4, 3],
  [hydrolyzed, 3, 2],
];
const FAMILIES = new Choice(FAMILY_TABLE.map((f) => [f, f[1]] as const));

/** An invented untagged ingredient name from a random family. */
export function inventUntagged(rng: Rng): Invented {
  const [make, , rarity] = FAMILIES.draw(rng);
  return { ...make(rng), rarity };
}

const ESSENTIAL_PARTS = [
  'Flower',
  'Leaf',
  'Peel',
  'Bark',
  'Seed',
  'Root',
  'Wood',
  'Herb',
  'Fruit',
  'Leaf/Stem',
  'Twig',
];
const SULFATE_CATIONS = ['Sodium', 'Ammonium', 'Magnesium', 'TEA', 'MEA', 'DEA', 'Potassium', 'Zinc', 'MIPA'];
const SULFATE_CHAINS = [
  'Laur',
  'Myr',
  'Cet',
  'Ste',
  'Tridec',
  'Cocoa',
  'Dec',
  'Oct',
  'Cetear',
  'Ole',
  'Pare',
  'C12-13 Par',
  'C12-14 Par',
  'Isostear',
];
const PARABEN_SALTS = ['', 'Sodium ', 'Potassium ', 'Calcium '];
const PARABEN_ALKYLS = [
  'Methyl',
  'Ethyl',
  'Propyl',
  'Butyl',
  'Isobutyl',
  'Isopropyl',
  'Benzyl',
  'Pentyl',
  'Phenyl',
  'Hexyl',
  'Heptyl',
];
const SILICONE_ALKYLS = [
  'Cetyl',
  'Stearyl',
  'Lauryl',
  'Behenoxy',
  'Caprylyl',
  'Stearoxy',
  'Hexyl',
  'Myristyl',
  'Alkyl',
  'C26-28 Alkyl',
  'C30-45 Alkyl',
  'Phenyl',
  'Diphenyl',
  'Trifluoropropyl',
  'Bis-Vinyl',
];

/** An invented ingredient that carries the given free-from tag. */
export function inventTagged(rng: Rng, category: IngredientCategory): Invented {
  switch (category) {
    case 'fragrance': {
      const [species, common] = rng.pick(PLANTS);
      const part = rng.pick(ESSENTIAL_PARTS);
      const abs = rng.chance(0.15);
      return {
        name: `${species} ${part} ${abs ? 'Absolute' : 'Oil'}`,
        pos: 0.88,
        functions: ['perfuming', 'masking'],
        other: common ? `${common} ${abs ? 'Absolute' : 'Essential Oil'}` : undefined,
      };
    }
    case 'silicones': {
      const r = rng.next();
      const name =
        r < 0.3
          ? `PEG-${rng.pick(PEG_N)} Dimethicone`
          : r < 0.5
            ? `PEG/PPG-${rng.pick(PEG_N)}/${rng.pick(PEG_N)} Dimethicone`
            : r < 0.75
              ? `${rng.pick(SILICONE_ALKYLS)} ${rng.pick(['Dimethicone', 'Methicone', 'Trimethicone', 'Dimethicone Crosspolymer'])}`
              : r < 0.9
                ? `Bis-${rng.pick(['PEG', 'PPG', 'Hydroxyethoxypropyl', 'Aminopropyl', 'Stearyl'])}-${rng.pick(PEG_N)} Dimethicone`
                : `Polysilicone-${rng.range(1, 40)}`;
      return { name, pos: 0.4, functions: ['emollient', 'skin conditioning', 'antifoaming', 'hair conditioning'] };
    }
    case 'sulfates': {
      const chain = rng.pick(SULFATE_CHAINS);
      const eth = rng.chance(0.6) ? `eth-${rng.range(1, 12)}` : chain.endsWith('Par') ? 'eth' : 'yl';
      return {
        name: `${rng.pick(SULFATE_CATIONS)} ${chain}${eth} Sulfate`,
        pos: 0.12,
        functions: ['cleansing', 'surfactant', 'foaming'],
      };
    }
    case 'parabens':
      return {
        name: `${rng.pick(PARABEN_SALTS)}${rng.pick(PARABEN_ALKYLS)}paraben`,
        pos: 0.86,
        functions: ['preservative'],
      };
    case 'drying_alcohol':
      return {
        name: `SD Alcohol ${rng.pick([1, 3, 23, 27, 30, 38, 39, 40])}${rng.pick(['', '-A', '-B', '-C', '-D', '-F'])}`,
        pos: 0.28,
        functions: ['solvent', 'antimicrobial'],
      };
  }
}
