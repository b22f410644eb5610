/**
 * The single executable (Node SEA, `npm run package:cli`) carries the built UI and the demo store
 * as embedded assets, listed in the asset `assets.json`. `serve` needs them as files: they are
 * written once per run into a new private temporary folder (mode 0700), removed again when the
 * host stops. Outside the single executable nothing here runs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ASSET_INDEX = 'assets.json';

interface SeaModule {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

function seaModule(): SeaModule | null {
  try {
    return require('node:sea') as SeaModule;
  } catch {
    return null; // a Node without SEA support
  }
}

export function inSingleExecutable(): boolean {
  return seaModule()?.isSea() === true;
}

export interface ExtractedAssets {
  /** The folder holding `renderer/` and `demo/`. */
  root: string;
  renderer: string;
  demo: string;
  remove(): void;
}

/** Asset keys are ours (written by the build), but they become paths: only plain relative ones. */
function safeKey(key: string): boolean {
  return /^(renderer|demo)\/[A-Za-z0-9._/-]+$/.test(key) && !key.split('/').some((p) => p === '' || p === '.' || p === '..');
}

/** Writes the embedded UI and demo store to a new private folder; null outside the single executable. */
export function extractSeaAssets(): ExtractedAssets | null {
  const sea = seaModule();
  if (!sea?.isSea()) return null;
  const keys = JSON.parse(sea.getAsset(ASSET_INDEX, 'utf8')) as string[];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'store-doctor-ui-'));
  const remove = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    for (const key of keys) {
      if (!safeKey(key)) throw new Error(`embedded asset "${key}": not a plain relative path`);
      const file = path.join(root, ...key.split('/'));
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, Buffer.from(sea.getAsset(key)), { flag: 'wx', mode: 0o600 });
    }
  } catch (err) {
    remove();
    throw err;
  }
  return { root, renderer: path.join(root, 'renderer'), demo: path.join(root, 'demo'), remove };
}
