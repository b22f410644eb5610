/**
 * Issue 9 item 12 (host): an authenticated request body that trickles in is timed out (408), and a
 * body above the limit is refused (413) as soon as it is, without reading the rest.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { tempDir } from './helpers';

let host: RunningHost;

beforeAll(async () => {
  const engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false });
  host = await startHost({ engine, rendererDir: null, maxBodyBytes: 64 * 1024, bodyTimeoutMs: 800 });
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

/** A raw POST whose body is written by `feed`; resolves with the status line and when the socket closed. */
function post(headers: string[], feed: (s: net.Socket) => void): Promise<{ status: string; ms: number; closed: boolean }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.connect(host.port, '127.0.0.1');
    let data = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      resolve({ status: data.split('\r\n')[0], ms: Date.now() - t0, closed });
      s.destroy();
    };
    s.on('data', (b) => {
      data += b.toString();
      if (data.includes('\r\n\r\n')) setTimeout(() => finish(s.destroyed || s.readableEnded), 200);
    });
    s.on('close', () => finish(true));
    s.on('error', () => finish(true));
    s.write(
      [
        'POST /api/app.info HTTP/1.1',
        `Host: 127.0.0.1:${host.port}`,
        `Authorization: Bearer ${host.token}`,
        'Content-Type: application/json',
        ...headers,
        '',
        '',
      ].join('\r\n'),
    );
    feed(s);
    setTimeout(() => finish(false), 10_000);
  });
}

describe('loopback host: request bodies are bounded in time and size', () => {
  it('a body that trickles in is answered 408 and the connection closed', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await post(['Content-Length: 1000'], (s) => {
      timer = setInterval(() => !s.destroyed && s.write('{'), 100);
    });
    clearInterval(timer);
    expect(r.status).toBe('HTTP/1.1 408 Request Timeout');
    expect(r.closed).toBe(true);
  });

  it('a chunked body above the limit is answered 413 without reading the rest', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await post(['Transfer-Encoding: chunked'], (s) => {
      const piece = Buffer.alloc(16 * 1024, 0x20);
      const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
      timer = setInterval(() => !s.destroyed && s.write(chunk), 5);
    });
    clearInterval(timer);
    expect(r.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(r.closed).toBe(true);
  });

  it('a normal request still works', async () => {
    const body = JSON.stringify({ input: {} });
    const r = await post([`Content-Length: ${body.length}`], (s) => s.write(body));
    expect(r.status).toBe('HTTP/1.1 200 OK');
  });
});
