// The sample-catalogue pipeline: raw public data in, catalogue source records and
// a data report out. Guarantees: a pure function of the raw files (no clock, no
// randomness, no directory-order dependence); every label entry of a product's list is
// kept in label order and joined to a CosIng-derived ingredient or to a label-only
// ingredient; a list printed without separators (an unjoined entry over 150 characters)
// is left out whole and counted in the report. The dictionary is cleaned by the rules
// of dictionary-rules.ts before any product is joined; what they change is reported.
import { brandKey, phraseKey } from '../shared/text';
import { CURATED_ALIASES, compactKey } from '../labels/aliases';
import { colourNames, Dropped, plantNames, sameSubstance, sharedSynonyms, unspecificReason } from './dictionary-rules';
import { annexNames, fragranceAllergens, readAnnexes } from './annexes';
import { sampleBarcodes } from './barcodes';
import { BarcodeAllocator } from '../source/barcodes';
import { labelCase } from './casing';
import { readCosdnaIngredients, readKgImages, readKgProducts } from './cosdna';
import { readCosing } from './cosing';
import { readCurlsIngredients, readCurlsProducts } from './curlsbot';
import { buildIngredient, groupCosing, registryNumbers, SourceIngredient } from './dictionary';
import { readFulton } from './fulton';
import { MAX_TOLERANT_LENGTH, type JoinHow } from '../labels/joiner';
import { Joiner } from './joiner';
import { joinEntries, type JoinedEntry } from '../labels/join-entries';
import {
  emptyCounts,
  joinAsPrinted,
  mendFragments,
  printedRecords,
  type Dictionary as FragmentDictionary,
  type FragmentCounts,
  withoutShadeNames,
} from './fragments';
import { readKaggle } from './kaggle';
import { originOf } from './origins';
import { fromCurls, fromKaggle, fromKg, fromSephoraInfo, ProductRecord } from './products';
import { readSephoraInfo } from './sephora-info';
import { ratingOf } from './ratings';
import { ScoreBook } from './scores';
import { freeFromTag } from './tags';
import { labelOnlyIngredient, uuidV5 } from '../source/ids';
import type { SourceProduct } from '../source/records';

export type { SourceProduct };

export interface SourceStats {
  read: number;
  kept: number;
  duplicates: number;
  withoutList: number;
  entries: number;
  joined: number;
  /** Lists left out: an unjoined entry over 150 characters (names printed without separators). */
  runTogether: number;
}

export interface PipelineResult {
  ingredients: SourceIngredient[];
  products: SourceProduct[];
  stats: {
    cosingRows: number;
    cosingIngredients: number;
    mergedDuplicateNames: string[];
    labelOnlyIngredients: number;
    perSource: Record<string, SourceStats>;
    joinedVia: Record<Exclude<JoinHow, 'none'>, number>;
    unmatched: [string, number][];
    unknownAliasTargets: string[];
    editorialNamesMissing: string[];
    dictionary: {
      dropped: Dropped[];
      merged: [string, string][];
      colours: [string, string][];
      repointed: [string, number][];
      /** Junk records (src/sample/fragments.ts): fragments mended or dropped, entries joined as printed elsewhere. */
      fragments: FragmentCounts;
    };
  };
}

/** Product sources in catalogue order. curlsbot products are included (see docs/sample-data.md). */
export function runPipeline(rawDir: string): PipelineResult {
  const dictionary = buildDictionary(rawDir);
  const { kept, perSource } = readProducts(rawDir);
  const joined = joinProducts(kept, perSource, dictionary);
  return assemble(dictionary, perSource, joined);
}

interface Dictionary {
  cosingRows: number;
  groups: ReturnType<typeof groupCosing>;
  joiner: Joiner;
  ingredientByInci: Map<string, SourceIngredient>;
  editorial: string[];
  cleanUp: DictionaryCleanUp;
}

/** What the dictionary clean-up decided (reported in docs/data-report.md). */
export interface DictionaryCleanUp {
  /** Rule 1: synonyms (compact form) held by two or more records. */
  shared: Set<string>;
  /** Rule 3: CosIng INCI name merged → the INCI name of the record that stays. */
  mergedInto: Map<string, string>;
  /** Rule 3: colour names added as synonyms [name, CI record]. */
  colours: [string, string][];
  /** Rules 1 and 2: synonyms dropped, with the rule. */
  dropped: Dropped[];
}

