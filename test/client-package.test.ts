// The client package as app builders get it: its generated types are what
// openapi-typescript makes of the server's current OpenAPI document (so a schema change
// without `npm run client:generate` fails here), and the package packs (into a file git
// ignores), installs into an empty project, type-checks there — with the READMEs' example,
// under strict and exactOptionalPropertyTypes — and calls a real server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GENERATED_FILE, generateTypes, openApiDocument } from '../clients/typescript/scripts/generate';
import { startTestServer, type TestServer } from './support/server';

const ROOT = path.resolve(__dirname, '../..');
const PACKAGE = path.join(ROOT, 'clients/typescript');

let s: TestServer;

let served: any;
let tmp: string;
before(async () => {
  s = await startTestServer();
  served = await (await s.get('/openapi.json', {})).json();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'client-package-'));
});
after(async () => {
  await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('generated types', () => {
  it('the generator script reads the same document the server serves', async () => {
    assert.deepEqual(await openApiDocument(), served);
  });
  it(`${GENERATED_FILE} is up to date with the served /openapi.json (else run npm run client:generate)`, async () => {
    const checkedIn = fs.readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8');
    assert.ok(
      (await generateTypes(served)) === checkedIn,
      `${GENERATED_FILE} is out of date: run npm run client:generate`,
    );
  });
  it('a changed route schema makes the comparison fail', async () => {
    const changed = structuredClone(served);
    changed.paths['/health'].get.responses['200'].content['application/json'].schema.properties.extra = {
      type: 'string',
    };
    const checkedIn = fs.readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8');
    assert.notEqual(await generateTypes(changed), checkedIn);
  });
});

/**
 * Runs a command without the npm_* variables of an enclosing `npm test`. Asynchronous:
 * the server the command may call runs in this process.
 */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const CONSUMER = `import { CatalogueClient, CatalogueApiError, type Product } from '@cosmetics-catalogue/client';
export async function main(baseUrl: string, apiKey: string): Promise<string[]> {
  const client = new CatalogueClient({ baseUrl, apiKey });
  const found = await client.searchProducts({ q: 'caudalie' });
  const product: Product = await client.getProduct(found.results[0].id);
  const names: string[] = product.ingredients.map((i) => i.name);
  try {
    await client.getProduct('00000000-0000-4000-8000-000000000000');
  } catch (err) {
    if (err instanceof CatalogueApiError) names.push(String(err.statusCode));
  }
  return names;
}
`;

/** The client README's example as a module of an app: its imports at the top, the rest in a function. */
function readmeExample(): string {
  const text = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(text)![1];
  const lines = example.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\nexport async function readme(): Promise<void> {\n${body.join('\n')}\n}\n`;
}

describe('the package', () => {
  it('packs (building dist/ with declarations), installs into an empty project, type-checks and calls a server', async () => {
    const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', tmp], PACKAGE));
    const files = packed[0].files.map((f: { path: string }) => f.path);
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts', 'README.md', 'package.json'])
      assert.ok(files.includes(f), f);
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, packed[0].filename)], app);
    fs.writeFileSync(path.join(app, 'index.ts'), CONSUMER);
    fs.writeFileSync(path.join(app, 'readme.ts'), readmeExample());
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'node16',
        moduleResolution: 'node16',
        lib: ['ES2022', 'DOM'],
        types: [],
        exactOptionalPropertyTypes: true,
      },
      files: ['index.ts', 'readme.ts'],
    };
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    // the example reads process.env: a declaration of its own, as @types/node would give
    fs.writeFileSync(
      path.join(app, 'env.d.ts'),
      'declare const process: { env: Record<string, string | undefined> };\n',
    );
    tsconfig.files.push('env.d.ts');
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    const check = `require('./index.js').main(${JSON.stringify(s.url)}, ${JSON.stringify(s.keys.pro.key)}).then((r) => console.log(JSON.stringify(r)))`;
    assert.deepEqual(JSON.parse(await run(process.execPath, ['-e', check], app)), [
      'Aqua',
      'Glycerin',
      'Niacinamide',
      'Parfum',
      '404',
    ]);
  });
});

describe('the checkout', () => {
  it('git ignores the .tgz that npm pack writes in clients/typescript', async (t) => {
    if (!fs.existsSync(path.join(ROOT, '.git'))) return t.skip('not a git checkout');
    const name = 'cosmetics-catalogue-client-1.0.0.tgz';
    const ignored = await run('git', ['check-ignore', '-v', `clients/typescript/${name}`], ROOT);
    assert.match(ignored, /\*\.tgz/);
  });
});
