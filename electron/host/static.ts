/**
 * Serves the built renderer (`out/renderer`). Paths are resolved inside the renderer folder only;
 * routes without a file extension fall back to `index.html` (single-page app).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type the UI's files are served with (host and Electron's app:// scheme). */
export function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Resolve a URL path to a file inside `dir`, or null when it escapes or does not exist. */
export function resolveStatic(dir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const root = path.resolve(dir);
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  let file = path.resolve(root, rel);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (!fs.existsSync(file) && !path.extname(rel)) file = path.join(root, 'index.html');
  try {
    const real = fs.realpathSync(file);
    const realRoot = fs.realpathSync(root);
    if (!real.startsWith(realRoot + path.sep)) return null;
    return fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

export function serveStatic(res: ServerResponse, dir: string | null, urlPath: string, head: boolean, extraHeaders: Record<string, string> = {}): void {
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', ...extraHeaders });
    res.end(
      'The Store Doctor UI is not built. In a checkout run `npm run build:web` (or `npm install`, which builds it) and reload; the API under /api/ works.\n',
    );
    return;
  }
  const file = resolveStatic(dir, urlPath);
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...extraHeaders });
    res.end('not found\n');
    return;
  }
  const type = contentTypeOf(file);
  const size = fs.statSync(file).size;
  const cache = file.endsWith('index.html') ? 'no-store' : 'private, max-age=3600';
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Cache-Control': cache, ...extraHeaders });
  if (head) {
    res.end();
    return;
  }
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