/** Stage 1: CosIng grouped into ingredients, enriched from CosDNA, curlsbot, Fulton and the annexes. */
function buildDictionary(rawDir: string): Dictionary {
  const cosing = readCosing(rawDir);
  const groups = groupCosing(cosing);
  const joiner = new Joiner([...groups.keys()]);

  // Synonyms: CosDNA (KG) and curlsbot lists, attached to the CosIng name they join.
  const synonyms = new Map<string, string[]>();
  // Rule 2 (src/sample/dictionary-rules.ts): a group, a plant's name or a grade never
  // becomes a record's synonym, so it cannot decide a join either.
  const cosdna = readCosdnaIngredients(rawDir);
  const curlsIngredients = readCurlsIngredients(rawDir);
  const plants = plantNames(groups.keys(), [
    ...cosdna.flatMap((r) => [r.name, ...r.synonyms]),
    ...curlsIngredients.flatMap((r) => [r.name, ...r.synonyms]),
  ]);
  const dropped = new Map<string, Dropped>();
  const addSyn = (inci: string, all: string[]) => {
    const names = all.filter((n) => {
      const reason = unspecificReason(n, inci, plants);
      if (reason && compactKey(n) !== compactKey(inci))
        dropped.set(`${inci}|${compactKey(n)}`, { name: n, inci, reason });
      return reason === null || compactKey(n) === compactKey(inci);
    });
    joiner.addSynonyms(inci, names);
    const list = synonyms.get(inci) ?? [];
    for (const n of names) if (!list.includes(n)) list.push(n);
    synonyms.set(inci, list);
  };
  const scores = new ScoreBook();
  const cosdnaInci = cosdna.map(
    (r) => joiner.match(r.name) ?? r.synonyms.map((s) => joiner.match(s)).find((m) => m !== null) ?? null,
  );
  cosdna.forEach((r, i) => {
    const inci = cosdnaInci[i];
    if (inci) addSyn(inci, [r.name, ...r.synonyms]);
  });
  const curlsClasses = new Map<string, Set<string>>();
  for (const ci of curlsIngredients) {
    const inci = joiner.match(ci.name) ?? ci.synonyms.map((s) => joiner.match(s)).find((m) => m !== null) ?? null;
    if (!inci) continue;
    addSyn(inci, [ci.name, ...ci.synonyms]);
    for (const c of ci.categories) {
      const set = curlsClasses.get(c) ?? new Set<string>();
      set.add(inci);
      curlsClasses.set(c, set);
    }
  }
  cosdna.forEach((r, i) => {
    const inci = cosdnaInci[i];
    if (inci) scores.add(inci, r.irritant, r.acne);
  });
  for (const f of readFulton(rawDir)) {
    const inci = joiner.match(f.name);
    if (inci)
      scores.add(
        inci,
        f.irritancy === null ? null : [f.irritancy],
        f.comedogenicity === null ? null : [f.comedogenicity],
      );
  }

  const cleanUp = cleanDictionary(groups, joiner, synonyms, dropped);

  const annexes = readAnnexes(rawDir);
  const allergens = new Set(fragranceAllergens(annexes));
  const uvFilters = new Set(annexNames(annexes, 'VI'));
  const ingredientByInci = new Map<string, SourceIngredient>();
  for (const [inci, group] of groups) {
    if (cleanUp.mergedInto.has(inci)) continue;
    ingredientByInci.set(
      inci,
      buildIngredient(inci, group, {
        synonyms: (n) =>
          (synonyms.get(n) ?? [])
            .filter((s) => !cleanUp.shared.has(compactKey(s)))
            .filter((s) => (joiner.inciNamed(s) ?? n) === n || cleanUp.mergedInto.get(joiner.inciNamed(s) ?? '') === n)
            .map((s) => (s === s.toLowerCase() ? s.charAt(0).toUpperCase() + s.slice(1) : s)),
        scores: (n) => scores.scores(n),
        rating: (n) => ratingOf(n, { allergens, uvFilters }),
        tag: (n, fns) => freeFromTag(n, fns, { curls: curlsClasses, allergens }),
      }),
    );
  }
  // A CAS number printed in a label decides its join as in the served catalogue: the kept records' numbers.
  for (const [inci, ingredient] of ingredientByInci) joiner.addCasNumbers(inci, ingredient.cas_number);
  return {
    cosingRows: cosing.length,
    groups,
    joiner,
    ingredientByInci,
    editorial: [...allergens, ...uvFilters],
    cleanUp,
  };
}

