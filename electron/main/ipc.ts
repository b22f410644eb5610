/**
 * The IPC door: one `ipcMain.handle('sd:request')` that checks who is asking (the app's own
 * page only), validates the input against the contract, confines paths to the opened stores
 * and answers with a typed `Reply`. `sd:pickPath` opens a native dialog. Engine events are
 * forwarded to the window as `sd:event`. Takes an ipcMain-like object so it is testable
 * without Electron.
 */
import type { Engine, EventName, Reply } from '../../shared/contract';
import { dispatchRequest } from '../engine/session/dispatch';
import { IPC_EVENT, IPC_PICK_PATH, IPC_REQUEST, PICK_KINDS, isTrustedRendererUrl, type PickKind, type RendererLocation } from './policy';

export interface IpcInvokeEventLike {
  senderFrame?: { url: string; parent?: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

export interface IpcBindingOptions {
  ipcMain: IpcMainLike;
  engine: Engine;
  renderer: RendererLocation;
  /** Show a native dialog; resolve the chosen path or null. */
  pickPath: (kind: PickKind) => Promise<string | null>;
}

const EVENT_NAMES: EventName[] = ['progress', 'store.changed'];

function trustedSender(event: IpcInvokeEventLike, renderer: RendererLocation): boolean {
  const frame = event?.senderFrame;
  if (!frame) return false;
  // Only the top frame of our page: a subframe (there should be none) never reaches the engine.
  if (frame.parent) return false;
  return isTrustedRendererUrl(frame.url, renderer);
}

const untrusted: Reply<never> = { ok: false, error: { code: 'forbidden', message: 'request refused: it did not come from the Store Doctor window' } };

/** Register the handlers; returns a function that removes them. */
export function bindIpc(opts: IpcBindingOptions): () => void {
  const { ipcMain, engine, renderer } = opts;
  ipcMain.handle(IPC_REQUEST, async (event, name, input, taskId) => {
    if (!trustedSender(event, renderer)) return untrusted;
    return dispatchRequest(engine, name, input, { taskId: taskId === undefined || taskId === null ? undefined : (taskId as string) });
  });
  ipcMain.handle(IPC_PICK_PATH, async (event, kind) => {
    if (!trustedSender(event, renderer)) return untrusted;
    if (!PICK_KINDS.includes(kind as PickKind))
      return { ok: false, error: { code: 'invalid-input', message: `pickPath: unknown kind "${String(kind).slice(0, 40)}"` } };
    try {
      return { ok: true, value: await opts.pickPath(kind as PickKind) };
    } catch (err) {
      return { ok: false, error: { code: 'failed', message: `could not open the file dialog: ${(err as Error).message?.split('\n')[0]}` } };
    }
  });
  return () => {
    ipcMain.removeHandler(IPC_REQUEST);
    ipcMain.removeHandler(IPC_PICK_PATH);
  };
}

/** Forward engine events to a window; returns an unsubscribe function. */
export function forwardEvents(engine: Engine, target: () => WebContentsLike | null): () => void {
  const offs = EVENT_NAMES.map((name) =>
    engine.onEvent(name, (payload) => {
      const wc = target();
      if (wc && !wc.isDestroyed()) wc.send(IPC_EVENT, name, payload);
    }),
  );
  return () => offs.forEach((off) => off());
}
