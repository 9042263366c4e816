#!/usr/bin/env -S node --max-semi-space-size=8
'use strict';
// --max-semi-space-size=8 (MiB): a young generation that holds the requests in flight (32
// label analyses, batches), so their garbage dies young instead of being promoted and piling
// up in the old generation between full collections (docs/performance.md, "Serving memory").
// The `catalogue` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
require('../dist/src/cli/main.js').main(process.argv);
