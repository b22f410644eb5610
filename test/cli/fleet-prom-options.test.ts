/**
 * `fleet --prometheus` options → the connection the engine gets: the bearer token from a file or
 * PROMETHEUS_BEARER_TOKEN (never argv), basic auth with the password from PROMETHEUS_PASSWORD, not
 * both; the TLS options as Prometheus users know them; the timeout within its bounds. And what the
 * command says when Prometheus answers with warnings (partial data): on stderr and in the text.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prometheusConnection } from '../../electron/cli/commands/fleet-prom';
import { tempDir } from '../support/fixtures';

const env = { ...process.env };
let t: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  process.env = { ...env };
  t?.cleanup();
  t = null;
});

describe('fleet --prometheus options', () => {
  it('bearer token from a file (trimmed) or the environment; basic auth with the password from the environment', async () => {
    t = tempDir('sd-prom-opts-');
    const file = path.join(t.dir, 'token');
    writeFileSync(file, 'tok-123\n');
    delete process.env.PROMETHEUS_BEARER_TOKEN;
    expect(await prometheusConnection({ prometheus: 'https://prom.example/prefix', prometheusBearerTokenFile: file })).toEqual({
      url: 'https://prom.example/prefix',
      bearerToken: 'tok-123',
    });
    process.env.PROMETHEUS_BEARER_TOKEN = 'from-env';
    expect(await prometheusConnection({ prometheus: 'http://p:9090' })).toEqual({ url: 'http://p:9090', bearerToken: 'from-env' });
    delete process.env.PROMETHEUS_BEARER_TOKEN;
    process.env.PROMETHEUS_PASSWORD = 'p:w';
    expect(await prometheusConnection({ prometheus: 'http://p:9090', prometheusBasicAuth: 'ops' })).toEqual({
      url: 'http://p:9090',
      basicAuth: { username: 'ops', password: 'p:w' },
    });
    await expect(prometheusConnection({ prometheus: 'http://p:9090', prometheusBasicAuth: 'ops', prometheusBearerTokenFile: file })).rejects.toThrow(
      /a bearer token or basic auth, not both/,
    );
    await expect(prometheusConnection({ prometheus: 'http://p:9090', prometheusBearerTokenFile: path.join(t.dir, 'none') })).rejects.toThrow(
      /--prometheus-bearer-token-file .*none: ENOENT/,
    );
  });

  it('TLS options and the timeout', async () => {
    delete process.env.PROMETHEUS_BEARER_TOKEN;
    expect(
      await prometheusConnection({
        prometheus: 'https://prom.example',
        prometheusCa: 'ca.pem',
        prometheusCert: 'c.pem',
        prometheusKey: 'k.pem',
        prometheusServerName: 'prometheus.internal',
        prometheusTimeout: '2.5',
      }),
    ).toEqual({
      url: 'https://prom.example',
      tls: { caFile: 'ca.pem', certFile: 'c.pem', keyFile: 'k.pem', insecureSkipVerify: undefined, serverName: 'prometheus.internal' },
      timeoutMs: 2500,
    });
    expect((await prometheusConnection({ prometheus: 'https://prom.example', prometheusInsecureSkipVerify: true })).tls?.insecureSkipVerify).toBe(true);
    await expect(prometheusConnection({ prometheus: 'http://p', prometheusTimeout: '0' })).rejects.toThrow(/seconds between 0\.1 and 120/);
    await expect(prometheusConnection({ prometheus: 'http://p', prometheusTimeout: '121' })).rejects.toThrow(/seconds between 0\.1 and 120/);
    await expect(prometheusConnection({ prometheus: 'prom:9090' })).rejects.toThrow(/give an http:\/\/ or https:\/\/ URL/);
  });
});

describe('fleet --prometheus when Prometheus warns', () => {
  it('prints the warnings (each naming its query) in the text and says on stderr that the data may be partial', async () => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += String(d)));
      req.on('end', () => {
        const query = new URLSearchParams(body).get('query') ?? '';
        const result = query.startsWith('timestamp(') ? [{ metric: { job: 'g', instance: 'h:1', node: 'n1', state: 'watching' }, value: [100, '99'] }] : [];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result }, warnings: ['partial response: store eu-1 unavailable'] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [path.resolve(__dirname, '../../bin/store-doctor.cjs'), 'fleet', '--prometheus', url], (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^1 node\(s\) in http:\/\/127\.0\.0\.1:\d+: 0 with outputs at risk/);
      expect(r.stdout).toContain(
        '\nPrometheus warned (the data may be partial):\n  partial response: store eu-1 unavailable (query timestamp(store_doctor_guard_up))\n',
      );
      expect(r.stderr).toBe('store-doctor: Prometheus answered with 13 warning(s): the data may be partial\n');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