/**
 * The dictionary clean-up (issue 24), in this order: rule 3 colour index (US colour
 * names derived from a CI record's own synonyms become its synonyms), rule 3 one
 * substance (a record named by another's curated alias or source synonym, sharing a CAS
 * number, merges into it), then rule 1 (a synonym held by two or more records is dropped
 * from all). Rule 2 is applied as synonyms are added. Mutates `synonyms` and the joiner.
 */
function cleanDictionary(
  groups: ReturnType<typeof groupCosing>,
  joiner: Joiner,
  synonyms: Map<string, string[]>,
  dropped: Map<string, Dropped>,
): DictionaryCleanUp {
  const colours: [string, string][] = [];
  for (const [inci, list] of [...synonyms].sort((a, b) => cmp(a[0], b[0]))) {
    const names = colourNames(inci, list).filter((n) => joiner.inciNamed(n) === null);
    if (names.length === 0) continue;
    for (const n of names) colours.push([n, inci]);
    joiner.addSynonyms(inci, names);
    synonyms.set(inci, [...names, ...list.filter((n) => !names.includes(n))]);
  }
  const candidates: [string, string][] = [];
  for (const [k, target] of Object.entries(CURATED_ALIASES))
    if (groups.has(k) && groups.has(target)) candidates.push([target, k]);
  const casOf = (n: string) => (registryNumbers((groups.get(n) ?? []).map((r) => r.cas)) ?? '').split(', ');
  const mergedInto = sameSubstance(candidates, casOf);
  for (const [b, a] of mergedInto) {
    const list = synonyms.get(a) ?? [];
    synonyms.set(a, [labelCase(b), ...list.filter((n) => compactKey(n) !== compactKey(b))]);
  }
  const shared = sharedSynonyms(synonyms);
  for (const [inci, list] of synonyms)
    for (const n of list)
      if (shared.has(compactKey(n)) && joiner.inciNamed(n) === null)
        dropped.set(`${inci}|${compactKey(n)}`, { name: n, inci, reason: 'shared' });
  return {
    shared,
    mergedInto,
    colours,
    dropped: [...dropped.values()].sort(
      (x, y) => cmp(x.reason, y.reason) || cmp(x.inci, y.inci) || cmp(x.name, y.name),
    ),
  };
}

/**
 * Stage 2: products of every source, deduplicated across files by brand + name (first
 * occurrence wins; a duplicate fills in a kept product's missing list, image or category).
 */
