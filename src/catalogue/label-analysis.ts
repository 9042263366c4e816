// Label analysis against the served catalogue (POST /v1/labels/analyze): a label text in,
// its entries joined to this catalogue's ingredients out. Guarantees: the join index is
// the one the build stored (format.ts label_keys), so a request is parsing and map
// lookups only; entries come in label order, section by section, nothing merged across
// sections (an entry printed as two names run together comes back as two, join_rule
// "split"); each recognised entry carries the ingredient's stored record (2.5) as is;
// the contains_* flags follow the build's rule (containsFields of the joined
// ingredients' categories); a CAS number printed in a label decides its join when
// exactly one record's cas_number holds it. analyseInSlices gives the same answer, as
// bytes, with the event loop let run every ~2 ms of work; analyseInto the same bytes,
// written into a given array as they are made (a label thread's answer slot).
import { LABEL_KEY_KINDS, FLAG_BIT, containsFields } from './format';
import type { IngredientCategory } from '../source/records';
import { JoinIndex, LabelJoiner, type Join } from '../labels/joiner';
import { eachJoinedEntry, remember, type JoinMemo, type JoinedEntry } from '../labels/join-entries';
import { parseSteps } from '../labels/parser';

const encoder = new TextEncoder();
/** The end of an answer, after its entries. */
const END = encoder.encode(']}');

/** Longest stretch of work between two turns of the event loop in analyseInSlices, ms. */
const SLICE_MS = 2;
/** Entries joined and rendered between two checks of the clock. */
const STEP = 128;

/** A record's cas_number (CAS numbers hold no character JSON escapes). */
const CAS_NUMBER = /"cas_number":"([^"]*)"/;
/** A record with no CAS number, no EC number and no functions (format.ts renderIngredient). */
const WEAK_RECORD = [/"cas_number":null/, /"ec_number":null/, /"functions":\[\]/];
/** A record ends with its category (format.ts renderIngredient). */
const CATEGORY_AT_END = /^"category":(?:null|"([a-z_]+)")\}$/;

/**
 * The catalogue's joiner remembering each split part and each part of "A/B" for one
 * analysis (each name's join and split are remembered by eachJoinedEntry's JoinMemo, one
 * for all sections): a label's names share their parts ("Water/…/Eau"). Each memo holds at
 * most MEMO_LIMIT answers (remember, join-entries.ts).
 */
class RememberingJoiner extends LabelJoiner<number> {
  /** Parts by colourAlone (false, true): two maps, so a look-up hashes the part's text as it is. */
  private readonly parts = [new Map<string, Join<number> | null>(), new Map<string, Join<number> | null>()];
  private readonly wholeNames = new Map<string, Join<number> | null>();
  private readonly genusFirsts = new Map<string, boolean>();

  protected override wholeName(text: string): Join<number> | null {
    let j = this.wholeNames.get(text);
    if (j === undefined) j = remember(this.wholeNames, text, super.wholeName(text));
    return j;
  }

  /** Remembered for parts that are not plain only: a plain part's answer costs less to make than to remember. */
  protected override startsWithGenus(part: string): boolean {
    let g = this.genusFirsts.get(part);
    if (g === undefined) g = remember(this.genusFirsts, part, super.startsWithGenus(part));
    return g;
  }

  /** A part of a split, remembered: the splits of names sharing their first words try the same parts. */
  protected override strict(text: string, colourAlone: boolean): Join<number> | null {
    const parts = this.parts[colourAlone ? 1 : 0];
    let j = parts.get(text);
    if (j === undefined) j = remember(parts, text, super.strict(text, colourAlone));
    return j;
  }
}

/** Each ingredient ord's record (2.5) as JSON text: an array of them, or SharedRecords. */
export interface Records {
  readonly length: number;
  at(ord: number): string | undefined;
}

/** What one analysis has rendered: each printed name's tail, each record's text, the last entry's JSON after its name. */
interface Rendering {
  tails: Map<string, Tail>;
  texts: Map<number, string>;
  last: {
    how: string;
    rule: string;
    ord: number | undefined;
    section: number;
    may: boolean;
    concentration: number | null;
    text: string;
  } | null;
}

/** An entry's rendered JSON after its position, with what it was rendered from. */
interface Tail {
  join: JoinedEntry<number>['join'];
  section: number;
  may: boolean;
  concentration: number | null;
  text: string;
}

