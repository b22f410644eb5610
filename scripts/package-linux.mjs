#!/usr/bin/env node
// `npm run package:linux`: the desktop app for Linux x64, built offline, into dist/:
//   store-doctor-<version>-linux-x64.tar.gz   electron-builder's tar.gz target; it compresses with
//                                             7za, taken from Debian's p7zip-full
//                                             (ELECTRON_BUILDER_7ZIP_PATH) — its own 7za is not fetched
//   store-doctor_<version>_amd64.deb          built with dpkg-deb from the unpacked app
//                                             (electron-builder's deb target downloads fpm): the app in
//                                             /opt/store-doctor, /usr/bin/store-doctor-app, a desktop
//                                             entry and the hicolor icon set
// Where the real Electron binary cannot be downloaded, both hold a stub Electron (scripts/electron-dist.mjs)
// and the script says so: they check the packaging, they are not a release.
// Usage: node scripts/package-linux.mjs [--no-build] [--out <dir>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { electronDist } from './electron-dist.mjs';
import { renderIcons } from './icons.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
export const APP_NAME = 'store-doctor';
export const DESKTOP_FILE = pkg.desktopName;
const SEVEN_ZIP = '/usr/bin/7za';

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', env: { ...process.env, ...opts.env } });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${path.basename(cmd)} ${argv.join(' ')} failed (exit ${r.status})`);
  }
  return r;
}

/** The desktop entry (freedesktop Desktop Entry 1.0); desktop-file-validate checks it. */
export function desktopEntry() {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Store Doctor',
    `Comment=${pkg.description}`,
    `Exec=/usr/bin/${APP_NAME}-app %U`,
    `Icon=${APP_NAME}`,
    'Terminal=false',
    'Categories=Utility;',
    'Keywords=Fluent Bit;S3;store_dir;buffer;',
    `StartupWMClass=${pkg.productName ?? 'Store Doctor'}`,
    '',
  ].join('\n');
}

function debControl(installedKb) {
  const author = typeof pkg.author === 'string' ? pkg.author : `${pkg.author.name} <${pkg.author.email}>`;
  return [
    `Package: ${APP_NAME}`,
    `Version: ${pkg.version}`,
    'Section: utils',
    'Priority: optional',
    'Architecture: amd64',
    `Maintainer: ${author}`,
    `Installed-Size: ${installedKb}`,
    // Electron's runtime libraries (as electron-builder's deb target declares them)
    'Depends: libgtk-3-0 | libgtk-3-0t64, libnotify4, libnss3, libxss1, libxtst6, xdg-utils, libatspi2.0-0 | libatspi2.0-0t64, libuuid1, libsecret-1-0',
    `Homepage: ${pkg.homepage}`,
    `Description: ${pkg.description.replace(/\.$/, '')}`,
    ' Desktop app of Store Doctor: inspect, diagnose, repair and replay the',
    ' buffers (store_dir) of the Fluent Bit S3 output.',
    '',
  ].join('\n');
}

function duKb(dir) {
  let bytes = 0;
  for (const rel of fs.readdirSync(dir, { recursive: true })) {
    const st = fs.lstatSync(path.join(dir, rel));
    if (st.isFile()) bytes += st.size;
  }
  return Math.ceil(bytes / 1024);
}

/** The .deb from electron-builder's linux-unpacked folder, with dpkg-deb (root-owned files). */
function buildDeb(unpacked, icons, outDir, work) {
  const tree = path.join(work, 'deb');
  const opt = path.join(tree, 'opt', APP_NAME);
  fs.mkdirSync(path.dirname(opt), { recursive: true });
  fs.cpSync(unpacked, opt, { recursive: true, verbatimSymlinks: true });
  const exe = fs.readdirSync(opt).find((f) => f === APP_NAME || f === pkg.productName);
  if (!exe) throw new Error(`no app binary in ${unpacked}`);
  fs.mkdirSync(path.join(tree, 'usr', 'bin'), { recursive: true });
  fs.symlinkSync(`/opt/${APP_NAME}/${exe}`, path.join(tree, 'usr', 'bin', `${APP_NAME}-app`));
  fs.mkdirSync(path.join(tree, 'usr', 'share', 'applications'), { recursive: true });
  fs.writeFileSync(path.join(tree, 'usr', 'share', 'applications', DESKTOP_FILE), desktopEntry());
  for (const { size, file } of icons) {
    const dir = path.join(tree, 'usr', 'share', 'icons', 'hicolor', `${size}x${size}`, 'apps');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(file, path.join(dir, `${APP_NAME}.png`));
  }
  const debian = path.join(tree, 'DEBIAN');
  fs.mkdirSync(debian);
  fs.writeFileSync(path.join(debian, 'control'), debControl(duKb(tree)));
  // Chromium's setuid sandbox helper needs its mode back after unpacking (as electron-builder's deb does).
  fs.writeFileSync(
    path.join(debian, 'postinst'),
    `#!/bin/sh\nset -e\nif [ -f /opt/${APP_NAME}/chrome-sandbox ]; then chmod 4755 /opt/${APP_NAME}/chrome-sandbox; fi\nupdate-desktop-database /usr/share/applications >/dev/null 2>&1 || true\n`,
    { mode: 0o755 },
  );
  const deb = path.join(outDir, `${APP_NAME}_${pkg.version}_amd64.deb`);
  run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', tree, deb]);
  return deb;
}

export function packageLinux({ build = true, outDir = path.join(root, 'dist'), quiet = false } = {}) {
  const log = (s) => quiet || process.stdout.write(`${s}\n`);
  if (!fs.existsSync(SEVEN_ZIP)) throw new Error(`${SEVEN_ZIP} is missing: apt-get install p7zip-full`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-package-linux-'));
  try {
    if (build) run(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
    const icons = renderIcons();
    const dist = electronDist(work);
    if (dist.stub) log('note: the real Electron binary is not installed (it cannot be downloaded here): packaging a stub Electron');
    const builderOut = path.join(work, 'builder');
    const builderCli = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
    run(
      process.execPath,
      [
        builderCli,
        '--linux',
        'tar.gz',
        '--x64',
        '--publish',
        'never',
        `-c.electronDist=${dist.dir}`,
        `-c.directories.output=${builderOut}`,
        '-c.linux.artifactName=${name}-${version}-linux-${arch}.${ext}',
      ],
      { env: { ELECTRON_BUILDER_OFFLINE: 'true', CSC_IDENTITY_AUTO_DISCOVERY: 'false', ELECTRON_BUILDER_7ZIP_PATH: SEVEN_ZIP } },
    );
    fs.mkdirSync(outDir, { recursive: true });
    const tarName = `${APP_NAME}-${pkg.version}-linux-x64.tar.gz`;
    if (!fs.existsSync(path.join(builderOut, tarName))) throw new Error(`electron-builder wrote no ${tarName}: ${fs.readdirSync(builderOut).join(', ')}`);
    const tarGz = path.join(outDir, tarName);
    fs.copyFileSync(path.join(builderOut, tarName), tarGz);
    const deb = buildDeb(path.join(builderOut, 'linux-unpacked'), icons, outDir, work);
    log(`built ${path.relative(root, tarGz)} and ${path.relative(root, deb)}${dist.stub ? ' (stub Electron)' : ''}`);
    return { tarGz, deb, stub: dist.stub };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const out = argv.indexOf('--out');
  try {
    packageLinux({ build: !argv.includes('--no-build'), outDir: out === -1 ? undefined : path.resolve(argv[out + 1]) });
  } catch (err) {
    process.stderr.write(`package-linux: ${err.message}\n`);
    process.exit(1);
  }
}
