/**
 * IPC channel names and pickable path kinds: shared by main and the sandboxed preload, so this
 * file imports nothing (a sandboxed preload cannot require Node modules).
 */
export const IPC_REQUEST = 'sd:request';
export const IPC_PICK_PATH = 'sd:pickPath';
export const IPC_EVENT = 'sd:event';

export { PICK_KINDS, type PickKind } from '../../shared/bridge';
