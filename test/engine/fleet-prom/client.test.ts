/**
 * The Prometheus client against a local stand-in of the HTTP API (what it sends and how it reads
 * the answer): bearer token and basic auth, TLS with a CA / insecure-skip-verify / a client
 * certificate, warnings and
 * partial data kept, refused credentials, Prometheus's own error, a non-API answer, the size cap.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promClient } from '../../../electron/engine/fleet-prom/client';
import { prometheusFleet } from '../../../electron/engine/fleet-prom/fleet';
import { tempDir } from '../../support/fixtures';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
let t: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  t?.cleanup();
  t = null;
});

async function serve(handler: Handler, tls?: https.ServerOptions): Promise<string> {
  const onReq = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => handler(req, body, res));
  };
  const s = tls ? https.createServer(tls, onReq) : http.createServer(onReq);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `${tls ? 'https' : 'http'}://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const json = (res: http.ServerResponse, status: number, doc: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(doc));
};
const ok = (result: unknown[] = [], extra: Record<string, unknown> = {}) => ({ status: 'success', data: { resultType: 'vector', result }, ...extra });

describe('Prometheus client', () => {
  it('sends the bearer token or basic auth, the query and a timeout; keeps warnings and infos', async () => {
    const seen: { auth?: string; body: string; path?: string }[] = [];
    const url = await serve((req, body, res) => {
      seen.push({ auth: req.headers.authorization, body, path: req.url });
      json(res, 200, ok([{ metric: { instance: 'a:1' }, value: [1, '1'] }], { warnings: ['partial response: store x down'], infos: ['an info'] }));
    });
    const bearer = await promClient({ url: `${url}/prom/`, bearerToken: 'tok', timeoutMs: 3000 });
    const a = await bearer.query('store_doctor_guard_up');
    expect(seen[0]).toEqual({ auth: 'Bearer tok', body: 'query=store_doctor_guard_up&timeout=3s', path: '/prom/api/v1/query' });
    expect(a.result).toHaveLength(1);
    expect(a.warnings).toEqual(['partial response: store x down (query store_doctor_guard_up)', 'an info (query store_doctor_guard_up)']);
    const basic = await promClient({ url, basicAuth: { username: 'ops', password: 'p:w' } });
    await basic.queryRange('up', 10, 20, 15);
    expect(seen[1].auth).toBe(`Basic ${Buffer.from('ops:p:w').toString('base64')}`);
    expect(seen[1].body).toBe('query=up&start=10&end=20&step=15&timeout=10s');
    // the fleet passes the warnings on: the data may be partial
    const fleet = await prometheusFleet({ url });
    expect(fleet.warnings).toContain('partial response: store x down (query timestamp(store_doctor_guard_up))');
  });

  it('clear errors: refused credentials, Prometheus errors, not an API, too large, nothing answers', async () => {
    const url401 = await serve((_q, _b, res) => {
      res.writeHead(401);
      res.end('Unauthorized');
    });
    await expect((await promClient({ url: url401, bearerToken: 'bad' })).query('up')).rejects.toThrow(/refused the credentials \(HTTP 401\)/);
    const urlErr = await serve((_q, _b, res) => json(res, 400, { status: 'error', errorType: 'bad_data', error: 'parse error at char 3' }));
    await expect((await promClient({ url: urlErr })).query('up{')).rejects.toThrow(/answered bad_data: parse error at char 3 \(query up\{\)/);
    const urlHtml = await serve((_q, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>grafana</html>');
    });
    await expect((await promClient({ url: urlHtml })).query('up')).rejects.toThrow(/not JSON \(is this the Prometheus URL\?\)/);
    const urlBig = await serve((_q, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let n = 0;
      const more = () => {
        while (n < 70 && res.write(chunk)) n++;
        if (n < 70) res.once('drain', more);
        else res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    await expect((await promClient({ url: urlBig })).query('up')).rejects.toThrow(/larger than 64 MiB/);
    await expect((await promClient({ url: 'http://127.0.0.1:9' })).query('up')).rejects.toThrow(
      /Nothing answers at http:\/\/127\.0\.0\.1:9: connection refused/,
    );
    await expect(promClient({ url: 'http://127.0.0.1:9', tls: { caFile: '/nonexistent.pem' } })).rejects.toThrow(/use an https:\/\/ URL/);
  });

  it('TLS: an unknown CA is refused with what to do; the CA file or insecure-skip-verify works', async () => {
    t = tempDir('sd-prom-tls-');
    const key = path.join(t.dir, 'key.pem');
    const cert = path.join(t.dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      {
        stdio: 'ignore',
      },
    );
    const url = await serve((_q, _b, res) => json(res, 200, ok()), { key: readFileSync(key), cert: readFileSync(cert) });
    await expect((await promClient({ url })).query('up')).rejects.toThrow(/TLS: .*; give the CA with --prometheus-ca, or --prometheus-insecure-skip-verify/);
    expect((await (await promClient({ url, tls: { caFile: cert } })).query('up')).result).toEqual([]);
    expect((await (await promClient({ url, tls: { insecureSkipVerify: true } })).query('up')).result).toEqual([]);
    await expect(promClient({ url, tls: { caFile: path.join(t.dir, 'none.pem') } })).rejects.toThrow(/CA file .*none\.pem: no such file/);

    // a Prometheus that asks for a client certificate (mutual TLS): refused without one, answers with it
    const clientKey = path.join(t.dir, 'client-key.pem');
    const clientCert = path.join(t.dir, 'client-cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', clientKey, '-out', clientCert, '-days', '1', '-subj', '/CN=ops'], {
      stdio: 'ignore',
    });
    const seen: string[] = [];
    const mtls = await serve(
      (req, _b, res) => {
        seen.push(String((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN));
        json(res, 200, ok());
      },
      { key: readFileSync(key), cert: readFileSync(cert), ca: readFileSync(clientCert), requestCert: true, rejectUnauthorized: true },
    );
    await expect((await promClient({ url: mtls, tls: { caFile: cert } })).query('up')).rejects.toThrow(/Nothing answers at|certificate|socket hang up/);
    expect((await (await promClient({ url: mtls, tls: { caFile: cert, certFile: clientCert, keyFile: clientKey } })).query('up')).result).toEqual([]);
    expect(seen).toEqual(['ops']);
  });
});
