/**
 * The renderer is served from a privileged custom scheme, `app://renderer/…`, not `file://`: a
 * `file://` page gets the weaker CSP of its meta tag only (response headers do not exist there)
 * and file-scheme privileges. Every `app://` response carries the full security headers (CSP
 * included) of the loopback host (host/security.ts), and a path is resolved inside the built
 * renderer folder only (host/static.ts resolveStatic: no `..`, no symlink out). No `electron`
 * import: main.ts passes Electron's `protocol`, tests pass a fake.
 */
import fs from 'node:fs';
import { SECURITY_HEADERS } from '../host/security';
import { contentTypeOf, resolveStatic } from '../host/static';

export const APP_SCHEME = 'app';
export const APP_HOST = 'renderer';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * `standard` (a real origin, relative URLs), `secure` (a secure context, like https), fetch
 * support for the page's own assets; no CSP bypass, no service workers, no CORS.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, bypassCSP: false, allowServiceWorkers: false, corsEnabled: false },
} as const;

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void;
  handle(scheme: string, handler: (request: { url: string; method?: string }) => Response | Promise<Response>): void;
}

function refused(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The response to one `app://` request: a file of `rendererDir`, or 404/405, always with the security headers. */
export async function appResponse(url: string, rendererDir: string, method = 'GET'): Promise<Response> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return refused(404, 'not found');
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return refused(404, 'not found');
  if (method !== 'GET' && method !== 'HEAD') return refused(405, 'only GET');
  // The raw path (before the URL parser folds `..`), so a traversal is refused, not redirected.
  const raw = url.toLowerCase().startsWith(APP_ORIGIN) ? url.slice(APP_ORIGIN.length).split(/[?#]/)[0] || '/' : u.pathname;
  const file = resolveStatic(rendererDir, raw);
  if (!file) return refused(404, 'not found');
  const body = method === 'HEAD' ? null : await fs.promises.readFile(file);
  return new Response(body, {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeOf(file), 'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'private, max-age=3600' },
  });
}

/** Before `app.whenReady()`: make `app:` a privileged standard scheme. */
export function registerAppScheme(protocol: ProtocolLike): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME_PRIVILEGES.scheme, privileges: { ...APP_SCHEME_PRIVILEGES.privileges } }]);
}

/** After ready: serve `rendererDir` on `app://renderer/`. */
export function handleAppScheme(protocol: ProtocolLike, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(request.url, rendererDir, request.method));
}
