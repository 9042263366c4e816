// The controlled, lower-case vocabulary of ingredient functions, mapped from the
// CosIng function names. Guarantees: every output term is in VOCABULARY; a
// function list has no duplicates and keeps CosIng's order; "NOT REPORTED" and
// unknown names map to nothing.

/** CosIng function name → vocabulary term (documented in docs/sample-data.md). */
export const COSING_FUNCTIONS: Readonly<Record<string, string>> = {
  ABRASIVE: 'abrasive',
  ABSORBENT: 'absorbent',
  ADHESIVE: 'adhesive',
  'ANTI-SEBORRHEIC': 'anti-seborrheic',
  'ANTI-SEBUM': 'anti-sebum',
  ANTICAKING: 'anticaking',
  ANTICORROSIVE: 'anticorrosive',
  ANTIFOAMING: 'antifoaming',
  ANTIMICROBIAL: 'antimicrobial',
  ANTIOXIDANT: 'antioxidant',
  ANTIPERSPIRANT: 'antiperspirant',
  ANTIPLAQUE: 'oral care',
  ANTISTATIC: 'antistatic',
  ASTRINGENT: 'astringent',
  BINDING: 'binding',
  BLEACHING: 'bleaching',
  BUFFERING: 'buffering',
  BULKING: 'bulking',
  CHELATING: 'chelating',
  CLEANSING: 'cleansing',
  COLORANT: 'colorant',
  DENATURANT: 'denaturant',
  DEODORANT: 'deodorant',
  DEPILATORY: 'depilatory',
  DETANGLING: 'detangling',
  'DISPERSING NON-SURFACTANT': 'dispersing',
  'EMULSION STABILISING': 'emulsion stabilising',
  EPILATING: 'depilatory',
  EXFOLIATING: 'exfoliating',
  'EYELASH CONDITIONING': 'eyelash conditioning',
  'FILM FORMING': 'film forming',
  FLAVOURING: 'flavouring',
  FOAMING: 'foaming',
  FRAGRANCE: 'fragrance',
  'GEL FORMING': 'gel forming',
  'HAIR CONDITIONING': 'hair conditioning',
  'HAIR DYEING': 'hair dyeing',
  'HAIR FIXING': 'hair fixing',
  'HAIR WAVING OR STRAIGHTENING': 'hair waving or straightening',
  HUMECTANT: 'humectant',
  KERATOLYTIC: 'keratolytic',
  'LIGHT STABILIZER': 'light stabilizer',
  LYTIC: 'lytic',
  MOISTURISING: 'moisturising',
  'NAIL CONDITIONING': 'nail conditioning',
  'NAIL SCULPTING': 'nail sculpting',
  OPACIFYING: 'opacifying',
  'ORAL CARE': 'oral care',
  OXIDISING: 'oxidising',
  PEARLESCENT: 'pearlescent',
  PERFUMING: 'fragrance',
  'PH ADJUSTERS': 'ph adjusting',
  PLASTICISER: 'plasticiser',
  PRESERVATIVE: 'preservative',
  PROPELLANT: 'propellant',
  REDUCING: 'reducing',
  REFATTING: 'refatting',
  REFRESHING: 'refreshing',
  'SKIN CONDITIONING': 'skin conditioning',
  'SKIN CONDITIONING - EMOLLIENT': 'emollient',
  'SKIN CONDITIONING - HUMECTANT': 'humectant',
  'SKIN CONDITIONING - MISCELLANEOUS': 'skin conditioning',
  'SKIN CONDITIONING - OCCLUSIVE': 'occlusive',
  'SKIN PROTECTING': 'skin protecting',
  'SLIP MODIFIER': 'slip modifier',
  SMOOTHING: 'smoothing',
  SOLVENT: 'solvent',
  SOOTHING: 'soothing',
  'SURFACE MODIFIER': 'surface modifier',
  'SURFACTANT - CLEANSING': 'cleansing surfactant',
  'SURFACTANT - DISPERSING': 'dispersing',
  'SURFACTANT - EMULSIFYING': 'emulsifying',
  'SURFACTANT - FOAM BOOSTING': 'foam boosting',
  'SURFACTANT - HYDROTROPE': 'hydrotrope',
  'SURFACTANT - SOLUBILIZING': 'solubilizing',
  TANNING: 'tanning',
  TONIC: 'tonic',
  'UV ABSORBER': 'uv absorber',
  'UV FILTER': 'uv filter',
  'VISCOSITY CONTROLLING': 'viscosity controlling',
};

export const VOCABULARY: readonly string[] = [...new Set(Object.values(COSING_FUNCTIONS))].sort();

/** Map CosIng function names to vocabulary terms, without duplicates, in source order. */
export function mapFunctions(cosing: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of cosing) {
    const term = COSING_FUNCTIONS[f.trim().toUpperCase().replace(/\s+/g, ' ')];
    if (term !== undefined && !out.includes(term)) out.push(term);
  }
  return out;
}
