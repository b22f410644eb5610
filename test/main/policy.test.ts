import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_CSP, dialogFor, isTrustedRendererUrl, rendererLocation, secureWebPreferences } from '../../electron/main/policy';

describe('Electron policy', () => {
  it('window preferences are isolated, sandboxed and without Node', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.js');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
  });

  it('CSP allows only our own origin', () => {
    expect(APP_CSP).toContain("default-src 'self'");
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).not.toMatch(/unsafe-eval|\*/);
  });

  it('trusts only the app page (app://renderer) or the loopback dev server', () => {
    const mainDir = path.resolve('/app/out/main');
    const loc = rendererLocation(mainDir, {});
    const own = 'app://renderer/index.html';
    expect(isTrustedRendererUrl(own, loc)).toBe(true);
    expect(isTrustedRendererUrl(`${own}#/chunks`, loc)).toBe(true);
    expect(isTrustedRendererUrl(pathToFileURL(path.join(mainDir, '..', 'renderer', 'index.html')).href, loc)).toBe(false);
    expect(isTrustedRendererUrl(pathToFileURL('/tmp/evil.html').href, loc)).toBe(false);
    expect(isTrustedRendererUrl('https://example.com/', loc)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173/', loc)).toBe(false);
    expect(isTrustedRendererUrl('', loc)).toBe(false);
    expect(isTrustedRendererUrl('not a url', loc)).toBe(false);

    const dev = rendererLocation(mainDir, { ELECTRON_RENDERER_URL: 'http://localhost:5173' });
    expect(isTrustedRendererUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false);
    // A dev URL is ignored in a packaged app and when it is not loopback.
    expect(rendererLocation(mainDir, { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, true).devUrl).toBeNull();
    expect(rendererLocation(mainDir, { ELECTRON_RENDERER_URL: 'http://evil.example:5173' }).devUrl).toBeNull();
  });

  it('has a dialog for each kind of path', () => {
    expect(dialogFor('folder').properties).toContain('openDirectory');
    expect(dialogFor('archive').filters?.[0].extensions).toEqual(expect.arrayContaining(['tar', 'gz', 'tgz']));
    expect(dialogFor('config').filters?.[0].extensions).toEqual(expect.arrayContaining(['conf', 'yaml']));
    expect(dialogFor('listing').filters?.[0].extensions).toEqual(['json']);
  });
});
