import { describe, expect, it, vi } from 'vitest';
import { buildBridge, type IpcRendererLike } from '../../electron/main/bridge';
import { IPC_EVENT, IPC_PICK_PATH, IPC_REQUEST } from '../../electron/main/channels';

function fakeIpcRenderer() {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc: IpcRendererLike & { emit: (channel: string, ...args: unknown[]) => void; count: (c: string) => number } = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({ ok: true, value: { channel, args } })),
    on: (channel, l) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(l);
    },
    removeListener: (channel, l) => listeners.get(channel)?.delete(l),
    emit: (channel, ...args) => listeners.get(channel)?.forEach((l) => l({ sender: 'x' }, ...args)),
    count: (c) => listeners.get(c)?.size ?? 0,
  };
  return ipc;
}

describe('preload bridge (window.storeDoctor)', () => {
  it('exposes exactly four functions and nothing from Node or ipcRenderer', () => {
    const bridge = buildBridge(fakeIpcRenderer());
    expect(Object.keys(bridge).sort()).toEqual(['cancel', 'onEvent', 'pickPath', 'request']);
    expect(Object.isFrozen(bridge)).toBe(true);
    for (const v of Object.values(bridge)) expect(typeof v).toBe('function');
  });

  it('sends requests and cancels over the one request channel', async () => {
    const ipc = fakeIpcRenderer();
    const bridge = buildBridge(ipc);
    await bridge.request('store.open', { path: '/x' }, 't1');
    await bridge.cancel('t1');
    expect(ipc.invoke).toHaveBeenNthCalledWith(1, IPC_REQUEST, 'store.open', { path: '/x' }, 't1');
    expect(ipc.invoke).toHaveBeenNthCalledWith(2, IPC_REQUEST, 'task.cancel', { taskId: 't1' }, undefined);
  });

  it('delivers only the subscribed event and unsubscribes', () => {
    const ipc = fakeIpcRenderer();
    const bridge = buildBridge(ipc);
    const got: unknown[] = [];
    const off = bridge.onEvent('store.changed', (p) => got.push(p));
    ipc.emit(IPC_EVENT, 'progress', { taskId: 'a' });
    ipc.emit(IPC_EVENT, 'store.changed', { storeId: 's' });
    expect(got).toEqual([{ storeId: 's' }]);
    off();
    expect(ipc.count(IPC_EVENT)).toBe(0);
    ipc.emit(IPC_EVENT, 'store.changed', { storeId: 's2' });
    expect(got).toHaveLength(1);
    expect(() => bridge.onEvent('nope' as never, () => {})).toThrow(/unknown event/);
  });

  it('pickPath validates the kind and unwraps the reply', async () => {
    const ipc = fakeIpcRenderer();
    (ipc.invoke as ReturnType<typeof vi.fn>).mockResolvedValueOnce({ ok: true, value: '/picked' });
    const bridge = buildBridge(ipc);
    await expect(bridge.pickPath('folder')).resolves.toBe('/picked');
    expect(ipc.invoke).toHaveBeenCalledWith(IPC_PICK_PATH, 'folder');
    await expect(bridge.pickPath('anything' as never)).rejects.toThrow(/unknown path kind/);
    (ipc.invoke as ReturnType<typeof vi.fn>).mockResolvedValueOnce({ ok: false, error: { code: 'failed', message: 'no display' } });
    await expect(bridge.pickPath('archive')).rejects.toThrow('no display');
  });
});
