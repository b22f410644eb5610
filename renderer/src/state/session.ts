/** The opened store, app info, recent stores, navigation and the live-watch flag. View state only. */
import { create } from 'zustand';
import type { EventPayloads, OpenedStore, RequestResult } from '../../../shared/contract';
import type { FluentBitConfig, StorageSummary } from '../../../shared/model';

export type ViewName = 'open' | 'overview' | 'chunks' | 'inspector' | 'index' | 'repair' | 'replay' | 'multipart' | 'history' | 'export' | 'fleet' | 'guard';

export const VIEWS: { name: ViewName; label: string; needsStore: boolean }[] = [
  { name: 'open', label: 'Open', needsStore: false },
  { name: 'overview', label: 'Overview', needsStore: true },
  { name: 'chunks', label: 'Chunks', needsStore: true },
  { name: 'inspector', label: 'Inspector', needsStore: true },
  { name: 'index', label: 'Index & S3', needsStore: true },
  { name: 'repair', label: 'Repair', needsStore: true },
  { name: 'replay', label: 'Replay', needsStore: true },
  { name: 'multipart', label: 'Multipart', needsStore: true },
  { name: 'history', label: 'History', needsStore: true },
  { name: 'export', label: 'Export', needsStore: true },
  { name: 'fleet', label: 'Fleet', needsStore: false },
  { name: 'guard', label: 'Guard', needsStore: true },
];

/** The key of a view's Alt shortcut: 1…9, then 0; views after the tenth have none. */
export const viewKey = (i: number): string | null => (i < 10 ? String((i + 1) % 10) : null);

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
  /** The open store is a writable copy of the demo the engine made here. */
  demoCopy: { path: string; from: string } | null;
  /** Where the data of the open store sits (engine's store.storage). */
  storage: StorageSummary | null;
  sidebarCollapsed: boolean;
  /** App info and the store the door opened have been asked for (the start is over). */
  ready: boolean;
  setView(view: ViewName): void;
  setAppInfo(info: RequestResult<'app.info'>): void;
  setRecent(recent: { path: string; openedAt: string }[]): void;
  setOpening(opening: boolean): void;
  setOpened(opened: OpenedStore): void;
  setConfig(config: FluentBitConfig | null): void;
  storeChanged(event: EventPayloads['store.changed']): void;
  setError(error: string | null): void;
  setNotice(notice: string | null): void;
  setDemoCopy(copy: { path: string; from: string } | null): void;
  setStorage(storage: StorageSummary | null): void;
  setSidebarCollapsed(collapsed: boolean): void;
  setReady(): void;
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
  demoCopy: null,
  storage: null,
  sidebarCollapsed: false,
  ready: false,
  // Alerts belong to the view they were raised in: navigating clears them.
  setView: (view) => set(view === get().view ? { view } : { view, error: null, notice: null }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setRecent: (recent) => set({ recent }),
  setOpening: (opening) => set({ opening }),
  setOpened: (opened) => {
    const same = get().opened?.storeId === opened.storeId;
    set({
      opened,
      config: opened.config ?? (same ? get().config : null),
      demoCopy: same ? get().demoCopy : null,
      storage: same ? get().storage : null,
      changed: null,
      error: null,
      notice: null,
      opening: false,
    });
  },
  setConfig: (config) => set({ config }),
  storeChanged: (event) => {
    if (get().opened?.storeId === event.storeId) set({ changed: event });
  },
  setError: (error) => set({ error, notice: null, opening: false }),
  setNotice: (notice) => set({ notice, error: null, opening: false }),
  setDemoCopy: (demoCopy) => set({ demoCopy }),
  setStorage: (storage) => set({ storage }),
  setSidebarCollapsed: (sidebarCollapsed) => set({ sidebarCollapsed }),
  setReady: () => set({ ready: true }),
  close: () => set({ opened: null, config: null, changed: null, view: 'open', demoCopy: null, storage: null }),
}));

/** Writes (repair, replay, multipart) are blocked while the store changed on disk since the last scan. */
export const selectWritesBlocked = (s: SessionState): boolean => s.changed !== null;
