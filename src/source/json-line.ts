// One line of a catalogue source file as JSON (catalogue-source.md), shared by the build
// and the importer: one JSON object, with each name once in every object (JSON.parse
// would silently keep the last of two). Guarantees: a line is returned as an object only
// when it is both; otherwise why not is reported once (FILE:LINE is the caller's), naming
// the object of a repeated name (`ingredients[3]: field "id" appears twice ...`). The
// record rules are source/check.ts's.
import { show, type Report } from './explain';

type Obj = Record<string, unknown>;

/** The JSON object on a line, or null after reporting why it is not one. */
export function parseLine(text: string, report: Report): Obj | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    report(`malformed JSON: ${(err as Error).message}`);
    return null;
  }
  if (!isObject(value)) {
    report(`line must be a JSON object, got ${show(value)}`);
    return null;
  }
  if (namesIn(text) !== namesOf(value)) {
    const twice = repeatedName(text);
    if (twice !== null) {
      report(`${twice.at}field ${JSON.stringify(twice.name)} appears twice in one object (JSON keeps only the last)`);
      return null;
    }
  }
  return value;
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON string token, and whether a `:` follows it (then it is a name). */
const STRING = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/**
 * How many names the JSON text holds (counting repeats), counted in one pass over its colons:
 * a colon ends a name when, past any whitespace before it, a quote that is not escaped precedes
 * it (inside a string a quote is always escaped, so an unescaped one closes a string, and a
 * string followed by a colon is a name).
 */
function namesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    let q = i - 1;
    let c = text.charCodeAt(q);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(--q);
    if (c !== 0x22) continue;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) n++;
  }
  return n;
}

/** How many names the parsed value holds, in all its objects. */
function namesOf(v: unknown): number {
  if (Array.isArray(v)) {
    let n = 0;
    for (const x of v) if (typeof x === 'object' && x !== null) n += namesOf(x);
    return n;
  }
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const k in v) {
    n++;
    const x = (v as Obj)[k];
    if (typeof x === 'object' && x !== null) n += namesOf(x);
  }
  return n;
}

/**
 * The first name that appears twice in one object of valid JSON text, with the path of
 * that object (`ingredients[2]: `, empty at the top), or null when no name repeats.
 */
function repeatedName(text: string): { name: string; at: string } | null {
  // one frame per open object or array: the names seen (objects) or the item index (arrays)
  const stack: { names?: Set<string>; index: number; key: string }[] = [];
  let key = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      STRING.lastIndex = i;
      const m = STRING.exec(text)!;
      i = STRING.lastIndex - 1;
      if (m[1] === undefined) continue;
      const name = JSON.parse(m[0].slice(0, m[0].lastIndexOf('"') + 1)) as string;
      const top = stack[stack.length - 1];
      if (top.names!.has(name)) return { name, at: pathOf(stack.slice(1)) };
      top.names!.add(name);
      key = name;
    } else if (c === '{' || c === '[') {
      const top = stack[stack.length - 1];
      const here = top === undefined ? '' : top.names ? key : `[${top.index}]`;
      stack.push({ names: c === '{' ? new Set() : undefined, index: 0, key: here });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && stack[stack.length - 1].names === undefined) stack[stack.length - 1].index++;
  }
  return null;
}

function pathOf(frames: readonly { key: string }[]): string {
  if (frames.length === 0) return '';
  return frames.map((f, i) => (i === 0 || f.key.startsWith('[') ? f.key : `.${f.key}`)).join('') + ': ';
}
