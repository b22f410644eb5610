#!/usr/bin/env node
'use strict';
// Runs the TypeScript CLI from the checkout through tsx, so `npx store-doctor` works right
// after `npm install` with no build step.
const path = require('node:path');
const { register } = require('tsx/cjs/api');
register();
require(path.join(__dirname, '..', 'electron', 'cli', 'main.ts'));
