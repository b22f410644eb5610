#!/usr/bin/env node
'use strict';
// Runs the compiled CLI (out/cli/store-doctor.cjs: `npm run build:cli`, which `npm install` runs
// as its prepare step). In a checkout that was never built it runs the TypeScript sources
// through tsx (a devDependency), as before.
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'out', 'cli', 'store-doctor.cjs');
let entry;
if (fs.existsSync(compiled)) entry = require(compiled);
else {
  let tsx;
  try {
    tsx = require('tsx/cjs/api');
  } catch {
    process.stderr.write(`store-doctor: ${compiled} is missing: run \`npm run build:cli\` (or \`npm install\`) first\n`);
    process.exit(1);
  }
  tsx.register();
  entry = require(path.join(__dirname, '..', 'electron', 'cli', 'entry.ts'));
}
entry.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
