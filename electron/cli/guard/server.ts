/**
 * The guard's HTTP endpoint (`--metrics host:port`, default 127.0.0.1:9464): `GET /metrics`
 * (Prometheus text), `GET /healthz` (200 while the guard runs, 503 when it cannot work), `GET
 * /report.json` (the node report for `store-doctor fleet`). Nothing else; read-only.
 */
import * as http from 'node:http';
import type { NodeReport } from '../../../shared/fleet';
import type { GuardMetrics } from '../../engine/guard/metrics';

export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port < 0 || port > 65535) throw new Error(`--metrics ${text}: give host:port, e.g. 127.0.0.1:9464`);
  return { host: m[1] ?? m[2], port };
}

/**
 * Bounds of the endpoint, so no client can hold the guard's descriptors (1,024 in a container)
 * that its restores need: connections beyond `maxConnections` are closed as they arrive; a
 * connection idle for `idleTimeoutMs` (nothing sent, or kept alive after a response) is closed;
 * headers must arrive within `headersTimeoutMs`, the whole request within `requestTimeoutMs`.
 * A scraper needs one connection at a time.
 */
export const GUARD_HTTP_LIMITS = {
  maxConnections: 32,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 10_000,
  /** How often Node checks the header and request timeouts. */
  checkIntervalMs: 1_000,
} as const;

export interface GuardServer {
  url: string;
  close(): Promise<void>;
}

export function startGuardServer(listen: { host: string; port: number }, metrics: GuardMetrics, report: () => NodeReport): Promise<GuardServer> {
  const L = GUARD_HTTP_LIMITS;
  const options: http.ServerOptions = {
    headersTimeout: L.headersTimeoutMs,
    requestTimeout: L.requestTimeoutMs,
    keepAliveTimeout: L.keepAliveTimeoutMs,
    connectionsCheckingInterval: L.checkIntervalMs,
    maxHeaderSize: 8 * 1024,
  };
  const server = http.createServer(options, (req, res) => {
    const send = (code: number, type: string, body: string) => {
      res.writeHead(code, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'only GET\n');
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/metrics') {
      metrics.text().then(
        (t) => send(200, metrics.contentType, t),
        (err: Error) => send(500, 'text/plain; charset=utf-8', `${err.message}\n`),
      );
      return;
    }
    if (url === '/healthz') {
      const r = report();
      const bad = r.guard.state === 'error' || r.guard.state === 'stopped';
      return send(bad ? 503 : 200, 'application/json', JSON.stringify({ state: r.guard.state, restores: r.guard.restores }) + '\n');
    }
    if (url === '/report.json') return send(200, 'application/json', JSON.stringify(report(), null, 2) + '\n');
    send(404, 'text/plain; charset=utf-8', 'not found: /metrics, /healthz, /report.json\n');
  });
  server.maxConnections = L.maxConnections;
  server.setTimeout(L.idleTimeoutMs, (socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      const a = server.address() as { address: string; port: number };
      const host = a.address.includes(':') ? `[${a.address}]` : a.address;
      resolve({ url: `http://${host}:${a.port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}
