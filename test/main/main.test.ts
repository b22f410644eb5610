/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped JSON replies and mock Electron objects */
/**
 * electron/main/main.ts wired against a mocked `electron`: the window it creates, the session
 * lock-down, and the IPC handler it registers.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => {
  const state = {
    windows: [] as { options: any; loadedFile?: string; loadedUrl?: string; webContents: any }[],
    ipcHandlers: new Map<string, (...args: any[]) => any>(),
    appHandlers: new Map<string, (...args: any[]) => any>(),
    headersHook: null as null | ((details: any, cb: (r: any) => void) => void),
    permissionRequest: null as null | ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void),
    permissionCheck: null as null | (() => boolean),
    sandboxEnabled: false,
    ready: null as null | Promise<void>,
    userData: '',
    privileged: null as unknown,
    protocolHandlers: new Map<string, (req: { url: string; method?: string }) => Promise<Response> | Response>(),
    openExternal: [] as string[],
  };
  return state;
});

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => h.windows;
    webContents = { isDestroyed: () => false, send: vi.fn() };
    constructor(readonly options: any) {
      h.windows.push(this as any);
    }
    once() {}
    on() {}
    show() {}
    loadFile(f: string) {
      (this as any).loadedFile = f;
      return Promise.resolve();
    }
    loadURL(u: string) {
      (this as any).loadedUrl = u;
      return Promise.resolve();
    }
  }
  let resolveReady: () => void;
  h.ready = new Promise<void>((r) => (resolveReady = r));
  const app = {
    isPackaged: false,
    getAppPath: () => '/opt/sd',
    getPath: () => h.userData,
    enableSandbox: () => {
      h.sandboxEnabled = true;
    },
    on: (name: string, fn: (...args: any[]) => any) => h.appHandlers.set(name, fn),
    whenReady: () => {
      setTimeout(() => resolveReady(), 0);
      return h.ready!;
    },
    quit: vi.fn(),
  };
  const session = {
    defaultSession: {
      webRequest: { onHeadersReceived: (fn: any) => (h.headersHook = fn) },
      setPermissionRequestHandler: (fn: any) => (h.permissionRequest = fn),
      setPermissionCheckHandler: (fn: any) => (h.permissionCheck = fn),
      setDevicePermissionHandler: () => {},
    },
  };
  const ipcMain = { handle: (c: string, fn: any) => h.ipcHandlers.set(c, fn), removeHandler: (c: string) => h.ipcHandlers.delete(c) };
  const dialog = { showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })), showErrorBox: vi.fn() };
  const shell = { openExternal: vi.fn((u: string) => h.openExternal.push(u)) };
  const protocol = {
    registerSchemesAsPrivileged: (s: unknown) => (h.privileged = s),
    handle: (scheme: string, fn: any) => h.protocolHandlers.set(scheme, fn),
  };
  return {
    app,
    BrowserWindow,
    session,
    ipcMain,
    dialog,
    shell,
    protocol,
    default: { app, BrowserWindow, session, ipcMain, dialog, shell, protocol },
  };
});

beforeAll(async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  h.userData = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-main-'));
  await import('../../electron/main/main');
  await h.ready;
  await vi.waitFor(() => expect(h.windows.length).toBe(1));
});

describe('Electron main (mocked electron)', () => {
  it('creates one window with secure preferences and loads the renderer from app:// (not file://)', async () => {
    const w = h.windows[0];
    expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(w.options.webPreferences.preload).toMatch(/out[\\/]preload[\\/]index\.js$|preload[\\/]index\.js$/);
    expect(w.loadedUrl).toBe('app://renderer/index.html');
    expect(w.loadedFile).toBeUndefined();
    expect(h.sandboxEnabled).toBe(true);
    expect(h.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false }) }]);
    // the handler answers with the CSP header even for a file that is not there
    const r = await h.protocolHandlers.get('app')!({ url: 'app://renderer/../../etc/passwd' });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('sets a CSP header on every response and denies permissions', () => {
    let headers: any;
    h.headersHook!({ responseHeaders: { 'X-Other': ['1'] } }, (r) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy'][0]).toContain("default-src 'self'");
    expect(headers['X-Other']).toEqual(['1']);
    let granted: boolean | undefined;
    h.permissionRequest!(null, 'media', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(h.permissionCheck!()).toBe(false);
  });

  it('denies new windows and foreign navigation for every web contents', () => {
    let openHandler: any;
    const on = new Map<string, any>();
    const contents = { setWindowOpenHandler: (fn: any) => (openHandler = fn), on: (n: string, fn: any) => on.set(n, fn) };
    h.appHandlers.get('web-contents-created')!({}, contents);
    expect(openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    // not a documentation URL: never handed to the system browser
    expect(h.openExternal).toEqual([]);
    const nav = { preventDefault: vi.fn() };
    on.get('will-navigate')(nav, 'https://evil.example/');
    expect(nav.preventDefault).toHaveBeenCalled();
    const own = { preventDefault: vi.fn() };
    on.get('will-navigate')(own, 'app://renderer/index.html');
    expect(own.preventDefault).not.toHaveBeenCalled();
    const file = { preventDefault: vi.fn() };
    on.get('will-navigate')(file, pathToFileURL('/tmp/index.html').href);
    expect(file.preventDefault).toHaveBeenCalled();
    expect(own.preventDefault).not.toHaveBeenCalled();
    const wv = { preventDefault: vi.fn() };
    on.get('will-attach-webview')(wv);
    expect(wv.preventDefault).toHaveBeenCalled();
  });

  it('binds the contract over IPC with a sender check', async () => {
    const handler = h.ipcHandlers.get('sd:request')!;
    const own = { senderFrame: { url: 'app://renderer/index.html', parent: null } };
    expect(await handler(own, 'app.info', {}, 't1')).toMatchObject({ ok: true, value: { door: 'electron' } });
    expect(await handler({ senderFrame: { url: 'https://evil.example/', parent: null } }, 'app.info', {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });
});
