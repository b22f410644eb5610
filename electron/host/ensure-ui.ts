/**
 * The UI the host serves must be there: `npm install` builds it (the `prepare` script), and when
 * it is still missing — a checkout whose renderer was never built, or cleaned — `serve` builds it
 * once from the checkout's sources, saying so in one line on stderr. Where it cannot be built
 * (no sources: an installed package without its UI), one line on stderr says how to get it; the
 * API works either way.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface EnsureUiResult {
  state: 'present' | 'built' | 'missing';
  /** The line written to stderr, if any. */
  message: string | null;
}

/** The checkout's vite and renderer config, when this is a checkout with its dev dependencies. */
function buildTools(root: string): { vite: string; config: string } | null {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = path.join(root, 'vite.renderer.config.ts');
  return fs.existsSync(vite) && fs.existsSync(config) && fs.existsSync(path.join(root, 'renderer', 'index.html')) ? { vite, config } : null;
}

/**
 * `build: false` only reports (a folder the user named is never emptied and built into: only the
 * default out/renderer is).
 */
export function ensureUiBuilt(dir: string, root: string, opts: { build: boolean; log?: (line: string) => void } = { build: true }): EnsureUiResult {
  const log = opts.log ?? ((l: string) => void process.stderr.write(`${l}\n`));
  if (fs.existsSync(path.join(dir, 'index.html'))) return { state: 'present', message: null };
  const tools = opts.build ? buildTools(root) : null;
  if (!tools) {
    const message = `store-doctor: the UI is not built (no ${path.join(dir, 'index.html')}); the page says so, the API under /api/ works. In a checkout run \`npm run build:web\`.`;
    log(message);
    return { state: 'missing', message };
  }
  const started = Date.now();
  log(`store-doctor: the UI is not built yet: building it once into ${dir} (vite build)…`);
  const r = spawnSync(process.execPath, [tools.vite, 'build', '--config', tools.config, '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (r.status !== 0 || !fs.existsSync(path.join(dir, 'index.html'))) {
    const why = (r.stderr || r.stdout || r.error?.message || '').trim().split('\n').slice(-3).join(' ');
    const message = `store-doctor: building the UI failed (${why || `exit ${r.status}`}); the API under /api/ works. Run \`npm run build:web\` to see why.`;
    log(message);
    return { state: 'missing', message };
  }
  const message = `store-doctor: the UI is built (${((Date.now() - started) / 1000).toFixed(1)} s).`;
  log(message);
  return { state: 'built', message };
}
