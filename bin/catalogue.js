#!/usr/bin/env -S node --max-semi-space-size=2
'use strict';
// --max-semi-space-size=2 (MiB): request garbage dies young, so a small young generation
// costs no throughput and keeps a serving process about 50 MB smaller (docs/performance.md).
// The `catalogue` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
require('../dist/src/cli/main.js').main(process.argv);
