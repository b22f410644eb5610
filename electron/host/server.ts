/**
 * The loopback host: the contract over HTTP on 127.0.0.1, for the UI in a browser (headless
 * servers over an SSH tunnel, and the browser tests). It is a door, not a second engine:
 *   POST /api/<request>   body `{ taskId?, input }` → a `Reply` (HTTP 200 whatever the outcome)
 *   GET  /api/events      Server-Sent Events (progress, store.changed)
 *   GET  /…               the built renderer (`out/renderer`), `index.html` for `/`
 * Non-200 answers are transport refusals: 401 token, 421 Host, 403 Origin, 404, 405, 408 (a body
 * that trickles in), 413, 415.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../../shared/contract';
import { createEngine } from '../engine';
import { dispatchRequest } from '../engine/session/dispatch';
import { EventHub } from './events';
import { applySecurityHeaders, authenticate, hostAllowed, newToken, originAllowed, refuse, sendJson, sessionCookie } from './security';
import { serveStatic } from './static';
import { defaultStateDir, openInitial } from './open';

export interface HostOptions {
  /** Default: a random free port. */
  port?: number;
  /** Only loopback is allowed. */
  host?: '127.0.0.1';
  /** Default: a new engine (door `host`), disposed by `close()`. */
  engine?: Engine;
  /** Built renderer; default `<project>/out/renderer`. */
  rendererDir?: string | null;
  /** Open this store (or `'demo'`) before the URL is handed out. */
  openPath?: string;
  /**
   * With `openPath`: hand out the URL as soon as the server listens and open the store meanwhile
   * (the browser loads the page while the store is read); API requests wait until it is open.
   * `opened` says how that ended.
   */
  openInBackground?: boolean;
  demoDir?: string;
  stateDir?: string;
  /** Largest accepted request body (default 256 MiB: offline listings can be big). */
  maxBodyBytes?: number;
  /**
   * Longest wait for a whole request body, and for each piece of it (default 60 s / 15 s): a body
   * that trickles in is answered 408. The work a request starts afterwards has no time limit.
   */
  bodyTimeoutMs?: number;
  /**
   * A connection not yet authenticated is closed after this long without a byte (default 10 s):
   * also one that never sends anything. Authenticated requests (long listings) are not cut by it.
   */
  preAuthIdleMs?: number;
  /** Fixed token (tests); default 32 random bytes. */
  token?: string;
}

export interface RunningHost {
  url: string;
  token: string;
  port: number;
  engine: Engine;
  /** Store opened from `openPath`, if any (null while it opens in the background). */
  storeId: string | null;
  /** Settles when the store of `openPath` is open (its id; null without one), or rejects with why it could not be. */
  opened: Promise<string | null>;
  close(): Promise<void>;
}

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const DEFAULT_RENDERER_DIR = path.join(PROJECT_ROOT, 'out', 'renderer');
export const DEFAULT_DEMO_DIR = path.join(PROJECT_ROOT, 'demo');
const REQUEST_NAME = /^[a-z][A-Za-z]*\.[A-Za-z]+$/;

type BodyResult = Buffer | 'too-large' | 'timeout';

/**
 * Read a request body, at most `limit` bytes, within `timeoutMs` in all and `idleMs` between
 * pieces. Stops reading at once when the body is too large or too slow (the caller answers and
 * closes the connection).
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number, idleMs: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return resolve('too-large');
    const parts: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const stop = (r: BodyResult) => {
      clearTimeout(total);
      clearTimeout(idle);
      req.off('data', onData);
      req.pause();
      resolve(r);
    };
    const total = setTimeout(() => stop('timeout'), timeoutMs);
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => stop('timeout'), idleMs);
    };
    const onData = (b: Buffer) => {
      size += b.length;
      if (size > limit) return stop('too-large');
      parts.push(b);
      arm();
    };
    arm();
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(total);
      clearTimeout(idle);
      resolve(Buffer.concat(parts));
    });
    req.on('error', (e) => {
      clearTimeout(total);
      clearTimeout(idle);
      reject(e);
    });
  });
}

/** Answer and close the connection: the rest of the body is never read. */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  res.on('finish', () => req.socket.destroy());
  refuse(res, status, 'invalid-input', message);
}

