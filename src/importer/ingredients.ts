// The ingredients an import writes: the dictionary it joins to, read and checked as the
// build checks ingredients.jsonl, plus one label-only ingredient per printed name that
// joins to nothing. Guarantees: ids and names stay unique as the build requires (names
// compared ignoring case, as the build compares them): a printed name equal to a known
// name ignoring case takes that ingredient's id; a label-only ingredient has the id the
// sample gives the same printed key (source/ids.ts), and is added only when the row that
// needs it is written (begin … commit, or rollback when the row is skipped).
import * as fs from 'node:fs';
import { compactKey } from '../labels/aliases';
import { checkIngredient, show } from '../source/check';
import { labelIngredientId, labelOnlyIngredient } from '../source/ids';
import { parseLine } from '../source/json-line';
import { readLines } from '../source/lines';
import type { SourceIngredient } from '../source/records';

export class IngredientTable {
  private readonly ids = new Set<string>();
  private readonly byKey = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  private readonly added: SourceIngredient[] = [];
  private pending: { ingredient: SourceIngredient; key: string }[] = [];

  constructor(readonly dictionary: readonly SourceIngredient[]) {
    for (const i of dictionary) {
      this.ids.add(i.id.toLowerCase());
      this.byName.set(i.name.toLowerCase(), i.id);
    }
  }

  /** True when an ingredient (of the dictionary, added, or pending) has this lower-cased id. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** The id for a printed name that joined to nothing; a new label-only ingredient is pending. */
  idFor(label: string): string {
    const key = compactKey(label) || label;
    const known = this.byKey.get(key) ?? this.byName.get(label.toLowerCase());
    if (known !== undefined) return known;
    const id = labelIngredientId(key);
    if (!this.ids.has(id)) {
      this.pending.push({ ingredient: labelOnlyIngredient(key, label), key });
      this.ids.add(id);
      this.byName.set(label.toLowerCase(), id);
    }
    this.byKey.set(key, id);
    return id;
  }

  /** The label-only ingredients the current row would add. */
  get fresh(): readonly SourceIngredient[] {
    return this.pending.map((p) => p.ingredient);
  }

  commit(): void {
    for (const p of this.pending) this.added.push(p.ingredient);
    this.pending = [];
  }

  rollback(): void {
    for (const { ingredient, key } of this.pending) {
      this.ids.delete(ingredient.id);
      this.byName.delete(ingredient.name.toLowerCase());
      this.byKey.delete(key);
    }
    this.pending = [];
  }

  /** Every ingredient to write: the dictionary, then the label-only ones added, in order. */
  all(): SourceIngredient[] {
    return [...this.dictionary, ...this.added];
  }

  /** How many label-only ingredients were added. */
  get addedCount(): number {
    return this.added.length;
  }
}

/**
 * DIR/ingredients.jsonl(.gz), every line checked as the build checks it (the record, unique
 * ids, unique names ignoring case); the first problem fails the import as FILE:LINE.
 */
export async function readDictionary(dir: string): Promise<SourceIngredient[]> {
  const plain = `${dir}/ingredients.jsonl`;
  const file = fs.existsSync(plain) ? plain : `${plain}.gz`;
  if (!fs.existsSync(file)) throw new Error(`${plain}(.gz): dictionary not found`);
  const out: SourceIngredient[] = [];
  const idLine = new Map<string, number>();
  const nameLine = new Map<string, { line: number; name: string }>();
  const fail = (line: number, m: string) => {
    throw new Error(`${file}:${line}: ${m}; the dictionary must be a valid ingredients.jsonl`);
  };
  for await (const { line, text } of readLines(file, (b) => fail(b.line, b.problem))) {
    const o = parseLine(text, (m) => fail(line, m));
    if (!checkIngredient(o, (m) => fail(line, m))) continue;
    const id = idLine.get(o.id.toLowerCase());
    if (id !== undefined) fail(line, `id ${show(o.id)} duplicates the id on line ${id}`);
    const name = nameLine.get(o.name.toLowerCase());
    if (name !== undefined) {
      fail(
        line,
        `name ${show(o.name)} duplicates the name ${show(name.name)} on line ${name.line} (names are compared ignoring case)`,
      );
    }
    idLine.set(o.id.toLowerCase(), line);
    nameLine.set(o.name.toLowerCase(), { line, name: o.name });
    out.push(o);
  }
  return out;
}
