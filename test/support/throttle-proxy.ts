/**
 * A loopback proxy in front of the test RGW that answers some PutObject requests with
 * `503 SlowDown` (what S3 sends when a prefix is throttled) and forwards everything else
 * unchanged (the Host header too, so SigV4 signatures still verify).
 *
 *   const proxy = await startThrottleProxy(endpoint, (key, attempt) => attempt <= 1);
 *   … client with endpoint proxy.endpoint …
 *   proxy.puts(key)   // PUTs the proxy saw for a key (throttled ones included)
 *   await proxy.close();
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThrottleProxy {
  endpoint: string;
  puts(key: string): number;
  close(): Promise<void>;
}

const SLOW_DOWN = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>';

/** `throttle(key, attempt)` (attempt counts from 1 per key) says whether to answer that PUT with 503 SlowDown. */
export async function startThrottleProxy(target: string, throttle: (key: string, attempt: number) => boolean): Promise<ThrottleProxy> {
  const to = new URL(target);
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // path-style: /<bucket>/<key>
    const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    if (req.method === 'PUT' && key && !url.searchParams.has('uploadId')) {
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (throttle(key, n)) {
        req.resume();
        req.on('end', () => {
          res.writeHead(503, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(SLOW_DOWN) });
          res.end(SLOW_DOWN);
        });
        return;
      }
    }
    const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    puts: (key) => seen.get(key) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
