#!/usr/bin/env node
// `npm start [path]`: open Store Doctor on a store (the built-in demo when no path is given).
// With the Electron binary installed: build (electron-vite) and launch the window.
// Without it (as on machines that only reach package registries): say so in one line, build the
// renderer if it is missing, and start the loopback host, which prints the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const target = process.argv[2] ?? 'demo';

/** Path of the Electron binary if it is installed, without triggering electron's lazy download. */
export function electronBinary() {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return null;
  }
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const rel = fs.readFileSync(pathFile, 'utf8').trim();
  const bin = process.env.ELECTRON_OVERRIDE_DIST_PATH ? path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, rel) : path.join(dir, 'dist', rel);
  return fs.existsSync(bin) ? bin : null;
}

function build() {
  const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const r = spawnSync(process.execPath, [cli, 'build'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    process.stderr.write('store-doctor: the build failed (electron-vite build)\n');
    process.exit(1);
  }
}

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bin = electronBinary();
  const openArg = `--open=${target === 'demo' ? 'demo' : path.resolve(target)}`;
  if (bin) {
    build();
    run(bin, [root, openArg]);
  } else {
    process.stdout.write('The Electron binary is not available here (it cannot be downloaded); starting the loopback host instead.\n');
    if (!fs.existsSync(path.join(root, 'out', 'renderer', 'index.html'))) build();
    run(process.execPath, [path.join(root, 'bin', 'store-doctor.cjs'), 'serve', target === 'demo' ? 'demo' : path.resolve(target)]);
  }
}
