#!/usr/bin/env node
// The app's icon set: build/icon.svg rendered to build/icons/<n>x<n>.png with resvg (@resvg/resvg-js),
// where electron-builder (linux.icon) and the .deb (usr/share/icons/hicolor) take them from.
// `npm run package:linux` runs it; `node scripts/icons.mjs` on its own writes them and prints the files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ICON_SVG = path.join(root, 'build', 'icon.svg');
export const ICON_DIR = path.join(root, 'build', 'icons');
/** The hicolor sizes a desktop needs (menus 16–48, launchers 64–256, HiDPI 512). */
export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

export function renderIcons() {
  const svg = fs.readFileSync(ICON_SVG);
  fs.mkdirSync(ICON_DIR, { recursive: true });
  return ICON_SIZES.map((size) => {
    const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
    const file = path.join(ICON_DIR, `${size}x${size}.png`);
    fs.writeFileSync(file, png);
    return { size, file };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { file } of renderIcons()) process.stdout.write(`${path.relative(root, file)}\n`);
}
