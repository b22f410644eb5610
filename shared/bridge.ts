/**
 * The one object Electron's preload exposes as `window.storeDoctor`, typed once for both sides:
 * the preload builds it (electron/main/bridge.ts), the renderer's client uses it
 * (renderer/src/client.ts). Isomorphic: types and constants only.
 */
import type { EventName, EventPayloads, Reply, RequestName } from './contract';

export type PickKind = 'folder' | 'archive' | 'config' | 'listing';
export const PICK_KINDS: readonly PickKind[] = ['folder', 'archive', 'config', 'listing'];

export interface StoreDoctorBridge {
  request(name: RequestName, input: unknown, taskId?: string): Promise<Reply<unknown>>;
  cancel(taskId: string): Promise<Reply<unknown>>;
  onEvent<E extends EventName>(name: E, cb: (payload: EventPayloads[E]) => void): () => void;
  pickPath(kind: PickKind): Promise<string | null>;
}
