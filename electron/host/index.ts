/** The loopback host door: `startHost()` serves the contract over HTTP + SSE and the built renderer. */
export { startHost, DEFAULT_RENDERER_DIR, PROJECT_ROOT, type HostOptions, type RunningHost } from './server';
export { defaultStateDir, openInitial } from './open';
export { CSP, SECURITY_HEADERS } from './security';
