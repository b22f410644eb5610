/**
 * The host's locks: a random session token on every request (header, cookie, or `?token=` on a
 * GET that then sets an HttpOnly SameSite=Strict cookie), a Host header that must name this
 * loopback port (DNS-rebinding defence), an Origin that must be ours, and strict headers.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CSP } from '../../shared/csp';

export const CSP = APP_CSP;

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
};

export function newToken(): string {
  return randomBytes(32).toString('hex');
}

export function cookieName(port: number): string {
  // Cookies are not port-scoped: name them per port so two hosts on one machine never mix tokens.
  return `sd_token_${port}`;
}

export function sameToken(a: string | undefined | null, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

export type AuthResult = { ok: true; viaQuery: boolean } | { ok: false };

/** Token from `Authorization: Bearer`, the session cookie, or (GET/HEAD only) `?token=`. */
export function authenticate(req: IncomingMessage, url: URL, token: string, port: number): AuthResult {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ') && sameToken(auth.slice(7).trim(), token)) return { ok: true, viaQuery: false };
  if (sameToken(readCookie(req, cookieName(port)), token)) return { ok: true, viaQuery: false };
  if ((req.method === 'GET' || req.method === 'HEAD') && sameToken(url.searchParams.get('token'), token)) return { ok: true, viaQuery: true };
  return { ok: false };
}

export function sessionCookie(token: string, port: number): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Host must be exactly `127.0.0.1:<port>` or `localhost:<port>`. */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** A browser-sent Origin (when present) must be this host. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

export function applySecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  // Encoded once: a store's report is tens of MB, and Buffer.byteLength plus res.end(text) encoded it twice.
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': bytes.length });
  res.end(bytes);
}

/** Transport-level refusal (not a contract Reply): `{ error: { code, message } }`. */
export function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { ok: false, error: { code, message } });
}
