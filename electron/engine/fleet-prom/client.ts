/**
 * A bounded client of the Prometheus HTTP API (instant and range queries): bearer token or basic
 * auth, TLS with a CA, a client certificate and insecure_skip_verify as Prometheus users know
 * them, a timeout per query (also sent as `timeout=`), a cap on the answer's size, and errors that
 * say what went wrong — nothing answers, refused credentials, Prometheus's own error, not an API.
 */
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { escapeField } from '../../../shared/escape';
import type { PrometheusConnection } from '../../../shared/fleet-prom';
import { EngineError } from '../engine-error';

/** A Prometheus answer larger than this is refused (5,000 nodes × all series is a few MB). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Series in one answer beyond this: refused, not read. */
export const MAX_SERIES = 200_000;
const MAX_TLS_FILE = 1024 * 1024;

export interface PromSample {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}
export interface PromAnswer {
  result: PromSample[];
  warnings: string[];
  /** From sending the query to the last byte of the answer: Prometheus's evaluation, encoding and transfer (not our parsing). */
  ms: number;
}

async function tlsFile(p: string | undefined, what: string): Promise<Buffer | undefined> {
  if (!p) return undefined;
  const st = await fsp.stat(p).catch((err: NodeJS.ErrnoException) => {
    throw new EngineError('invalid-input', `${what} ${escapeField(p)}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  if (!st.isFile() || st.size > MAX_TLS_FILE) throw new EngineError('invalid-input', `${what} ${escapeField(p)}: not a PEM file of at most 1 MiB`);
  return fsp.readFile(p);
}

export interface PromClient {
  url: string;
  query(expr: string, signal?: AbortSignal): Promise<PromAnswer>;
  queryRange(expr: string, start: number, end: number, step: number, signal?: AbortSignal): Promise<PromAnswer>;
}

export async function promClient(conn: PrometheusConnection): Promise<PromClient> {
  const base = new URL(conn.url.replace(/\/+$/, '') + '/');
  const isHttps = base.protocol === 'https:';
  const timeoutMs = conn.timeoutMs ?? 10_000;
  const agentOpts: https.AgentOptions = {};
  if (isHttps) {
    agentOpts.ca = await tlsFile(conn.tls?.caFile, 'CA file');
    agentOpts.cert = await tlsFile(conn.tls?.certFile, 'client certificate');
    agentOpts.key = await tlsFile(conn.tls?.keyFile, 'client key');
    agentOpts.rejectUnauthorized = !conn.tls?.insecureSkipVerify;
    if (conn.tls?.serverName) agentOpts.servername = conn.tls.serverName;
  } else if (conn.tls && (conn.tls.caFile || conn.tls.certFile || conn.tls.keyFile)) {
    throw new EngineError('invalid-input', `TLS options given for ${escapeField(conn.url)}: use an https:// URL`);
  }
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
  if (conn.bearerToken) headers.authorization = `Bearer ${conn.bearerToken}`;
  else if (conn.basicAuth) headers.authorization = `Basic ${Buffer.from(`${conn.basicAuth.username}:${conn.basicAuth.password}`).toString('base64')}`;
  const shown = `${base.origin}${base.pathname.replace(/\/$/, '')}`;

  async function call(api: string, params: Record<string, string>, signal?: AbortSignal): Promise<PromAnswer> {
    const target = new URL(`api/v1/${api}`, base);
    const body = new URLSearchParams({ ...params, timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s` }).toString();
    const t0 = performance.now();
    let answeredMs = 0;
    const text = await new Promise<string>((resolve, reject) => {
      const mod = isHttps ? https : http;
      const req = mod.request(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(isHttps ? agentOpts : {}),
        signal,
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            req.destroy(new Error(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB: narrow the query`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          clearTimeout(timer);
          answeredMs = performance.now() - t0;
          const out = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status === 401 || status === 403)
            reject(new EngineError('forbidden', `Prometheus at ${shown} refused the credentials (HTTP ${status}): check the bearer token or basic auth`));
          else if (status >= 300 && !/^\s*\{/.test(out))
            reject(new EngineError('failed', `Prometheus at ${shown}: HTTP ${status} from ${target.pathname}, not a Prometheus API answer`));
          else resolve(out);
        });
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (signal?.aborted) return reject(new EngineError('cancelled', 'cancelled'));
        const why =
          err.code === 'ECONNREFUSED'
            ? 'connection refused: check the URL and that Prometheus runs'
            : err.code === 'ENOTFOUND'
              ? 'the host name does not resolve'
              : /certificate|self.signed|CERT_|SSL/i.test(`${err.code} ${err.message}`)
                ? `TLS: ${err.message}; give the CA with --prometheus-ca, or --prometheus-insecure-skip-verify`
                : err.message;
        reject(new EngineError('failed', `Nothing answers at ${shown}: ${why}`));
      });
      req.end(body);
    });
    let doc: {
      status?: string;
      errorType?: string;
      error?: string;
      warnings?: string[];
      infos?: string[];
      data?: { resultType?: string; result?: PromSample[] };
    };
    try {
      doc = JSON.parse(text);
    } catch {
      throw new EngineError('failed', `Prometheus at ${shown}: the answer of ${target.pathname} is not JSON (is this the Prometheus URL?)`);
    }
    if (doc.status !== 'success')
      throw new EngineError(
        'failed',
        `Prometheus at ${shown} answered ${escapeField(doc.errorType ?? 'error')}: ${escapeField(String(doc.error ?? 'no error text').slice(0, 500))} (query ${escapeField(params.query.slice(0, 200))})`,
      );
    const result = Array.isArray(doc.data?.result) ? doc.data.result : [];
    if (result.length > MAX_SERIES)
      throw new EngineError(
        'failed',
        `Prometheus at ${shown}: ${result.length} series for ${escapeField(params.query.slice(0, 200))}, more than ${MAX_SERIES}`,
      );
    const warnings = [...(doc.warnings ?? []), ...(doc.infos ?? [])]
      .slice(0, 20)
      .map((w) => `${escapeField(String(w).slice(0, 500))} (query ${escapeField(params.query.slice(0, 200))})`);
    return { result, warnings, ms: answeredMs };
  }

  return {
    url: shown,
    query: (expr, signal) => call('query', { query: expr }, signal),
    queryRange: (expr, start, end, step, signal) => call('query_range', { query: expr, start: String(start), end: String(end), step: String(step) }, signal),
  };
}
