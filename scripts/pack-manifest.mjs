#!/usr/bin/env node
// `npm pack` packs the CLI: out/cli (which needs no node_modules: scripts/build-cli.mjs bundles
// every package it uses), the built UI and the demo store. The package.json it packs must then
// declare no dependencies — the ones here are the desktop app's, and npm would try to fetch them:
// `npm install -g <tarball> --offline` cannot resolve registry dependencies from a cache filled
// by `npm ci` (that cache holds tarballs, not the registry metadata npm needs to resolve them).
//
//   node scripts/pack-manifest.mjs strip     (prepack)  package.json → the package's manifest;
//                                                       the original kept as .package.json.orig
//   node scripts/pack-manifest.mjs restore   (postpack) the original back, byte for byte
//
// A pack that died between the two leaves .package.json.orig: `strip` and `restore` both put it
// back first, so the repository's package.json is never lost or stripped twice.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = path.join(root, 'package.json');
const backup = path.join(root, '.package.json.orig');

/** What the npm package keeps of package.json: who it is and how it runs; nothing to install or build. */
export function packageManifest(pkg) {
  const keep = ['name', 'version', 'description', 'license', 'private', 'engines', 'bin', 'files', 'keywords', 'repository', 'homepage', 'bugs', 'author'];
  return Object.fromEntries(keep.filter((k) => pkg[k] !== undefined).map((k) => [k, pkg[k]]));
}

function writeAtomic(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function restore() {
  if (!fs.existsSync(backup)) return false;
  writeAtomic(manifest, fs.readFileSync(backup, 'utf8'));
  fs.rmSync(backup);
  return true;
}

const cmd = process.argv[2];
if (cmd === 'strip') {
  if (restore()) process.stderr.write('pack-manifest: restored package.json left over from an interrupted pack\n');
  const text = fs.readFileSync(manifest, 'utf8');
  fs.writeFileSync(backup, text, { flag: 'wx' });
  writeAtomic(manifest, `${JSON.stringify(packageManifest(JSON.parse(text)), null, 2)}\n`);
} else if (cmd === 'restore') {
  restore();
} else if (cmd !== undefined) {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
