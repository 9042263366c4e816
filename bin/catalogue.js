#!/usr/bin/env node
'use strict';
// The `catalogue` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
require('../dist/src/cli/main.js').main(process.argv);