export class LabelAnalyser {
  private readonly joiner: LabelJoiner<number>;
  private readonly flagBits: Uint8Array;

  /**
   * `keys`: the catalogue's label_keys rows (kind, JSON entries); `records`: each ingredient
   * ord's record (2.5) as JSON text, read with at() (an array of them, or the shared block,
   * shared-records.ts, which the analyser then reads as it renders: no string kept per record).
   */
  constructor(
    keys: readonly (readonly [number, string])[],
    private readonly records: Records,
  ) {
    const ix = new JoinIndex<number>();
    for (const [kind, entries] of keys) {
      for (const [key, ord] of JSON.parse(entries) as [string, number][]) ix.restore(LABEL_KEY_KINDS[kind], key, ord);
    }
    // The records' CAS numbers: a CAS number printed in a label decides its join (src/labels/joiner.ts).
    // Records with no CAS number, EC number or function join only as printed (JoinIndex.weak).
    this.flagBits = new Uint8Array(records.length);
    for (let ord = 0; ord < records.length; ord++) {
      const r = this.record(ord);
      ix.addCasNumbers(CAS_NUMBER.exec(r)?.[1] ?? null, ord);
      if (WEAK_RECORD.every((re) => re.test(r))) ix.weak.add(ord);
      const c = CATEGORY_AT_END.exec(r.slice(r.lastIndexOf('"category":')))?.[1] as IngredientCategory | undefined;
      this.flagBits[ord] = c === undefined ? 0 : FLAG_BIT[c];
    }
    ix.prepare();
    this.joiner = new LabelJoiner(ix);
  }

  private record(ord: number): string {
    return this.records.at(ord)!;
  }

  /** The analysis of one label text as JSON (schema LabelAnalysis, src/catalogue/answers.ts). */
  analyse(text: string): string {
    const entries: string[] = [];
    const steps = this.steps(text, (batch) => {
      for (const e of batch) entries.push(e);
    });
    let r = steps.next();
    while (r.done !== true) r = steps.next();
    return `${r.value}${entries.join(',')}]}`;
  }

  /**
   * The same answer as UTF-8 bytes written into `out` (an answer slot, label-pool.ts), the
   * entries encoded as they are made, STEP at a time: no string of the whole answer (up to
   * 11 MB) is made on the heap, whose collection of it cost a full collection per long answer
   * (docs/labels.md). Gives the length written; when the answer does not fit, the bytes in a
   * buffer of their own.
   */
  analyseInto(text: string, out: Uint8Array): number | Uint8Array {
    let at = 0; // bytes of entries written into out
    let rest: string[] | null = null; // the batches that did not fit
    const steps = this.steps(text, (batch) => {
      const s = at === 0 && rest === null ? batch.join(',') : `,${batch.join(',')}`;
      if (rest !== null) return void rest.push(s);
      const { read, written } = encoder.encodeInto(s, out.subarray(at));
      if (read === s.length) at += written;
      else rest = [s];
    });
    let r = steps.next();
    while (r.done !== true) r = steps.next();
    const head = encoder.encode(r.value);
    const length = head.length + at + END.length;
    if (rest === null && length <= out.length) {
      // The entries move up to make room for the head, known only now.
      out.copyWithin(head.length, 0, at);
      out.set(head, 0);
      out.set(END, head.length + at);
      return length;
    }
    // Too long for the slot: in a buffer of its own (never one of Buffer's shared pool: it is moved to another thread).
    const parts = [head, out.subarray(0, at), ...(rest ?? []).map((b) => encoder.encode(b)), END];
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let to = 0;
    for (const p of parts) {
      bytes.set(p, to);
      to += p.length;
    }
    return bytes;
  }