function readProducts(rawDir: string): { kept: Map<string, ProductRecord>; perSource: Record<string, SourceStats> } {
  const images = readKgImages(rawDir);
  const kg = readKgProducts(rawDir);
  const kgBrands = new Map<string, string>();
  for (const p of kg)
    if (p.brand.trim() !== '' && !kgBrands.has(brandKey(p.brand))) kgBrands.set(brandKey(p.brand), p.brand.trim());
  const sources: [string, ProductRecord[]][] = [
    ['cosdna-kg', kg.map((p) => fromKg(p, images))],
    ['sephora-kaggle', readKaggle(rawDir).map((p) => fromKaggle(p, kgBrands, brandKey))],
    ['curlsbot', readCurlsProducts(rawDir).map(fromCurls)],
    // Candles and home scents are not cosmetics: their "ingredients" are wax and wick descriptions.
    [
      'sephora-product-info',
      readSephoraInfo(rawDir)
        .filter((p) => p.secondaryCategory !== 'Candles & Home Scents')
        .map((p) => fromSephoraInfo(p, kgBrands, brandKey)),
    ],
  ];
  const perSource: Record<string, SourceStats> = {};
  const kept = new Map<string, ProductRecord>();
  const brandDisplay = new Map<string, string>();
  for (const [src, records] of sources) {
    const st: SourceStats = {
      read: records.length,
      kept: 0,
      duplicates: 0,
      withoutList: 0,
      entries: 0,
      joined: 0,
      runTogether: 0,
    };
    perSource[src] = st;
    for (const r of records) {
      if (r.brand !== null) {
        const bk = brandKey(r.brand);
        if (!brandDisplay.has(bk)) brandDisplay.set(bk, r.brand);
        r.brand = brandDisplay.get(bk) ?? r.brand;
      }
      const key = `${r.brand === null ? '' : brandKey(r.brand)}|${r.name === null ? '' : phraseKey(r.name)}`;
      const prev = kept.get(key);
      if (prev) {
        st.duplicates++;
        if (prev.labels.length === 0 && r.labels.length > 0) prev.labels = r.labels;
        if (prev.imageUrl === null) prev.imageUrl = r.imageUrl;
        if (prev.category === null) prev.category = r.category;
        continue;
      }
      kept.set(key, r);
      st.kept++;
    }
  }
  return { kept, perSource };
}

interface Joined {
  products: SourceProduct[];
  labelOnly: Map<string, { names: Map<string, number>; id: string }>;
  unmatched: Map<string, number>;
  joinedVia: Record<Exclude<JoinHow, 'none'>, number>;
  /** Product entries joined to a merged record's name or by a derived colour name: "label → record" → entries. */
  repointed: Map<string, number>;
  fragments: FragmentCounts;
}

/** Stage 3: every kept product's entries joined, in label order; what joins nothing becomes a label-only ingredient. */
function joinProducts(
  kept: ReadonlyMap<string, ProductRecord>,
  perSource: Record<string, SourceStats>,
  { joiner, ingredientByInci, cleanUp }: Dictionary,
): Joined {
  const colourKeys = new Set(cleanUp.colours.map(([n]) => compactKey(n)));
  const repointed = new Map<string, number>();
  const joinedVia: Record<Exclude<JoinHow, 'none'>, number> = { exact: 0, synonym: 0, alias: 0, tolerant: 0 };
  const labelOnly = new Map<string, { names: Map<string, number>; id: string }>();
  const unmatched = new Map<string, number>();
  const barcodes = new BarcodeAllocator();
  const products: SourceProduct[] = [];
  // Fragments of names mended or dropped (src/sample/fragments.ts), then an entry printed as another that joined
  // one record joins it too: no label-only record is a fragment or a second spelling of a record.
  const fragments = emptyCounts();
  // The words of the dictionary's names, and their endings of five letters or more ("POLYMER" of "COPOLYMER").
  const nameWords = new Set<string>();
  for (const k of joiner.index.exact.keys())
    for (const w of k.split(/[^A-Z0-9]+/)) for (let i = 0; i === 0 || i <= w.length - 5; i++) nameWords.add(w.slice(i));
  const dict: FragmentDictionary = {
    isName: (t) => joiner.inciNamed(t) !== null,
    namesBeginningWith: (w) => joiner.index.namesBeginningWith(w),
    isGenus: (w) => joiner.index.botany().genera.has(w.toUpperCase()),
    holdsWord: (w) => nameWords.has(w.toUpperCase()),
  };
  const lists = new Map<string, JoinedEntry<string>[]>();
  for (const [key, r] of kept) lists.set(key, mendFragments(joinEntries(r.labels, joiner), joiner, dict, fragments));
  const printed = printedRecords(lists.values());
  for (const [key, list] of lists)
    lists.set(
      key,
      list.map((e) => joinAsPrinted(e, printed, fragments)),
    );
  // A makeup list's shade names (fragments.ts): unjoined names printed once in the whole sample.
  const unjoined = new Map<string, number>();
  for (const list of lists.values())
    for (const e of list)
      if (e.join === null) unjoined.set(labelKey(e.label_name), (unjoined.get(labelKey(e.label_name)) ?? 0) + 1);
  const once = (label: string) => unjoined.get(labelKey(label)) === 1;
  for (const [key, r] of kept) {
    const st = perSource[r.source];
    const list = lists.get(key) ?? [];
    const joined = r.category === 'makeup' ? withoutShadeNames(list, once, dict, fragments) : list;
    // An entry over 150 characters that joins to nothing is a list printed without
    // separators: no list is better than a wrong one (counted in the report).
    const runTogether = joined.some((e) => e.join === null && e.label_name.length > MAX_TOLERANT_LENGTH);
    if (runTogether) st.runTogether++;
    if (r.labels.length === 0 || runTogether) st.withoutList++;
    const entries = (runTogether ? [] : joined).map(({ label_name, concentration: stated, join }) => {
      st.entries++;
      const concentration = stated !== null && stated > 0 && stated <= 100 ? stated : null; // the source contract's range
      if (join) {
        st.joined++;
        joinedVia[join.how]++;
        const target = cleanUp.mergedInto.get(join.target) ?? join.target;
        if (target !== join.target || colourKeys.has(compactKey(label_name))) {
          const k = `${label_name} → ${ingredientByInci.get(target)?.name ?? target}`;
          repointed.set(k, (repointed.get(k) ?? 0) + 1);
        }
        return { id: (ingredientByInci.get(target) as SourceIngredient).id, label_name, concentration };
      }
      unmatched.set(label_name, (unmatched.get(label_name) ?? 0) + 1);
      const k = labelKey(label_name);
      const lo = labelOnly.get(k) ?? { names: new Map<string, number>(), id: labelOnlyIngredient(k, label_name).id };
      lo.names.set(label_name, (lo.names.get(label_name) ?? 0) + 1);
      labelOnly.set(k, lo);
      return { id: lo.id, label_name, concentration };
    });
    const id = uuidV5(`product:${key}`);
    products.push({
      id,
      brand: r.brand,
      name: r.name,
      category: r.category,
      origin: originOf(r.brand),
      image_url: r.imageUrl,
      barcodes: sampleBarcodes(barcodes, id),
      ingredients: entries,
    });
  }
  return { products, labelOnly, unmatched, joinedVia, repointed, fragments };
}

