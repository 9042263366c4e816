#!/usr/bin/env -S node --max-semi-space-size=8 --no-allocation-site-pretenuring
'use strict';
// --max-semi-space-size=8 (MiB): a young generation that holds the requests in flight (32
// label analyses, batches), so their garbage dies young instead of being promoted and piling
// up in the old generation between full collections (docs/performance.md, "Serving memory").
// --no-allocation-site-pretenuring: V8 may decide, from the collections of a server's first
// seconds under load, to allocate a request's objects straight in the old generation; in 3
// of 16 starts it did, and the server then ran a full collection every 150–200 ms and spent
// about 1.8 × the CPU on every request for as long as it ran (docs/performance.md, "Round nine").
// The `catalogue` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
// `npm ci` also installs Node.js 24 (the `node` package) into node_modules/.bin, which npm scripts
// and npx put first on PATH; a shell that runs this file with an older Node is told so.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(
    `catalogue needs Node.js 22 or 24 (this is ${process.version}): run it as \`npx catalogue …\` or ` +
      '`npm start`, which use the Node.js 24 that `npm ci` installed, or put node_modules/.bin first on PATH',
  );
  process.exit(1);
}
require('../dist/src/cli/main.js').main(process.argv);
