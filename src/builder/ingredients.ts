// Pass 1: ingredients.jsonl. Guarantees: every line is checked (line-local rules plus
// unique id and unique name ignoring case); valid lines are rendered and written, in
// line order, while the file holds no error; the dictionary that products need
// (id -> ord, ord -> free-from category and record) is returned either way.
import { renderIngredient, TermIndexBuilder, TERMS_INGREDIENT_NAME, TERMS_INGREDIENT_OTHER } from '../catalogue/format';
import type { IngredientCategory } from '../source/records';
import { isUuid } from '../shared/text';
import type { ErrorLog } from './errors';
import { IdOrds } from './id-ords';
import { LabelKeysBuilder, isWeakRecord } from './label-keys';
import type { CatalogueWriter } from './output';
import { readLines } from '../source/lines';
import { checkIngredient, show } from '../source/check';
import { parseLine } from '../source/json-line';

export interface Dictionary {
  /** Id (any case) -> ord, for every line whose id is a valid uuid (first occurrence). */
  ordById: IdOrds;
  /** ord -> free-from category. */
  category: (IngredientCategory | null)[];
  /** ord -> the rendered record (JSON text), which every product entry of it repeats. */
  record: string[];
  /** Non-blank lines read. */
  count: number;
  /** The label join index, fed by both passes. */
  labels: LabelKeysBuilder;
}

/** Called now and then with the physical lines read and the records (non-blank lines) seen so far. */
export type LineProgress = (lines: number, records: number) => void;

export async function readIngredients(
  file: string,
  log: ErrorLog,
  out: CatalogueWriter,
  progress: LineProgress,
): Promise<Dictionary> {
  const dict: Dictionary = {
    ordById: new IdOrds(),
    category: [],
    record: [],
    count: 0,
    labels: new LabelKeysBuilder(),
  };
  const idLine = new Map<string, number>();
  const nameLine = new Map<string, { line: number; name: string }>();
  const names = new TermIndexBuilder();
  const others = new TermIndexBuilder();
  let ord = 0;
  for await (const { line, text } of readLines(file, (b) => log.add(`${file}:${b.line}: ${b.problem}`))) {
    const report = (m: string) => log.add(`${file}:${line}: ${m}`);
    const o = parseLine(text, report);
    const ok = o !== null && checkIngredient(o, report);
    if (o !== null && isUuid(o.id)) {
      const id = o.id.toLowerCase();
      const earlier = idLine.get(id);
      if (earlier !== undefined) report(`id ${show(o.id)} duplicates the id on line ${earlier}`);
      else {
        idLine.set(id, line);
        dict.ordById.add(id, ord);
        dict.category[ord] = ok ? o.category : null;
      }
    }
    if (o !== null && typeof o.name === 'string') {
      const key = o.name.toLowerCase();
      const earlier = nameLine.get(key);
      if (earlier !== undefined) {
        report(
          `name ${show(o.name)} duplicates the name ${show(earlier.name)} on line ${earlier.line} (names are compared ignoring case)`,
        );
      } else nameLine.set(key, { line, name: o.name });
    }
    if (ok && log.total === 0) {
      const row = renderIngredient(ord, o);
      out.ingredient(row);
      dict.record[ord] = row.record;
      names.add(ord, o.name);
      others.add(ord, o.other_names);
      dict.labels.ingredient(ord, o.name, o.other_names, isWeakRecord(o), o.cas_number);
    }
    ord++;
    if (line % 4096 === 0) progress(line, ord);
  }
  if (log.total === 0) {
    out.terms(TERMS_INGREDIENT_NAME, names.entries());
    out.terms(TERMS_INGREDIENT_OTHER, others.entries());
  }
  dict.count = ord;
  return dict;
}
