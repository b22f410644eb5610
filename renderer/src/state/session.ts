/** The opened store, app info, recent stores, navigation and the live-watch flag. View state only. */
import { create } from 'zustand';
import type { EventPayloads, OpenedStore, RequestResult } from '../../../shared/contract';
import type { FluentBitConfig } from '../../../shared/model';

export type ViewName = 'open' | 'overview' | 'chunks' | 'inspector' | 'index' | 'repair' | 'replay' | 'multipart' | 'export' | 'fleet';

export const VIEWS: { name: ViewName; label: string; needsStore: boolean }[] = [
  { name: 'open', label: 'Open', needsStore: false },
  { name: 'overview', label: 'Overview', needsStore: true },
  { name: 'chunks', label: 'Chunks', needsStore: true },
  { name: 'inspector', label: 'Inspector', needsStore: true },
  { name: 'index', label: 'Index & S3', needsStore: true },
  { name: 'repair', label: 'Repair', needsStore: true },
  { name: 'replay', label: 'Replay', needsStore: true },
  { name: 'multipart', label: 'Multipart', needsStore: true },
  { name: 'export', label: 'Export', needsStore: true },
  { name: 'fleet', label: 'Fleet', needsStore: false },
];

export interface SessionState {
  view: ViewName;
  appInfo: RequestResult<'app.info'> | null;
  recent: { path: string; openedAt: string }[];
  opened: OpenedStore | null;
  config: FluentBitConfig | null;
  /** Set by a `store.changed` event for the opened store: writes are blocked until a rescan. */
  changed: EventPayloads['store.changed'] | null;
  opening: boolean;
  error: string | null;
  /** A neutral sentence about the last action (e.g. a cancelled scan): not an error. */
  notice: string | null;
  setView(view: ViewName): void;
  setAppInfo(info: RequestResult<'app.info'>): void;
  setRecent(recent: { path: string; openedAt: string }[]): void;
  setOpening(opening: boolean): void;
  setOpened(opened: OpenedStore): void;
  setConfig(config: FluentBitConfig | null): void;
  storeChanged(event: EventPayloads['store.changed']): void;
  setError(error: string | null): void;
  setNotice(notice: string | null): void;
  close(): void;
}

export const useSession = create<SessionState>()((set, get) => ({
  view: 'open',
  appInfo: null,
  recent: [],
  opened: null,
  config: null,
  changed: null,
  opening: false,
  error: null,
  notice: null,
  setView: (view) => set({ view }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setRecent: (recent) => set({ recent }),
  setOpening: (opening) => set({ opening }),
  setOpened: (opened) => {
    const same = get().opened?.storeId === opened.storeId;
    set({ opened, config: opened.config ?? (same ? get().config : null), changed: null, error: null, notice: null, opening: false });
  },
  setConfig: (config) => set({ config }),
  storeChanged: (event) => {
    if (get().opened?.storeId === event.storeId) set({ changed: event });
  },
  setError: (error) => set({ error, notice: null, opening: false }),
  setNotice: (notice) => set({ notice, error: null, opening: false }),
  close: () => set({ opened: null, config: null, changed: null, view: 'open' }),
}));

/** Writes (repair, replay, multipart) are blocked while the store changed on disk since the last scan. */
export const selectWritesBlocked = (s: SessionState): boolean => s.changed !== null;
