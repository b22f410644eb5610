/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped JSON replies and mock Electron objects */
/** Raw HTTP helpers for host tests (node:http, so Host/Origin headers can be forged). */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { extractFixture as extractInto } from '../support/fixtures';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

export function rawRequest(
  port: number,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; noHost?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path ?? '/',
        setHost: !opts.noHost,
        headers: opts.noHost ? { ...opts.headers } : { host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export function api(port: number, token: string, name: string, input: unknown, taskId?: string): Promise<RawResponse> {
  return rawRequest(port, {
    method: 'POST',
    path: `/api/${name}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ taskId, input }),
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fake built renderer: index.html + one asset. */
export function fakeRenderer(): string {
  const dir = tempDir('sd-renderer-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Store Doctor test page</title><script type="module" src="./assets/app.js"></script>');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app")');
  return dir;
}

export { FIXTURES } from '../support/fixtures';

/** Extract a fixture tar into a fresh temp dir (the one fixture helper); returns the extracted `store` folder. */
export function extractFixture(scenario: string, tarName: string): string {
  return extractInto(scenario, tarName).storeDir;
}
