/** The one Content-Security-Policy of the UI, sent by the Electron shell and by the loopback host. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The same policy for the `<meta>` tag of renderer/index.html: every directive but
 * `frame-ancestors`, which a browser ignores in a meta tag (and logs as a console error); the
 * response header (loopback host, Electron's app:// scheme) carries it.
 */
export const APP_CSP_META = APP_CSP.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors '))
  .join('; ');
