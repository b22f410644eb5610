/**
 * Issue 9 item 5 (code review; the Electron binary cannot run here): the renderer is served from
 * the privileged `app://` scheme with the full CSP as a response header and paths confined to the
 * renderer folder; the meta tag equals the header CSP; the packaged config flips the fuses;
 * `shell.openExternal` is allowlisted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP, APP_CSP_META } from '../../shared/csp';
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, appResponse, handleAppScheme, registerAppScheme } from '../../electron/main/protocol';
import { isAllowedExternalUrl, isTrustedRendererUrl, rendererLocation, DOCUMENTATION_URLS } from '../../electron/main/policy';

const ROOT = path.join(__dirname, '../..');
let tmp: string;
let dir: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-app-proto-'));
  dir = path.join(tmp, 'renderer');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'SECRET');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dir, 'assets', 'leak.js'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('app:// responses', () => {
  it('serve the renderer with the full CSP (and the other security headers) as response headers', async () => {
    for (const url of [APP_INDEX_URL, 'app://renderer/', 'app://renderer/assets/app.js', 'app://renderer/chunks?x=1#y']) {
      const r = await appResponse(url, dir);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('content-security-policy'), url).toBe(APP_CSP);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const js = await appResponse('app://renderer/assets/app.js', dir);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
  });

  it('refuse traversal, symlinks out of the folder, other hosts and methods — with the CSP too', async () => {
    const bad = [
      'app://renderer/../secret.txt',
      'app://renderer/..%2fsecret.txt',
      'app://renderer/%2e%2e/secret.txt',
      'app://renderer/assets/..%2f..%2fsecret.txt',
      'app://renderer/assets/leak.js',
      'app://renderer/%00index.html',
      'app://other/index.html',
      'file:///etc/passwd',
    ];
    for (const url of bad) {
      const r = await appResponse(url, dir);
      expect(r.status, url).toBe(404);
      expect(await r.text(), url).not.toContain('SECRET');
      expect(r.headers.get('content-security-policy'), url).toBe(APP_CSP);
    }
    expect((await appResponse(APP_INDEX_URL, dir, 'POST')).status).toBe(405);
  });

  it('registers app: as a privileged standard, secure scheme that does not bypass the CSP, and handles it', async () => {
    const calls: { registered?: unknown; scheme?: string; handler?: (r: { url: string }) => Response | Promise<Response> } = {};
    const protocol = {
      registerSchemesAsPrivileged: (s: unknown) => (calls.registered = s),
      handle: (scheme: string, handler: (r: { url: string }) => Response | Promise<Response>) => Object.assign(calls, { scheme, handler }),
    };
    registerAppScheme(protocol);
    handleAppScheme(protocol, dir);
    expect(calls.registered).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false }) }]);
    expect(APP_SCHEME_PRIVILEGES.privileges.bypassCSP).toBe(false);
    expect(calls.scheme).toBe('app');
    const r = await calls.handler!({ url: APP_INDEX_URL });
    expect(r.headers.get('content-security-policy')).toBe(APP_CSP);
  });

  it('the window trusts app://renderer only (not file://, not another host)', () => {
    const loc = rendererLocation('/opt/sd/out/main', {});
    expect(loc.url).toBe(APP_INDEX_URL);
    expect(loc.rendererDir).toBe(path.resolve('/opt/sd/out/renderer'));
    expect(isTrustedRendererUrl(APP_INDEX_URL, loc)).toBe(true);
    expect(isTrustedRendererUrl('app://renderer/index.html#/chunks', loc)).toBe(true);
    expect(isTrustedRendererUrl('file:///opt/sd/out/renderer/index.html', loc)).toBe(false);
    expect(isTrustedRendererUrl('app://evil/index.html', loc)).toBe(false);
    expect(isTrustedRendererUrl('app://user@renderer/index.html', loc)).toBe(false);
  });
});

describe('the meta tag CSP equals the header CSP', () => {
  it('renderer/index.html: every directive of the header, but frame-ancestors (ignored in a meta tag, with a console error)', () => {
    const html = fs.readFileSync(path.join(ROOT, 'renderer/index.html'), 'utf8');
    const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
    expect(m?.[1]).toBe(APP_CSP_META);
    const header = APP_CSP.split('; ');
    expect(header).toContain("frame-ancestors 'none'");
    expect(APP_CSP_META.split('; ')).toEqual(header.filter((d) => !d.startsWith('frame-ancestors')));
  });
});

describe('Electron fuses in the packaging config', () => {
  it('electron-builder.yml flips the fuses, with option names electron-builder knows', () => {
    const cfg = parse(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as { electronFuses?: Record<string, boolean> };
    expect(cfg.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
    const scheme = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const known = Object.keys(scheme.definitions.FuseOptionsV1.properties);
    for (const k of Object.keys(cfg.electronFuses!)) expect(known, k).toContain(k);
  });
});

describe('shell.openExternal allowlist', () => {
  it('opens only the documentation URLs, over https, without credentials', () => {
    const docs = ['https://docs.example.org/store-doctor/'];
    expect(isAllowedExternalUrl('https://docs.example.org/store-doctor/repair.html', docs)).toBe(true);
    expect(isAllowedExternalUrl('https://docs.example.org/store-doctor-evil/x', docs)).toBe(false);
    expect(isAllowedExternalUrl('http://docs.example.org/store-doctor/repair.html', docs)).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@docs.example.org/store-doctor/', docs)).toBe(false);
    expect(isAllowedExternalUrl('https://docs.example.org.evil.example/store-doctor/', docs)).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd', docs)).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)', docs)).toBe(false);
    // the app's own list
    expect(isAllowedExternalUrl('https://evil.example/')).toBe(false);
    for (const u of DOCUMENTATION_URLS) expect(u.startsWith('https://')).toBe(true);
  });
});