  /**
   * The same answer as UTF-8 bytes, made in slices of about SLICE_MS of work with the
   * event loop let run between them (setImmediate), so that one long label never holds
   * other requests. The entries are encoded as they are made, STEP at a time: a long
   * answer is held as bytes outside the JS heap while it is built, not as tens of thousands
   * of strings that the collector would copy and mark (docs/labels.md).
   */
  async analyseInSlices(text: string): Promise<Buffer> {
    let start = performance.now();
    const pause = async (): Promise<void> => {
      if (performance.now() - start < SLICE_MS) return;
      await new Promise(setImmediate);
      start = performance.now();
    };
    let first = ''; // the first STEP entries, kept as text: most labels have no more
    const rest: Buffer[] = [];
    const steps = this.steps(text, (batch) => {
      if (first === '') first = batch.join(',');
      else rest.push(Buffer.from(`,${batch.join(',')}`));
    });
    let r = steps.next();
    for (; r.done !== true; r = steps.next()) await pause();
    if (rest.length === 0) return Buffer.from(`${r.value}${first}]}`);
    return Buffer.concat([Buffer.from(`${r.value}${first}`), ...rest, Buffer.from(']}')]);
  }

  /**
   * The analysis, pausing (yield) every STEP entries (and parseSteps' pauses): gives each
   * entry's JSON to `sink`, STEP entries at a time in label order (the last batch may be
   * shorter), and returns the answer's JSON up to its entries array.
   */
  private *steps(text: string, sink: (batch: string[]) => void): Generator<void, string> {
    const parsed = yield* parseSteps(text);
    const joiner = new RememberingJoiner(this.joiner.index);
    // A name printed in many sections (shade ranges, kits) is joined once (while the memo holds it: MEMO_LIMIT).
    const memo: JoinMemo<number> = new Map();
    let flags = 0;
    let recognised = 0;
    let position = 0;
    let batch: string[] = [];
    const rendering: Rendering = { tails: new Map(), texts: new Map(), last: null };
    for (let s = 0; s < parsed.sections.length; s++) {
      for (const e of eachJoinedEntry(parsed.sections[s].entries, joiner, memo)) {
        const ord = e.join?.target;
        if (ord !== undefined) {
          flags |= this.flagBits[ord];
          recognised++;
        }
        batch.push(`{"position":${position++}${this.tail(rendering, e, s)}`);
        if (position % STEP === 0) {
          sink(batch);
          batch = [];
          yield;
        }
      }
    }
    if (batch.length > 0) sink(batch);
    const head = JSON.stringify({
      ...containsFields(flags),
      counts: { entries: position, recognised, unrecognised: position - recognised },
      sections: parsed.sections.map((s) => ({ header: s.header })),
      notes: parsed.notes,
    });
    return `${head.slice(0, -1)},"entries":[`;
  }

  /**
   * An entry's JSON after its position, rendered once per printed name while the entry is
   * the same (a name printed many times costs a map look-up, not a render). What follows the
   * name is rendered once for entries in a row that share it (names new to the catalogue all
   * end `"joined_by":"none",…`), and each record's text is read once per analysis; each memo
   * holds at most MEMO_LIMIT of them (remember), so a label of many distinct names keeps no
   * memo as long as itself.
   */
  private tail(r: Rendering, e: JoinedEntry<number>, section: number): string {
    const t = r.tails.get(e.label_name);
    if (t?.join === e.join && t.section === section && t.may === e.may_contain && t.concentration === e.concentration)
      return t.text;
    const text = `,"label_name":${JSON.stringify(e.label_name)}${this.rest(r, e, section)}`;
    remember(r.tails, e.label_name, {
      join: e.join,
      section,
      may: e.may_contain,
      concentration: e.concentration,
      text,
    });
    return text;
  }

  /** An entry's JSON after its label_name: the last one rendered when it is the same. */
  private rest(r: Rendering, e: JoinedEntry<number>, section: number): string {
    const how = e.join?.how ?? 'none';
    const rule = e.join?.rule ?? how;
    const ord = e.join?.target;
    const l = r.last;
    if (
      l !== null &&
      l.how === how &&
      l.rule === rule &&
      l.ord === ord &&
      l.section === section &&
      l.may === e.may_contain &&
      l.concentration === e.concentration
    )
      return l.text;
    let record = 'null';
    if (ord !== undefined) {
      const known = r.texts.get(ord);
      if (known === undefined) record = remember(r.texts, ord, this.record(ord));
      else record = known;
    }
    const text =
      `,"concentration":${JSON.stringify(e.concentration)},"may_contain":${e.may_contain},"section":${section},` +
      `"joined_by":"${how}","join_rule":"${rule}","ingredient":${record}}`;
    r.last = { how, rule, ord, section, may: e.may_contain, concentration: e.concentration, text };
    return text;
  }
}
