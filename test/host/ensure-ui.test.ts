/**
 * `serve` on a checkout whose UI was never built (issue 12, item 2): it is built once, with one
 * line saying so; a folder given with --renderer is never emptied or built into; without the
 * checkout's sources one line says how to get the UI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureUiBuilt } from '../../electron/host/ensure-ui';
import { PROJECT_ROOT } from '../../electron/host';
import { tempDir } from '../support/fixtures';

describe('ensureUiBuilt', () => {
  it('builds the renderer from the checkout into an empty folder, saying so in one line, then finds it built', { timeout: 120_000 }, () => {
    const t = tempDir('sd-ui-');
    try {
      const dir = path.join(t.dir, 'renderer');
      const lines: string[] = [];
      const r = ensureUiBuilt(dir, PROJECT_ROOT, { build: true, log: (l) => lines.push(l) });
      expect(r.state).toBe('built');
      expect(lines[0]).toBe(`store-doctor: the UI is not built yet: building it once into ${dir} (vite build)…`);
      expect(lines[1]).toMatch(/^store-doctor: the UI is built \(\d+\.\d s\)\.$/);
      const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
      expect(html).toContain('<div id="root">');
      expect(fs.readdirSync(path.join(dir, 'assets')).some((f) => f.endsWith('.js'))).toBe(true);
      const again: string[] = [];
      expect(ensureUiBuilt(dir, PROJECT_ROOT, { build: true, log: (l) => again.push(l) })).toEqual({ state: 'present', message: null });
      expect(again).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('never builds into a folder the user named, and says how to get the UI where it cannot be built', () => {
    const t = tempDir('sd-ui-');
    try {
      fs.writeFileSync(path.join(t.dir, 'keep.txt'), 'mine');
      const lines: string[] = [];
      expect(ensureUiBuilt(t.dir, PROJECT_ROOT, { build: false, log: (l) => lines.push(l) }).state).toBe('missing');
      expect(fs.readFileSync(path.join(t.dir, 'keep.txt'), 'utf8')).toBe('mine');
      expect(lines).toEqual([
        `store-doctor: the UI is not built (no ${path.join(t.dir, 'index.html')}); the page says so, the API under /api/ works. In a checkout run \`npm run build:web\`.`,
      ]);
      // an installed package (no sources to build from)
      const other: string[] = [];
      expect(ensureUiBuilt(path.join(t.dir, 'none'), t.dir, { build: true, log: (l) => other.push(l) }).state).toBe('missing');
      expect(other).toHaveLength(1);
    } finally {
      t.cleanup();
    }
  });

  it('npm install builds the UI: the prepare script builds the CLI and the renderer', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toMatch(/build-cli\.mjs/);
    expect(pkg.scripts.prepare).toMatch(/vite build --config vite\.renderer\.config\.ts/);
  });
});