/** Stage 4: the ingredient list (CosIng-derived and label-only, sorted by name) and the report's figures. */
function assemble(
  { cosingRows, groups, joiner, ingredientByInci, editorial, cleanUp }: Dictionary,
  perSource: Record<string, SourceStats>,
  { products, labelOnly, unmatched, joinedVia, repointed, fragments }: Joined,
): PipelineResult {
  const ingredients = [...ingredientByInci.values()];
  for (const [k, lo] of labelOnly) ingredients.push(labelOnlyIngredient(k, canonicalLabelName(lo.names)));
  ingredients.sort((a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.id, b.id));

  return {
    ingredients,
    products,
    stats: {
      cosingRows,
      cosingIngredients: ingredientByInci.size,
      mergedDuplicateNames: [...groups]
        .filter(([, g]) => g.length > 1)
        .map(([n]) => n)
        .sort(),
      labelOnlyIngredients: labelOnly.size,
      perSource,
      joinedVia,
      unmatched: [...unmatched].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])),
      unknownAliasTargets: joiner.unknownAliasTargets,
      editorialNamesMissing: [...new Set(editorial)].filter((n) => !groups.has(n)).sort(),
      dictionary: {
        dropped: cleanUp.dropped,
        merged: [...cleanUp.mergedInto].sort((a, b) => cmp(a[0], b[0])),
        colours: cleanUp.colours,
        repointed: [...repointed].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])),
        fragments,
      },
    },
  };
}

/** The most frequent printed form; all-lower-case or all-upper-case forms get label casing. */
function canonicalLabelName(names: Map<string, number>): string {
  const [best] = [...names].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  const n = best[0];
  return n === n.toLowerCase() || n === n.toUpperCase() ? labelCase(n.toUpperCase()) : n;
}

/** The key of a label-only record: the printed name's compact form. */
function labelKey(label: string): string {
  return compactKey(label) || label;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