async function handleApi(engine: Engine, name: string, req: IncomingMessage, res: ServerResponse, maxBody: number, bodyTimeout: number): Promise<void> {
  if (req.method !== 'POST') return refuse(res, 405, 'invalid-input', 'use POST for /api/<request>');
  if (!REQUEST_NAME.test(name)) return refuse(res, 404, 'not-found', 'no such request');
  const type = String(req.headers['content-type'] ?? '');
  if (!type.toLowerCase().startsWith('application/json')) return refuse(res, 415, 'invalid-input', 'send Content-Type: application/json');
  const body = await readBody(req, maxBody, bodyTimeout, Math.min(bodyTimeout, 15_000));
  if (body === 'too-large') return refuseAndClose(req, res, 413, `request body larger than ${maxBody} bytes`);
  if (body === 'timeout') return refuseAndClose(req, res, 408, `request body not received within ${bodyTimeout} ms`);
  let envelope: unknown;
  try {
    envelope = body.length ? JSON.parse(body.toString('utf8')) : {};
  } catch {
    return sendJson(res, 200, { ok: false, error: { code: 'invalid-input', message: `${name}: body is not valid JSON` } });
  }
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope)) {
    return sendJson(res, 200, { ok: false, error: { code: 'invalid-input', message: `${name}: body must be { taskId?, input }` } });
  }
  const { taskId, input } = envelope as { taskId?: unknown; input?: unknown };
  // A page that goes away cancels its running request.
  const ac = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) ac.abort();
  };
  res.on('close', onClose);
  const reply = await dispatchRequest(engine, name, input ?? {}, { taskId: taskId as string | undefined, signal: ac.signal });
  res.off('close', onClose);
  if (!res.destroyed) sendJson(res, 200, reply);
}

export async function startHost(opts: HostOptions = {}): Promise<RunningHost> {
  if (opts.host !== undefined && opts.host !== '127.0.0.1') throw new Error('the host listens on 127.0.0.1 only');
  const ownEngine = !opts.engine;
  const engine = opts.engine ?? createEngine({ door: 'host', demoDir: opts.demoDir ?? DEFAULT_DEMO_DIR, stateDir: opts.stateDir ?? defaultStateDir() });
  const token = opts.token ?? newToken();
  const rendererDir = opts.rendererDir === undefined ? DEFAULT_RENDERER_DIR : opts.rendererDir;
  const maxBody = opts.maxBodyBytes ?? 256 * 1024 * 1024;
  const bodyTimeout = opts.bodyTimeoutMs ?? 60_000;
  const hub = new EventHub(engine);
  let port = 0;
  let ready: Promise<unknown> = Promise.resolve();

  const preAuthIdle = opts.preAuthIdleMs ?? 10_000;
  const server = http.createServer({ headersTimeout: Math.max(preAuthIdle, 1_000), connectionsCheckingInterval: 1_000 }, (req, res) => {
    applySecurityHeaders(res);
    // refused before authentication: answered, then closed (an announced body is never waited for)
    const refuseClose = (status: number, code: string, message: string) => {
      res.setHeader('Connection', 'close');
      res.on('finish', () => req.socket.destroy());
      refuse(res, status, code, message);
    };
    const fail = (err: unknown) => {
      if (!res.headersSent) refuse(res, 500, 'failed', (err as Error)?.message?.split('\n')[0] ?? 'internal error');
      else res.destroy();
    };
    try {
      if (!hostAllowed(req, port)) return refuseClose(421, 'forbidden', 'Host header must be 127.0.0.1:<port> or localhost:<port>');
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const auth = authenticate(req, url, token, port);
      if (!auth.ok) return refuseClose(401, 'forbidden', 'missing or wrong session token: open the URL printed by store-doctor serve');
      if (!originAllowed(req, port)) return refuseClose(403, 'forbidden', 'cross-origin requests are refused');
      req.socket.setTimeout(0); // authenticated: its work (a listing, a replay) may take long
      const cookie: Record<string, string> = auth.viaQuery ? { 'Set-Cookie': sessionCookie(token, port) } : {};
      if (url.pathname === '/api/events') {
        if (req.method !== 'GET') return refuse(res, 405, 'invalid-input', 'use GET for /api/events');
        for (const [k, v] of Object.entries(cookie)) res.setHeader(k, v);
        return hub.attach(res, (cb) => req.on('close', cb));
      }
      if (url.pathname.startsWith('/api/')) {
        // Requests wait for the store opened in the background, so the page sees it as opened.
        void ready.then(() => handleApi(engine, url.pathname.slice(5), req, res, maxBody, bodyTimeout)).catch(fail);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'invalid-input', 'only GET for pages');
      serveStatic(res, rendererDir, url.pathname, req.method === 'HEAD', cookie);
    } catch (err) {
      fail(err);
    }
  });
  server.requestTimeout = 0; // long requests (listing, replay) stream progress over SSE
  server.maxConnections = 256;
  // before authentication a connection may idle preAuthIdle at most (one that never sends a byte too)
  server.on('connection', (socket: import('node:net').Socket) => {
    socket.setTimeout(preAuthIdle);
    socket.once('timeout', () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  let storeId: string | null = null;
  const close = async () => {
    hub.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (ownEngine) await engine.dispose();
  };
  let opened: Promise<string | null> = Promise.resolve(null);
  if (opts.openPath && opts.openInBackground) {
    opened = openInitial(engine, opts.openPath);
    ready = opened.catch(() => undefined);
  } else {
    try {
      if (opts.openPath) storeId = await openInitial(engine, opts.openPath);
    } catch (err) {
      await close();
      throw err;
    }
    opened = Promise.resolve(storeId);
  }
  return { url: `http://127.0.0.1:${port}/?token=${token}`, token, port, engine, storeId, opened, close };
}
