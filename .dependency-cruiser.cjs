// The import graph's rules, checked by `npm run lint` (dependency-cruiser). The data flows
// source → build → catalogue file → read model → routes; a folder under src/ may import
// only the folders written out in FOLDER_ARROWS (its own files, node's modules and npm
// packages always), never one above it in that flow, and no module may take part in a
// circle. Type-only imports count: they are arrows a reader follows too.
/** @type {Record<string, string[]>} folder under src/ → the folders under src/ it may import. */
const FOLDER_ARROWS = {
  shared: [],
  source: ['shared'],
  labels: ['shared'],
  // the catalogue file's format (writer and reader) and the read model
  catalogue: ['source', 'labels', 'shared'],
  builder: ['catalogue', 'source', 'labels', 'shared'],
  synth: ['source', 'shared'],
  sample: ['source', 'labels', 'shared'],
  importer: ['builder', 'source', 'labels', 'shared'],
  access: ['shared'],
  // mail to the dashboard's users: its outbox lives in the access store
  mail: ['access', 'shared'],
  // operations serving the app (metrics, reload, drain, headers) sit below the routes
  ops: ['catalogue', 'shared'],
  http: ['ops', 'catalogue', 'source', 'labels', 'access', 'shared'],
  // beside the routes: the read model (the playground), access only through its public
  // module (rule dashboard-access-index), the HTTP layer and shared
  dashboard: ['catalogue', 'access', 'mail', 'http', 'shared'],
};

const folders = Object.keys(FOLDER_ARROWS);
const allowedFolderArrows = folders.map((from) => ({
  from: { path: `^src/${from}/` },
  to: { path: `^src/(${[from, ...FOLDER_ARROWS[from]].join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports: the modules cannot be read, tested or moved apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'dashboard-access-index',
      severity: 'error',
      comment: 'src/dashboard uses src/access only through its public module, src/access/index.ts.',
      from: { path: '^src/dashboard/' },
      to: { path: '^src/access/', pathNot: '^src/access/index\\.ts$' },
    },
    {
      name: 'src-not-above',
      severity: 'error',
      comment: 'src/ never imports the tests, the bench, the clients or the scripts.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|clients|bin)/' },
    },
  ],
  allowedSeverity: 'error',
  allowed: [
    // outside src/ (tests, bench, clients, scripts) and the modules at src/'s top (server.ts,
    // cluster.ts) and src/cli (the commands) may import anything
    { from: { pathNot: '^src/' }, to: {} },
    { from: { path: '^src/[^/]+\\.ts$' }, to: {} },
    { from: { path: '^src/cli/' }, to: {} },
    // node's modules and npm packages
    { from: {}, to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg'] } },
    ...allowedFolderArrows,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|var|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // clients/typescript is its own package: its files are cruised, its node_modules are not
    includeOnly: '^(src|test|bench|clients|bin)/',
  },
};
