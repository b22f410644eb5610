/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped JSON replies and mock Electron objects */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { api, extractFixture, fakeRenderer, tempDir } from './helpers';

let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ engine: createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false }), rendererDir: fakeRenderer() });
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

/** Connect to /api/events and collect parsed events. */
function subscribe(port: number, headers: Record<string, string>): Promise<{ events: { event: string; data: any }[]; status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const events: { event: string; data: any }[] = [];
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      });
      resolve({ events, status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
  });
}

describe('loopback host: Server-Sent Events', () => {
  it('needs the token', async () => {
    const sub = await subscribe(host.port, {});
    expect(sub.status).toBe(401);
    sub.close();
  });

  it('delivers progress of a running task to a subscribed page (cookie auth, as EventSource sends it)', async () => {
    const sub = await subscribe(host.port, { cookie: `sd_token_${host.port}=${host.token}`, accept: 'text/event-stream' });
    expect(sub.status).toBe(200);
    const store = extractFixture('buffered-backlog-no-ordering', 'store-after-run1.tar.gz');
    const reply = (await api(host.port, host.token, 'store.open', { path: store }, 'sse-task-1')).json();
    expect(reply.ok, JSON.stringify(reply.error)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    const progress = sub.events.filter((e) => e.event === 'progress' && e.data.taskId === 'sse-task-1');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0].data.request).toBe('store.open');
    const last = progress[progress.length - 1].data.progress;
    expect(last.done).toBe(last.total);
    expect(typeof last.task).toBe('string');
    sub.close();
  });
});
