// Brand → headquarters country (best effort, from public company information;
// see docs/sample-data.md) and display spellings for brands that a source prints
// only in capitals. Guarantees: lookups ignore case, accents, punctuation and
// spaces (brandKey); an unknown brand gives null, never a guess.
import { brandKey } from '../shared/text';

const COUNTRY: Record<string, string[]> = {
  'United States': [
    'Algenist', 'Anastasia Beverly Hills', 'Anthony', 'bareMinerals', 'BeautyBio', 'BECCA', 'Biossance', 'Bobbi Brown', 'boscia', 'Briogeo',
    'CLINIQUE', 'COOLA', 'COVER FX', 'Cinema Secrets', 'Clarisonic', 'Clarisonic Skincare', 'DERMAFLASH', 'DERMAdoctor', 'Dermalogica',
    'Dr. Brandt Skincare', 'Dr. Dennis Gross Skincare', 'Drunk Elephant', 'Estée Lauder', 'Farmacy', 'Fenty Beauty by Rihanna', 'First Aid Beauty',
    'Fresh', 'GLAMGLOW', 'Glow Recipe', 'goop', 'HUM Nutrition', 'Herbivore', 'ILIA', 'Indie Lee', 'IT Cosmetics', 'Jack Black', 'Josie Maran',
    'Kaplan MD', 'Kat Von D', 'Kate Somerville', "Kiehl's Since 1851", 'Kopari', 'La Mer', 'Lancer', 'LANCER Skincare', 'Lab Series For Men',
    'Laura Mercier', 'LightStim', 'Lord Jones', 'Makeup Eraser', 'Marc Jacobs Beauty', 'Mario Badescu', 'MDSolarSciences', 'MILK MAKEUP', 'Moon Juice',
    'Murad', 'NARS', 'NuFACE', 'Nurse Jamie', 'OLEHENRIKSEN', 'Origins', 'OUAI', 'Obagi Clinical', 'Peace Out', 'Perricone MD', 'Peter Thomas Roth',
    'philosophy', 'PMD', 'Proactiv', 'rms beauty', 'Saint Jane Beauty', 'Sephora Collection', 'Sephora Favorites', 'Skin Laundry', 'Smashbox',
    'SUNDAY RILEY', 'Summer Fridays', 'Supergoop!', 'Tata Harper', 'Tatcha', 'tarte', 'TOM FORD', 'Too Faced', 'Tower 28 Beauty', 'Urban Decay',
    'Volition Beauty', 'Wander Beauty', 'Youth To The People', 'Cane + Austin', 'Erno Laszlo', 'KNC Beauty', 'Sol de Janeiro', 'Jouer Cosmetics',
    'Flora + Bast', 'LXMI', 'SOBEL SKIN Rx', 'StackedSkincare', 'Taste Beauty', 'lilah b.',
    'As I Am', 'Bio Ionic', 'Bounce Curl', 'Curl Keeper', 'Eva NYC', 'Giovanni', 'Herbal Essences', 'Innersense', 'Jessicurl', 'Kinky Curly',
    'Kristin Ess', "L'Anza", 'Malibu C', 'Marc Anthony', 'Maui Moisture', 'Not Your Mothers', 'Not Your Mothers Curl Talk',
    'Not Your Mothers Naturals', 'Curl Talk', 'Ouidad', 'Pacifica', 'Palmers', 'Pattern Beauty', 'Rahua', 'Rizos Curls', 'Suave', 'The Doux',
    'Ecoslay', 'Color Wow', 'Olaplex', "Uncle Funky's Daughter", 'Xmondo', 'Zotos', "Zoto's All About Curls", 'All About Curls', 'Hask', 'Inahsi',
  ],
  'France': [
    'Caudalie', 'Clarins', 'Dior', 'Erborian', 'Guerlain', 'KENZOKI', 'Lancôme', "L'Occitane", 'MAKE UP FOR EVER', 'Yves Saint Laurent', 'Klorane',
    'Black Up', 'Evian',
  ],
  'United Kingdom': [
    'Charlotte Tilbury', 'Ciaté London', 'Eve Lom', 'REN Clean Skincare', 'St. Tropez', 'St. Tropez Tanning Essentials', 'Vita Liberata', 'TAN-LUXE',
    'Isle of Paradise', 'Umberto Giannini', 'Fable & Mane', 'Curlsmith',
  ],
  'South Korea': [
    'AMOREPACIFIC', 'belif', 'Dr. Jart+', 'innisfree', "It's Skin", 'LANEIGE', 'Sulwhasoo', 'Neogen Dermalogy', 'Too Cool For School', 'Son & Park',
    'Blithe', 'J.ONE', 'Primera',
  ],
  'Japan': ['SHISEIDO', 'SK-II', 'Koh Gen Do', 'NatureLab Tokyo'],
  'Australia': ['KORA Organics', 'Alpha-H', 'Go-To', 'Sand & Sky', 'Edible Beauty'],
  'Canada': ['Cake Beauty', 'Vitruvi', 'lululemon selfcare'],
  'Germany': ['Dr. Barbara Sturm'],
  'Greece': ['KORRES', 'Apivita'],
  'Sweden': ['FOREO'],
  'Iceland': ['BIOEFFECT'],
  'Hungary': ['Omorovicza'],
  'Italy': ['Milk_Shake'],
  'New Zealand': ['Ethique'],
  'Singapore': ['Skin Inc Supplement Bar'],
  'United Arab Emirates': ['Wishful'],
};

const BY_KEY = new Map<string, string>();
for (const [country, brands] of Object.entries(COUNTRY)) for (const b of brands) BY_KEY.set(brandKey(b), country);

/** Headquarters country of a brand, or null when the table does not know it. */
export function originOf(brand: string | null): string | null {
  return brand === null ? null : BY_KEY.get(brandKey(brand)) ?? null;
}

/** Display spellings for brands printed only in capitals by the cosmetics.csv set. */
const DISPLAY: Record<string, string> = Object.fromEntries([
  'Apivita', 'bareMinerals', 'BIOEFFECT', 'Black Up', 'Blithe', 'Cane + Austin', 'Clarisonic', 'Fenty Beauty by Rihanna', 'ILIA', 'J.ONE',
  'Kaplan MD', 'Kat Von D', 'Klorane', 'Lancer', 'MAKE UP FOR EVER', 'Makeup Eraser', 'NARS', 'Private Doctor', 'Sand & Sky', 'Smashbox',
  'Son & Park', 'St. Tropez Tanning Essentials', 'Too Cool For School', 'Vita Liberata',
].map((b) => [brandKey(b), b]));

export function displayBrand(brand: string): string | undefined {
  return DISPLAY[brandKey(brand)];
}
