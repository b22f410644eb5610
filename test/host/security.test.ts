import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { api, extractFixture, fakeRenderer, rawRequest, tempDir } from './helpers';

let host: RunningHost;
let token: string;
let port: number;

beforeAll(async () => {
  const engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false });
  host = await startHost({ engine, rendererDir: fakeRenderer(), maxBodyBytes: 64 * 1024 });
  ({ token, port } = host);
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

describe('loopback host: token', () => {
  it('prints a loopback URL with a 32-byte token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${port}/?token=${token}`);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses pages and API calls without a token (401)', async () => {
    expect((await rawRequest(port, { path: '/' })).status).toBe(401);
    expect((await rawRequest(port, { path: '/assets/app.js' })).status).toBe(401);
    expect((await rawRequest(port, { path: '/api/events' })).status).toBe(401);
    const r = await rawRequest(port, { method: 'POST', path: '/api/app.info', headers: { 'content-type': 'application/json' }, body: '{"input":{}}' });
    expect(r.status).toBe(401);
    expect(r.json().ok).toBe(false);
  });

  it('refuses a wrong token (401), also one of the right length', async () => {
    const wrong = token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await rawRequest(port, { path: `/?token=${wrong}` })).status).toBe(401);
    expect((await api(port, wrong, 'app.info', {})).status).toBe(401);
    expect((await rawRequest(port, { path: '/', headers: { cookie: `sd_token_${port}=${wrong}` } })).status).toBe(401);
  });

  it('does not accept the query token on POST', async () => {
    const r = await rawRequest(port, {
      method: 'POST',
      path: `/api/app.info?token=${token}`,
      headers: { 'content-type': 'application/json' },
      body: '{"input":{}}',
    });
    expect(r.status).toBe(401);
  });

  it('first page load with ?token= sets an HttpOnly SameSite=Strict cookie that then works', async () => {
    const page = await rawRequest(port, { path: `/?token=${token}` });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Store Doctor test page');
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain(`sd_token_${port}=${token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const viaCookie = await rawRequest(port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { cookie: `sd_token_${port}=${token}`, 'content-type': 'application/json' },
      body: '{"input":{}}',
    });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.json()).toMatchObject({ ok: true, value: { door: 'host' } });
    expect((await rawRequest(port, { path: '/assets/app.js', headers: { cookie: `sd_token_${port}=${token}` } })).text).toContain('console.log');
  });

  it('sends strict security headers and no CORS', async () => {
    const r = await rawRequest(port, { path: `/?token=${token}`, headers: { origin: `http://127.0.0.1:${port}` } });
    expect(r.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('loopback host: DNS rebinding and cross-origin', () => {
  it('refuses a foreign Host header even with the right token (421)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      `192.168.1.2:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost`,
    ]) {
      const r = await rawRequest(port, { path: `/?token=${token}`, headers: { host } });
      expect(r.status, `Host: ${host}`).toBe(421);
      const a = await rawRequest(port, {
        method: 'POST',
        path: '/api/app.info',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"input":{}}',
      });
      expect(a.status).toBe(421);
    }
    // No Host at all: Node's HTTP server itself answers 400.
    expect([400, 421]).toContain((await rawRequest(port, { path: `/?token=${token}`, noHost: true })).status);
    expect((await rawRequest(port, { path: `/?token=${token}`, headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('refuses a foreign Origin (403)', async () => {
    const r = await rawRequest(port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { origin: 'http://evil.example', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"input":{}}',
    });
    expect(r.status).toBe(403);
  });
});

describe('loopback host: requests', () => {
  it('validates every input through the contract (invalid-input)', async () => {
    const missing = (await api(port, token, 'store.open', {})).json();
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(missing.error.message).toMatch(/store\.open: path/);
    const extra = (await api(port, token, 'app.info', { evil: true })).json();
    expect(extra.error.code).toBe('invalid-input');
    const rel = (await api(port, token, 'chunk.inspect', { storeId: 's', rootPath: '/x', chunkPath: '../../etc/passwd' })).json();
    expect(rel.error.code).toBe('invalid-input');
    const unknown = await api(port, token, 'nope.nothing', {});
    expect(unknown.status).toBe(200);
    expect(unknown.json().error.code).toBe('invalid-input');
    const badJson = await rawRequest(port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(badJson.json().error.code).toBe('invalid-input');
    const badTask = (await api(port, token, 'app.info', {}, 'bad task id with spaces')).json();
    expect(badTask.error.code).toBe('invalid-input');
  });

  it('sends a reply with text that is not ASCII whole: Content-Length counts its bytes', async () => {
    const missing = path.join(tempDir('sd-len-'), 'störe ✓ 日本');
    const r = await api(port, token, 'store.open', { path: missing });
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    expect(Buffer.byteLength(r.text)).toBeGreaterThan(r.text.length);
    expect(r.json()).toMatchObject({ ok: false });
    expect(r.json().error.message).toContain('störe ✓ 日本');
  });

  it('refuses non-JSON bodies (415), oversized bodies (413) and wrong methods (405)', async () => {
    const form = await rawRequest(port, {
      method: 'POST',
      path: '/api/app.info',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'input=1',
    });
    expect(form.status).toBe(415);
    const big = await rawRequest(port, {
      method: 'POST',
      path: '/api/evidence.importOffline',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { storeId: 'x', documents: [{ name: 'a.json', text: 'x'.repeat(100_000) }] } }),
    });
    expect(big.status).toBe(413);
    expect((await rawRequest(port, { method: 'GET', path: '/api/app.info', headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    expect((await rawRequest(port, { method: 'DELETE', path: '/', headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
  });

  it('refuses a path outside the opened stores (forbidden)', async () => {
    const outside = tempDir('sd-outside-');
    const r = (await api(port, token, 'chunk.inspect', { storeId: 'store-x', rootPath: outside, chunkPath: 'a/b' })).json();
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const r2 = (await api(port, token, 'chunk.records', { storeId: 'store-x', rootPath: '/etc', chunkPath: 'passwd', offset: 0, limit: 10 })).json();
    expect(r2.error.code).toBe('forbidden');
  });

  it('allows paths inside an opened store and still refuses a sibling and symlinks out of it', async () => {
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const opened = (await api(port, token, 'store.open', { path: store })).json();
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const root = opened.value.report.roots[0];
    const chunk = root.streams.find((s: { kind: string; chunks: unknown[] }) => s.kind === 'data' && s.chunks.length).chunks[0];
    const inside = (await api(port, token, 'chunk.inspect', { storeId: opened.value.storeId, rootPath: root.path, chunkPath: chunk.path })).json();
    expect(inside.ok, JSON.stringify(inside.error)).toBe(true);
    expect(inside.value.chunk.path).toBe(chunk.path);

    const sibling = path.join(path.dirname(store), 'sibling');
    fs.mkdirSync(sibling);
    expect((await api(port, token, 'chunk.inspect', { storeId: opened.value.storeId, rootPath: sibling, chunkPath: 'a' })).json().error.code).toBe('forbidden');
    const link = path.join(store, 'escape');
    fs.symlinkSync('/etc', link);
    expect((await api(port, token, 'chunk.inspect', { storeId: opened.value.storeId, rootPath: link, chunkPath: 'passwd' })).json().error.code).toBe(
      'forbidden',
    );
    // A root path inside the store that is not one of its bucket roots is refused by the engine too.
    expect((await api(port, token, 'chunk.inspect', { storeId: opened.value.storeId, rootPath: store, chunkPath: 'x/y' })).json().error.code).toBe('forbidden');
  });

  it('does not serve files outside the renderer folder', async () => {
    for (const p of ['/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd', '/assets/../../../etc/passwd']) {
      const r = await rawRequest(port, { path: p, headers: { authorization: `Bearer ${token}` } });
      expect(r.text, p).not.toContain('root:');
    }
  });
});
