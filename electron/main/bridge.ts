/**
 * The one object the preload exposes as `window.storeDoctor`: four functions over three fixed
 * channels. No raw ipcRenderer, no process.env, no Node. Kept free of the `electron` import (and
 * of zod) so the sandboxed preload bundle stays tiny and the bridge is unit-tested directly.
 */
import type { EventName, EventPayloads, Reply, RequestName } from '../../shared/contract';
import type { StoreDoctorBridge } from '../../shared/bridge';
import { IPC_EVENT, IPC_PICK_PATH, IPC_REQUEST, PICK_KINDS, type PickKind } from './channels';

export type { StoreDoctorBridge } from '../../shared/bridge';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const EVENTS: readonly string[] = ['progress', 'store.changed'];

export function buildBridge(ipc: IpcRendererLike): StoreDoctorBridge {
  return Object.freeze({
    request(name: RequestName, input: unknown, taskId?: string) {
      return ipc.invoke(IPC_REQUEST, String(name), input, taskId === undefined ? undefined : String(taskId)) as Promise<Reply<unknown>>;
    },
    cancel(taskId: string) {
      return ipc.invoke(IPC_REQUEST, 'task.cancel', { taskId: String(taskId) }, undefined) as Promise<Reply<unknown>>;
    },
    onEvent<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void) {
      if (!EVENTS.includes(name)) throw new Error(`unknown event "${String(name)}"`);
      if (typeof cb !== 'function') throw new Error('onEvent needs a callback');
      const listener = (_event: unknown, eventName: unknown, payload: unknown) => {
        if (eventName === name) cb(payload as EventPayloads[E]);
      };
      ipc.on(IPC_EVENT, listener as (event: unknown, ...args: unknown[]) => void);
      return () => {
        ipc.removeListener(IPC_EVENT, listener as (event: unknown, ...args: unknown[]) => void);
      };
    },
    async pickPath(kind: PickKind) {
      if (!PICK_KINDS.includes(kind)) throw new Error(`unknown path kind "${String(kind)}"`);
      const reply = (await ipc.invoke(IPC_PICK_PATH, kind)) as Reply<string | null>;
      if (!reply?.ok) throw new Error(reply?.error?.message ?? 'file dialog failed');
      return reply.value;
    },
  });
}
