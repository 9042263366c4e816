// The README's examples answer something on the bundled sample, so they cannot rot: every curl
// command of README.md's API section is read from the README itself (its words split as the
// shell splits them, $KEY and $BASE put in) and sent to a real server on the sample catalogue,
// and so are the requests `npm start` prints to try (src/cli/demo-tries.ts). "Something" is a
// 200 with a product, a non-empty page, a batch with no null, or a label with entries. The
// typed client's example (the same in README.md and clients/typescript/README.md) is run too,
// its import pointed at the client's source and its baseUrl at the server; what it prints must
// show answers, not an error (test/client-package.test.ts compiles it as an app would).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSampleServer, type SampleServer } from './support/sample-server';
import * as ts from 'typescript';
import * as client from '../clients/typescript/src';
import { demoTries } from '../src/cli/demo-tries';

const ROOT = path.resolve(__dirname, '../..');

let s: SampleServer;
let key: string;
before(async () => {
  s = await startSampleServer();
  key = await s.key('pro');
});
after(async () => {
  await s.close();
});

/** The fenced code blocks of `lang` in the section of `file` under the heading `heading`. */
function codeBlocks(file: string, heading: string, lang: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${file} has a section "${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

/** A shell command's words: quotes removed, $NAME put in (not inside single quotes), `\` line ends joined. */
function shellWords(command: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | null = null;
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\\n|(\s+)|([^'"\s\\]+)/g;
  const expand = (t: string) => t.replace(/\$([A-Z_]+)/g, (_, n: string) => vars[n] ?? assert.fail(`$${n} unset`));
  for (const m of command.matchAll(re)) {
    if (m[3] !== undefined || m[0] === '\\\n') {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + (m[1] ?? expand(m[2] ?? m[4]));
  }
  if (word !== null) words.push(word);
  return words;
}

interface Request {
  url: string;
  init: RequestInit;
}

/** The request a `curl` command line sends (only the flags the README uses: -H and -d). */
function curlRequest(words: string[]): Request {
  assert.equal(words[0], 'curl');
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let url: string | undefined;
  for (let i = 1; i < words.length; i++) {
    if (words[i] === '-H') {
      const [name, ...value] = words[++i].split(':');
      headers[name.trim().toLowerCase()] = value.join(':').trim();
    } else if (words[i] === '-d') body = words[++i];
    else if (!words[i].startsWith('-')) url = words[i];
    else assert.fail(`curl flag ${words[i]} is not read by this test`);
  }
  assert.ok(url, words.join(' '));
  return { url, init: { method: body === undefined ? 'GET' : 'POST', headers, body } };
}

/** The commands of a shell block: comment and assignment lines skipped, continued lines joined. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !/^[A-Z_]+=/.test(l));
}

/** What is wrong with an answer (null when it answers something). */
async function nothingIn(res: Response): Promise<string | null> {
  if (res.status !== 200) return `status ${res.status}: ${await res.text()}`;
  const body = (await res.json()) as Record<string, unknown> | unknown[];
  if (Array.isArray(body)) return body.length > 0 && body.every((p) => p !== null) ? null : 'a batch with nulls';
  if ('pagination' in body) {
    const total = (body.pagination as { total: number }).total;
    return total > 0 ? null : 'an empty page';
  }
  if ('entries' in body) return (body.entries as unknown[]).length > 0 ? null : 'a label with no entries';
  return 'id' in body || body.status === 'ok' ? null : `an answer of no known kind: ${JSON.stringify(body)}`;
}

describe("README.md's API examples", () => {
  it('every curl command answers something on the bundled sample', async () => {
    const blocks = codeBlocks('README.md', 'The API', 'sh');
    assert.equal(blocks.length, 1);
    const lines = commands(blocks[0]);
    assert.ok(lines.length >= 10, String(lines.length));
    const vars = { KEY: key, BASE: s.url };
    const problems: string[] = [];
    for (const line of lines) {
      const { url, init } = curlRequest(shellWords(line, vars));
      const p = await nothingIn(await fetch(url, init));
      if (p !== null) problems.push(`${line}\n  -> ${p}`);
    }
    assert.deepEqual(problems, []);
  });
  it('the shell words are read as the shell reads them', () => {
    assert.deepEqual(shellWords(`curl -H "x-api-key: $KEY" -d '{"a":"$KEY"}' $BASE/x`, { KEY: 'k', BASE: 'b' }), [
      'curl',
      '-H',
      'x-api-key: k',
      '-d',
      '{"a":"$KEY"}',
      'b/x',
    ]);
  });
});

describe('what `npm start` prints to try', () => {
  it('a brand, a product id and a barcode from the sample, each request answering something', async () => {
    const tries = await demoTries(path.join(ROOT, 'data', 'sample'));
    assert.equal(tries.ids.length, 3);
    assert.match(tries.barcode, /^[0-9]{8,14}$/);
    const problems: string[] = [];
    for (const p of tries.paths) {
      const found = await nothingIn(await fetch(s.url + p, { headers: { 'x-api-key': key } }));
      if (found !== null) problems.push(`${p} -> ${found}`);
    }
    const batch = await fetch(`${s.url}/v1/products/batch`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: tries.ids }),
    });
    const found = await nothingIn(batch);
    if (found !== null) problems.push(`batch of ${tries.ids.join()} -> ${found}`);
    assert.deepEqual(problems, []);
  });
});

describe("the typed client's README example", () => {
  it('is the same in README.md and clients/typescript/README.md', () => {
    const root = codeBlocks('README.md', 'Typed TypeScript client', 'ts');
    assert.equal(root.length, 1);
    const own = fs.readFileSync(path.join(ROOT, 'clients/typescript/README.md'), 'utf8');
    assert.ok(own.includes('```ts\n' + root[0] + '```'), 'the client README holds the same example');
  });
  it('runs on the bundled sample: every call answers, none is refused', async () => {
    const [example] = codeBlocks('README.md', 'Typed TypeScript client', 'ts');
    assert.ok(example.includes("baseUrl: 'http://127.0.0.1:8080'"));
    const js = ts.transpileModule(example.replace("'http://127.0.0.1:8080'", JSON.stringify(s.url)), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const printed: string[] = [];
    const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(' ')) };
    const fakeRequire = (name: string) => {
      assert.equal(name, '@cosmetics-catalogue/client');
      return client;
    };
    const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    const run = new AsyncFunction('require', 'console', 'process', 'exports', js);
    await run(fakeRequire, fakeConsole, { env: { CATALOGUE_KEY: key } }, {});
    const errors = printed.filter((l) => /^\d+ [a-z_]+ /.test(l));
    assert.deepEqual(errors, [], 'the example printed an error');
    assert.match(printed[0], /^\S.* \d+$/, 'a product with its ingredient count');
    assert.ok(printed.length >= 4, printed.join('\n'));
    assert.equal(printed.at(-1), 'Protini™ Polypeptide Moisturizer', 'the barcode answers');
  });
});
