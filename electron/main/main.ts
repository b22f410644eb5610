/**
 * Electron main: one window with secure defaults over the shared engine. All logic lives in
 * the engine (`createEngine`), the IPC binding (`ipc.ts`) and the policy (`policy.ts`); this
 * file only wires them to Electron. Start with `--open=<path>` or `--open=demo` to open a
 * store before the window shows (npm start does).
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell, type WebContents } from 'electron';
import { createEngine } from '../engine';
import { openInitial } from '../host/open';
import { bindIpc, forwardEvents } from './ipc';
import { APP_CSP, dialogFor, isAllowedExternalUrl, isAllowedNavigation, rendererLocation, secureWebPreferences, type PickKind } from './policy';
import { handleAppScheme, registerAppScheme } from './protocol';

const renderer = rendererLocation(__dirname, process.env, app.isPackaged);
const demoDir = app.isPackaged ? path.join(process.resourcesPath, 'demo') : path.join(app.getAppPath(), 'demo');
const engine = createEngine({ door: 'electron', demoDir, stateDir: app.getPath('userData') });
let mainWindow: BrowserWindow | null = null;

function openArg(argv: string[]): string | null {
  const arg = argv.find((a) => a.startsWith('--open='));
  return arg ? arg.slice('--open='.length) || null : null;
}

function lockDownContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    // Nothing opens inside the app; only the project's documentation opens in the system browser.
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, renderer)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, renderer)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

async function pickPath(kind: PickKind): Promise<string | null> {
  const spec = dialogFor(kind);
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, spec) : await dialog.showOpenDialog(spec);
  return result.canceled || !result.filePaths.length ? null : result.filePaths[0];
}

function createWindow(): void {
  mainWindow = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Store Doctor',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(path.join(__dirname, '..', 'preload', 'index.js')),
  });
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  // app://renderer/index.html (protocol.ts), or the loopback dev server in development
  void mainWindow.loadURL(renderer.url);
}

// Before ready: app:// is a privileged standard scheme (the renderer is not loaded from file://).
registerAppScheme(protocol);
app.enableSandbox();
app.on('web-contents-created', (_event, contents) => lockDownContents(contents));

app.whenReady().then(async () => {
  // Every app:// response carries the full CSP and security headers itself.
  handleAppScheme(protocol, renderer.rendererDir);
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP], 'X-Content-Type-Options': ['nosniff'] } });
  });
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);

  bindIpc({ ipcMain, engine, renderer, pickPath });
  forwardEvents(engine, () => mainWindow?.webContents ?? null);

  const target = openArg(process.argv);
  if (target) {
    try {
      await openInitial(engine, target);
    } catch (err) {
      dialog.showErrorBox('Store Doctor', `Could not open ${target}: ${(err as Error).message}`);
    }
  }
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  void engine.dispose().finally(() => app.quit());
});
