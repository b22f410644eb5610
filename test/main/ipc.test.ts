/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped JSON replies and mock Electron objects */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../electron/engine';
import { bindIpc, forwardEvents, type IpcInvokeEventLike } from '../../electron/main/ipc';
import { IPC_EVENT, IPC_PICK_PATH, IPC_REQUEST } from '../../electron/main/channels';
import { rendererLocation } from '../../electron/main/policy';
import type { Engine } from '../../shared/contract';
import { extractFixture, tempDir } from '../host/helpers';

vi.mock('electron', () => {
  throw new Error('the IPC binding must not import electron');
});

const mainDir = path.resolve('/opt/store-doctor/out/main');
const renderer = rendererLocation(mainDir, {});
const ownUrl = 'app://renderer/index.html';
const trusted: IpcInvokeEventLike = { senderFrame: { url: ownUrl, parent: null } };

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  return {
    handlers,
    handle: (channel: string, l: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, l);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
    invoke: (channel: string, event: IpcInvokeEventLike, ...args: unknown[]) => Promise.resolve(handlers.get(channel)!(event, ...args)) as Promise<any>,
  };
}

let engine: Engine;
let ipc: ReturnType<typeof fakeIpcMain>;
let unbind: () => void;
const picked: string[] = [];

beforeAll(() => {
  engine = createEngine({ door: 'electron', demoDir: tempDir('sd-no-demo-'), stateDir: tempDir('sd-ipc-'), watch: false });
  ipc = fakeIpcMain();
  unbind = bindIpc({
    ipcMain: ipc,
    engine,
    renderer,
    pickPath: async (kind) => {
      picked.push(kind);
      return kind === 'folder' ? '/picked/store' : null;
    },
  });
});
afterAll(async () => {
  unbind();
  expect(ipc.handlers.size).toBe(0);
  await engine.dispose();
});

describe('IPC binding', () => {
  it('registers one request channel and one dialog channel', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual([IPC_PICK_PATH, IPC_REQUEST].sort());
  });

  it('answers the app window with a typed Reply', async () => {
    const reply = await ipc.invoke(IPC_REQUEST, trusted, 'app.info', {}, 'task-1');
    expect(reply).toEqual({ ok: true, value: { version: expect.any(String), door: 'electron', demoAvailable: false } });
  });

  it('refuses senders that are not the app page', async () => {
    const senders: IpcInvokeEventLike[] = [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: pathToFileURL('/tmp/other.html').href, parent: null } },
      // the app is not loaded from file:// any more: its own index.html as a file is not trusted
      { senderFrame: { url: pathToFileURL(path.join(mainDir, '..', 'renderer', 'index.html')).href, parent: null } },
      { senderFrame: { url: ownUrl, parent: {} } },
      { senderFrame: null },
      {},
    ];
    for (const ev of senders) {
      const reply = await ipc.invoke(IPC_REQUEST, ev, 'app.info', {});
      expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(await ipc.invoke(IPC_PICK_PATH, ev, 'folder')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(picked).toEqual([]);
  });

  it('validates input against the contract', async () => {
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'store.open', { path: 42 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'fs.readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await ipc.invoke(IPC_REQUEST, trusted, { toString: () => 'app.info' }, {})).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'app.info', {}, 'bad id!')).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await ipc.invoke(IPC_PICK_PATH, trusted, 'everything')).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('confines paths to the opened stores and maps engine errors', async () => {
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'chunk.records', { storeId: 'x', rootPath: '/etc', chunkPath: 'passwd', offset: 0, limit: 5 })).toMatchObject(
      {
        ok: false,
        error: { code: 'forbidden' },
      },
    );
    const missing = await ipc.invoke(IPC_REQUEST, trusted, 'store.open', { path: '/nonexistent/store-dir' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found', file: '/nonexistent/store-dir' } });
    expect(missing.error.message).toContain('store-dir');
    expect(JSON.stringify(missing)).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('opens a real store, pages its records, and forwards events to the window', async () => {
    const sent: unknown[][] = [];
    const wc = { isDestroyed: () => false, send: (...args: unknown[]) => sent.push(args) };
    const stop = forwardEvents(engine, () => wc);
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const opened = await ipc.invoke(IPC_REQUEST, trusted, 'store.open', { path: store }, 'open-1');
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const root = opened.value.report.roots[0];
    const chunk = root.streams
      .flatMap((s: { chunks: { path: string; records: number | null }[] }) => s.chunks)
      .find((c: { records: number | null }) => (c.records ?? 0) > 0);
    const page = await ipc.invoke(IPC_REQUEST, trusted, 'chunk.records', {
      storeId: opened.value.storeId,
      rootPath: root.path,
      chunkPath: chunk.path,
      offset: 0,
      limit: 3,
    });
    expect(page.ok, JSON.stringify(page.error)).toBe(true);
    expect(page.value.records).toHaveLength(3);
    expect(sent.some(([channel, name, payload]) => channel === IPC_EVENT && name === 'progress' && (payload as { taskId: string }).taskId === 'open-1')).toBe(
      true,
    );
    stop();
  });

  it('serves the guard requests with the same checks: sender, schema, an opened store', async () => {
    const evil = { senderFrame: { url: 'https://evil.example/', parent: null } };
    expect(await ipc.invoke(IPC_REQUEST, evil, 'guard.start', { storeId: 'x' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'guard.start', { storeId: 'x', stateDir: '/tmp' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'guard.stop', { storeId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const storeDir = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const opened = await ipc.invoke(IPC_REQUEST, trusted, 'store.open', { path: storeDir });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'guard.status', { storeId: opened.value.storeId })).toMatchObject({
      ok: true,
      value: { running: false, state: 'off' },
    });
    expect(await ipc.invoke(IPC_REQUEST, trusted, 'guard.start', { storeId: opened.value.storeId })).toMatchObject({
      ok: false,
      error: { code: 'refused', message: expect.stringMatching(/load the Fluent Bit config first/) },
    });
  });

  it('asks the injected dialog for a path', async () => {
    expect(await ipc.invoke(IPC_PICK_PATH, trusted, 'folder')).toEqual({ ok: true, value: '/picked/store' });
    expect(await ipc.invoke(IPC_PICK_PATH, trusted, 'config')).toEqual({ ok: true, value: null });
    expect(picked).toEqual(['folder', 'config']);
  });
});
