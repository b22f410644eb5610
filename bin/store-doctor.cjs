#!/usr/bin/env node
'use strict';
// Runs the TypeScript CLI from the checkout through tsx, so `npx store-doctor` works right
// after `npm install` with no build step.
const path = require('node:path');
// The pinned AWS SDK works on Node 20; its notice about future SDK releases needing Node 22
// is not actionable for an operator and would pollute every command's stderr.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { register } = require('tsx/cjs/api');
register();
const { runCli, quietOnBrokenPipe } = require(path.join(__dirname, '..', 'electron', 'cli', 'main.ts'));
// `store-doctor … | head -1` ends quietly instead of with an EPIPE stack trace.
quietOnBrokenPipe();
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
