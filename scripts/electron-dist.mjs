// The Electron dist electron-builder packages: the real one from node_modules/electron when its binary
// was downloaded, else a stub (the real binary cannot be downloaded on an offline build machine).
// The stub holds a fuse wire as real Electron binaries do (sentinel, version 1, 8 fuses at
// Electron's defaults), so electron-builder's electronFuses are really flipped and can be read back.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

/** @electron/fuses as electron-builder uses it (its own copy). */
export function fusesLib() {
  const paths = { paths: [path.dirname(require.resolve('app-builder-lib/package.json'))] };
  return {
    ...require(require.resolve('@electron/fuses/dist/constants', paths)),
    fuses: require(require.resolve('@electron/fuses', paths)),
  };
}

/** `{ dir, stub }`: the real dist (stub false) or a stub written into `work`. */
export function electronDist(work) {
  const real = path.join(root, 'node_modules', 'electron', 'dist');
  if (fs.existsSync(path.join(real, 'electron'))) return { dir: real, stub: false };
  const stub = path.join(work, 'electron-dist');
  fs.mkdirSync(path.join(stub, 'resources'), { recursive: true });
  const { SENTINEL, FuseState } = fusesLib();
  const defaults = [
    FuseState.ENABLE,
    FuseState.DISABLE,
    FuseState.ENABLE,
    FuseState.ENABLE,
    FuseState.DISABLE,
    FuseState.DISABLE,
    FuseState.DISABLE,
    FuseState.ENABLE,
  ];
  const wire = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub electron: the real Electron binary could not be downloaded on the build machine" >&2\nexit 1\n# '),
    Buffer.from(SENTINEL),
    Buffer.from([1, defaults.length, ...defaults]),
    Buffer.from('\n'),
  ]);
  fs.writeFileSync(path.join(stub, 'electron'), wire, { mode: 0o755 });
  fs.writeFileSync(path.join(stub, 'LICENSE'), 'stub');
  fs.writeFileSync(path.join(stub, 'LICENSES.chromium.html'), 'stub');
  fs.writeFileSync(path.join(stub, 'version'), require('electron/package.json').version);
  return { dir: stub, stub: true };
}
