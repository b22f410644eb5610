/**
 * The Electron shell's security policy as plain data and pure functions (no `electron` import),
 * so it is unit-tested directly: window preferences, CSP, which URLs may talk to the engine,
 * and the native dialog options for each kind of path the user can pick.
 */
import path from 'node:path';

import type { PickKind } from './channels';
import { APP_HOST, APP_INDEX_URL, APP_SCHEME } from './protocol';

export { IPC_EVENT, IPC_PICK_PATH, IPC_REQUEST, PICK_KINDS, type PickKind } from './channels';

export { APP_CSP } from '../../shared/csp';

/** webPreferences of the one window: isolated, sandboxed, no Node in the page. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  } as const;
}

/**
 * Where the renderer comes from: the built renderer folder next to the main bundle, served as
 * `app://renderer/index.html` (protocol.ts), or the electron-vite dev server
 * (`ELECTRON_RENDERER_URL`, loopback only) during development.
 */
export interface RendererLocation {
  indexFile: string;
  /** The folder `app://renderer/` serves (the folder of `indexFile`). */
  rendererDir: string;
  /** What the window loads: the dev server, else `app://renderer/index.html`. */
  url: string;
  devUrl: string | null;
}

export function rendererLocation(mainDir: string, env: NodeJS.ProcessEnv = process.env, packaged = false): RendererLocation {
  const dev = env.ELECTRON_RENDERER_URL;
  let devUrl: string | null = null;
  if (!packaged && dev) {
    try {
      const u = new URL(dev);
      if (u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1')) devUrl = u.origin;
    } catch {
      devUrl = null;
    }
  }
  const rendererDir = path.join(mainDir, '..', 'renderer');
  return { indexFile: path.join(rendererDir, 'index.html'), rendererDir, url: devUrl ?? APP_INDEX_URL, devUrl };
}

/**
 * May a frame at `url` use the engine? Only the app's own page: `app://renderer/…` (or the dev
 * server's origin in development). A `file://` page never does: the app is not loaded from files.
 */
export function isTrustedRendererUrl(url: string | undefined | null, loc: RendererLocation): boolean {
  if (!url) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (loc.devUrl !== null) return u.origin === loc.devUrl;
  return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password && !u.port;
}

/**
 * The only pages the app opens in the system browser (`shell.openExternal`): the project's own
 * documentation. The project publishes none yet, so nothing is opened; add a URL here when the
 * UI links to one. Everything else a page asks to open or navigate to is denied.
 */
export const DOCUMENTATION_URLS: readonly string[] = [];

/** Is `url` one of `allowed` (https, same origin, the same path or below it; no credentials)? */
export function isAllowedExternalUrl(url: string, allowed: readonly string[] = DOCUMENTATION_URLS): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  return allowed.some((a) => {
    const p = new URL(a);
    const dir = p.pathname.endsWith('/') ? p.pathname : `${p.pathname}/`;
    return u.origin === p.origin && (u.pathname === p.pathname || u.pathname.startsWith(dir));
  });
}

/** Navigation inside the window is allowed only to the app's own page (reloads). */
export function isAllowedNavigation(url: string, loc: RendererLocation): boolean {
  return isTrustedRendererUrl(url, loc);
}

export interface DialogSpec {
  title: string;
  properties: ('openFile' | 'openDirectory' | 'showHiddenFiles' | 'dontAddToRecent')[];
  filters?: { name: string; extensions: string[] }[];
}

export function dialogFor(kind: PickKind): DialogSpec {
  switch (kind) {
    case 'folder':
      return { title: 'Open a Fluent Bit store_dir or bucket root', properties: ['openDirectory', 'showHiddenFiles', 'dontAddToRecent'] };
    case 'archive':
      return {
        title: 'Open an archive of a store_dir',
        properties: ['openFile', 'dontAddToRecent'],
        filters: [
          { name: 'Store archives', extensions: ['tar', 'gz', 'tgz'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
    case 'config':
      return {
        title: 'Import a Fluent Bit configuration',
        properties: ['openFile', 'showHiddenFiles', 'dontAddToRecent'],
        filters: [
          { name: 'Fluent Bit config', extensions: ['conf', 'yaml', 'yml'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
    case 'listing':
      return {
        title: 'Import an S3 listing (aws s3api JSON)',
        properties: ['openFile', 'dontAddToRecent'],
        filters: [
          { name: 'JSON', extensions: ['json'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
  }
}
