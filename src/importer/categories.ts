// Category words to the API's seven categories (docs/import.md has the table).
// Guarantees: deterministic; a text that is one of the seven is kept; otherwise the
// first rule whose word appears in the category text wins, rules in table order
// (suncare before skincare, so "en:sunscreens" is suncare); a category that matches no
// rule (a toothpaste) is `other`; null only when the row gives no category.
import { PRODUCT_CATEGORIES as CATEGORIES, type ProductCategory } from '../source/records';

const RULES: [RegExp, ProductCategory][] = [
  [/\b(sun|spf|solaire|sunscreens?|after-?sun|self-?tann)/i, 'suncare'],
  [/\b(perfumes?|parfums?|fragrances?|eau-de|eaux-de|colognes?)\b/i, 'fragrance'],
  [
    /\b(make-?up|maquillage|lipsticks?|lip-?gloss|mascaras?|foundations?|eyeshadows?|eye-?liners?|blush|nail-?polish|concealers?|powders?)\b/i,
    'makeup',
  ],
  [/\b(hair|shampoos?|conditioners?|capillaires?|cheveux)\b/i, 'haircare'],
  [/\b(shower|bath|body|soaps?|deodorants?|hand-?creams?|douche|savons?)\b/i, 'body/bath'],
  [
    /\b(skin|face|facial|creams?|moisturi[sz]ers?|serums?|cleansers?|masks?|toners?|eye-?creams?|visage|soins?)\b/i,
    'skincare',
  ],
];

export function categoryOf(text: string | null): ProductCategory | null {
  if (text === null) return null;
  const t = text.toLowerCase().trim();
  const named = CATEGORIES.find((c) => c === t);
  if (named !== undefined) return named;
  for (const [re, category] of RULES) if (re.test(t)) return category;
  return 'other';
}
