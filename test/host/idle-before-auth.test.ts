/**
 * Issue 17 case 9: `serve` closes unauthenticated connections that idle — one that never sends a
 * byte (after the idle timeout), one that sends half a header line, and a refused request whose
 * announced body never comes (answered 401, then closed: the rest is never waited for). An
 * authenticated request that takes long is not cut by the idle timeout.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { tempDir } from './helpers';

let host: RunningHost;
const IDLE_MS = 600;

beforeAll(async () => {
  const engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false });
  host = await startHost({ engine, rendererDir: null, preAuthIdleMs: IDLE_MS });
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

/** Connects, writes `send`, and resolves with what came back once the host closed the socket (or after 60 s: `closed` false). */
function exchange(send: string): Promise<{ reply: string; closed: boolean }> {
  return new Promise((resolve) => {
    const s = net.connect(host.port, '127.0.0.1');
    let reply = '';
    const t = setTimeout(() => {
      s.destroy();
      resolve({ reply, closed: false });
    }, 60_000);
    s.on('data', (b) => (reply += b.toString()));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(t);
      resolve({ reply, closed: true });
    });
    if (send) s.write(send);
  });
}

describe('loopback host: unauthenticated connections do not idle', { timeout: 90_000 }, () => {
  it('a connection that sends nothing is closed', async () => {
    expect(await exchange('')).toEqual({ reply: '', closed: true });
  });

  it('half a request line is closed', async () => {
    const r = await exchange('GET /api/app.in');
    expect(r.closed).toBe(true);
  });

  it('a refused request whose body never comes: 401, then closed', async () => {
    const r = await exchange(
      [`POST /api/app.info HTTP/1.1`, `Host: 127.0.0.1:${host.port}`, 'Content-Type: application/json', 'Content-Length: 1000000', '', '{"a":'].join('\r\n'),
    );
    expect(r.reply.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(r.closed).toBe(true);
  });

  it('an authenticated request is answered normally (the idle timeout is for before authentication)', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/api/app.info`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });
});
