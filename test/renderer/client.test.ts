// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { ClientError, createElectronClient, createHttpClient, takeTokenFromLocation, type StoreDoctorBridge } from '../../renderer/src/client';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A minimal EventSource stand-in that the test can push server events into. */
class FakeEventSource extends EventTarget {
  closed = false;
  constructor(public url: string) {
    super();
  }
  push(name: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(name, { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }
  close() {
    this.closed = true;
  }
}

describe('HTTP client', () => {
  it('POSTs {taskId, input} to /api/<name> with the bearer token and unwraps the value', async () => {
    const fetchFn = vi.fn(async () => jsonResponse({ ok: true, value: { version: '1.2.3', door: 'host', demoAvailable: true } }));
    const client = createHttpClient({ baseUrl: 'http://127.0.0.1:4000', token: 'secret-token', fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    const info = await client.request('app.info', {}, { taskId: 't-1' });
    expect(info).toEqual({ version: '1.2.3', door: 'host', demoAvailable: true });
    expect(fetchFn).toHaveBeenCalledTimes(1);
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:4000/api/app.info');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer secret-token');
    expect(JSON.parse(String(init.body))).toEqual({ taskId: 't-1', input: {} });
  });

  it('generates a task id when none is given', async () => {
    const fetchFn = vi.fn(async () => jsonResponse({ ok: true, value: { recent: [] } }));
    const client = createHttpClient({ fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    await client.request('store.recent', {});
    const body = JSON.parse(String((fetchFn.mock.calls[0] as unknown as [string, RequestInit])[1].body));
    expect(body.taskId).toMatch(/^task-/);
    expect((fetchFn.mock.calls[0] as unknown as [string, RequestInit])[1].headers).not.toHaveProperty('authorization');
  });

  it('throws a ClientError carrying the contract error', async () => {
    const fetchFn = async () => jsonResponse({ ok: false, error: { code: 'not-found', message: 'no such store: /nope', file: '/nope' } });
    const client = createHttpClient({ fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    const err = await client.request('store.open', { path: '/nope' }).catch((e) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err.code).toBe('not-found');
    expect(err.file).toBe('/nope');
    expect(err.message).toBe('no such store: /nope');
  });

  it('turns a 401 without JSON into a readable forbidden error', async () => {
    const fetchFn = async () => new Response('unauthorized', { status: 401 });
    const client = createHttpClient({ fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    const err = await client.request('app.info', {}).catch((e) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/token/);
  });

  it('reports a network failure as a transport error', async () => {
    const fetchFn = async () => {
      throw new TypeError('Failed to fetch');
    };
    const client = createHttpClient({ fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    await expect(client.request('app.info', {})).rejects.toMatchObject({ code: 'transport', message: /Failed to fetch/ });
  });

  it('routes SSE progress to the request that owns the task id, and store.changed to listeners', async () => {
    let source!: FakeEventSource;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetchFn = async () => {
      await gate;
      return jsonResponse({ ok: true, value: { cancelled: false } });
    };
    const client = createHttpClient({
      fetch: fetchFn as unknown as typeof fetch,
      eventSource: (url) => (source = new FakeEventSource(url)) as unknown as EventSource,
    });
    expect(source.url).toBe('/api/events');
    const seen: number[] = [];
    const changed: string[] = [];
    client.on('store.changed', (e) => changed.push(e.storeId));
    const pending = client.request('task.cancel', { taskId: 'x' }, { taskId: 'mine', onProgress: (p) => seen.push(p.done) });
    source.push('progress', { taskId: 'mine', request: 'store.open', progress: { task: 'scan', done: 3, total: 10 } });
    source.push('progress', { taskId: 'other', request: 'store.open', progress: { task: 'scan', done: 99, total: 10 } });
    source.push('progress', 'not json');
    source.push('store.changed', { storeId: 's1', paths: ['a'], at: '2026-01-01T00:00:00Z' });
    release();
    await pending;
    // after completion the task's progress is no longer routed
    source.push('progress', { taskId: 'mine', request: 'store.open', progress: { task: 'scan', done: 10, total: 10 } });
    expect(seen).toEqual([3]);
    expect(changed).toEqual(['s1']);
    client.dispose();
    expect(source.closed).toBe(true);
  });

  it('cancels through task.cancel', async () => {
    const fetchFn = vi.fn(async () => jsonResponse({ ok: true, value: { cancelled: true } }));
    const client = createHttpClient({ fetch: fetchFn as unknown as typeof fetch, eventSource: null });
    await client.cancel('t-9');
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/task.cancel');
    expect(JSON.parse(String(init.body)).input).toEqual({ taskId: 't-9' });
  });
});

describe('token from the address', () => {
  it('reads ?token= and strips it from the address bar, keeping other parts', () => {
    const replaceState = vi.fn();
    const token = takeTokenFromLocation(
      { href: 'http://127.0.0.1:5000/?token=abc123&x=1#frag' } as Location,
      { state: null, replaceState } as unknown as History,
    );
    expect(token).toBe('abc123');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/?x=1#frag');
  });
  it('returns null and leaves the address alone without a token', () => {
    const replaceState = vi.fn();
    expect(takeTokenFromLocation({ href: 'http://127.0.0.1:5000/' } as Location, { state: null, replaceState } as unknown as History)).toBeNull();
    expect(replaceState).not.toHaveBeenCalled();
  });
});

describe('Electron client', () => {
  it('uses the preload bridge, unwraps replies, forwards events and cancel', async () => {
    const handlers: Record<string, (p: unknown) => void> = {};
    const bridge: StoreDoctorBridge = {
      request: vi.fn(async (name: string) =>
        name === 'app.info'
          ? { ok: true as const, value: { version: '1', door: 'electron', demoAvailable: false } }
          : { ok: false as const, error: { code: 'refused' as const, message: 'no' } },
      ),
      cancel: vi.fn(),
      onEvent: vi.fn((name: string, cb: (p: unknown) => void) => {
        handlers[name] = cb;
        return () => delete handlers[name];
      }) as unknown as StoreDoctorBridge['onEvent'],
      pickPath: vi.fn(async () => '/picked'),
    };
    const client = createElectronClient(bridge);
    expect(client.door).toBe('electron');
    expect(await client.request('app.info', {}, { taskId: 'k' })).toMatchObject({ door: 'electron' });
    expect(bridge.request).toHaveBeenCalledWith('app.info', {}, 'k');
    await expect(client.request('store.recent', {})).rejects.toMatchObject({ code: 'refused' });
    const changed: unknown[] = [];
    client.on('store.changed', (e) => changed.push(e));
    handlers['store.changed']({ storeId: 's', paths: [], at: 'now' });
    expect(changed).toHaveLength(1);
    await client.cancel('k');
    expect(bridge.cancel).toHaveBeenCalledWith('k');
    expect(await client.pickPath('folder')).toBe('/picked');
    client.dispose();
    expect(Object.keys(handlers)).toEqual([]);
  });
});
