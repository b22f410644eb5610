// package:smoke's checks of the .deb (scripts/package-linux.mjs): control fields (dpkg-deb --info),
// the file list (dpkg-deb -c), the desktop entry (desktop-file-validate, and that its Exec and Icon
// resolve inside the package), the hicolor icons (real PNGs of their folder's size), the same
// app.asar as the tar.gz, and the fuses of the packaged binary.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
function pngSize(buf) {
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (buf.length < 24 || !buf.subarray(0, 8).equals(magic) || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

export async function checkDebPackage({ deb, asarFile, work, check, run, fuseLib, want }) {
  const info = run('dpkg-deb', ['--info', deb]).stdout;
  const field = (name) => new RegExp(`^ ${name}: (.*)$`, 'm').exec(info)?.[1];
  check('deb: Package store-doctor, Architecture amd64', field('Package') === 'store-doctor' && field('Architecture') === 'amd64');
  check(`deb: Version ${pkg.version}`, field('Version') === pkg.version, field('Version'));
  check(
    'deb: Maintainer, Homepage and Description from package.json',
    field('Homepage') === pkg.homepage && /<.+@.+>/.test(field('Maintainer') ?? '') && !!field('Description'),
  );
  check('deb: Depends on the libraries Electron needs', /libnss3/.test(field('Depends') ?? '') && /libgtk-3-0/.test(field('Depends') ?? ''));

  const list = run('dpkg-deb', ['-c', deb]).stdout;
  const paths = list
    .split('\n')
    .filter(Boolean)
    .map((l) => /\.(\/.*?)(?: -> .*)?$/.exec(l)?.[1]);
  const owners = new Set(
    list
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(/\s+/)[1]),
  );
  check('deb: every file owned by root/root', owners.size === 1 && owners.has('root/root'), [...owners].join(', '));
  for (const p of [
    '/opt/store-doctor/resources/app.asar',
    '/opt/store-doctor/store-doctor',
    '/usr/bin/store-doctor-app',
    `/usr/share/applications/${pkg.desktopName}`,
  ]) {
    check(`deb holds ${p}`, paths.includes(p));
  }
  check(
    'deb holds nothing outside /opt/store-doctor and /usr',
    paths.every((p) => p === '/' || /^\/(opt|opt\/store-doctor(\/.*)?|usr(\/.*)?)\/?$/.test(p)),
  );

  const tree = path.join(work, 'deb-x');
  run('dpkg-deb', ['-x', deb, tree]);
  const desktop = path.join(tree, 'usr', 'share', 'applications', pkg.desktopName);
  const validate = spawnSync('desktop-file-validate', [desktop], { encoding: 'utf8' });
  check(
    'deb: desktop entry passes desktop-file-validate',
    validate.status === 0 && `${validate.stdout}${validate.stderr}`.trim() === '',
    `${validate.stdout}${validate.stderr}`.trim(),
  );
  const entry = fs.readFileSync(desktop, 'utf8');
  const exec = /^Exec=(\S+)/m.exec(entry)?.[1];
  const icon = /^Icon=(.+)$/m.exec(entry)?.[1];
  const link = exec ? fs.readlinkSync(path.join(tree, exec)) : '';
  check(
    'deb: the desktop entry runs /usr/bin/store-doctor-app → the app binary',
    exec === '/usr/bin/store-doctor-app' && link === '/opt/store-doctor/store-doctor',
    `${exec} → ${link}`,
  );
  check('deb: the desktop entry names the icon store-doctor', icon === 'store-doctor');
  const iconDirs = fs.readdirSync(path.join(tree, 'usr', 'share', 'icons', 'hicolor'));
  for (const size of [16, 32, 48, 128, 256, 512]) {
    const file = path.join(tree, 'usr', 'share', 'icons', 'hicolor', `${size}x${size}`, 'apps', `${icon}.png`);
    const got = fs.existsSync(file) ? pngSize(fs.readFileSync(file)) : null;
    check(`deb: icon ${size}x${size} is a ${size}×${size} PNG`, got?.width === size && got?.height === size, got ? `${got.width}×${got.height}` : 'missing');
  }
  check(
    'deb: icon folders are all <n>x<n>',
    iconDirs.every((d) => /^\d+x\d+$/.test(d)),
    iconDirs.join(', '),
  );

  const debAsar = path.join(tree, 'opt', 'store-doctor', 'resources', 'app.asar');
  check('deb: app.asar is the tar.gz’s', fs.existsSync(debAsar) && fs.readFileSync(debAsar).equals(fs.readFileSync(asarFile)));
  const wire = await fuseLib.fuses.getCurrentFuseWire(path.join(tree, 'opt', 'store-doctor', 'store-doctor'));
  for (const [name, on] of Object.entries(want)) {
    const state = wire?.[fuseLib.fuses.FuseV1Options[name]];
    check(`deb: packaged binary fuse ${name} ${on ? 'on' : 'off'}`, state === (on ? fuseLib.FuseState.ENABLE : fuseLib.FuseState.DISABLE), `state ${state}`);
  }
}
