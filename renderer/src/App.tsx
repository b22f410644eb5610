/** Shell of the UI: header, collapsible navigation (Alt+1…0), live banner, task bar and the current view. */
import { useEffect, type ComponentType } from 'react';
import { closeStore, loadAppInfo, rescan, watchStoreEvents } from './actions/store';
import { applyTheme, loadTheme } from './actions/theme';
import { clearAlertsOnNavigation } from './actions/nav';
import { useSession, VIEWS, viewKey, type ViewName } from './state/session';
import { useTheme } from './state/theme';
import { LiveBanner } from './components/LiveBanner';
import { TaskBar } from './components/TaskBar';
import { StatusLine } from './components/StatusLine';
import { useTasks } from './state/tasks';
import { OpenView } from './views/OpenView';
import { OverviewView } from './views/OverviewView';
import { ChunksView } from './views/ChunksView';
import { InspectorView } from './views/InspectorView';
import { IndexView } from './views/IndexView';
import { HistoryView, MultipartView, RepairView, ReplayView } from './features/repair';
import { ExportView } from './views/ExportView';
import { DemoCopyBanner } from './components/DemoCopyBanner';
import { FleetView } from './views/FleetView';
import { GuardView } from './features/guard';
import { shown } from './format';
import { STORAGE_PATH_VIEWS, useStoragePath } from './state/storagePath';
import { StoragePathOverview } from './views/StoragePathOverview';
import { StoragePathChunks } from './views/StoragePathChunks';
import { StoragePathInspector } from './views/StoragePathInspector';

const SIDEBAR_KEY = 'store-doctor.sidebar';

const VIEW_COMPONENTS: Record<ViewName, ComponentType> = {
  open: OpenView,
  overview: OverviewView,
  chunks: ChunksView,
  inspector: InspectorView,
  index: IndexView,
  repair: RepairView,
  replay: ReplayView,
  multipart: MultipartView,
  history: HistoryView,
  export: ExportView,
  fleet: FleetView,
  guard: GuardView,
};

/** A storage.path opened alone (no store): its own Overview, Chunks and Inspector. */
const STORAGE_PATH_COMPONENTS: Partial<Record<ViewName, ComponentType>> = {
  overview: StoragePathOverview,
  chunks: StoragePathChunks,
  inspector: StoragePathInspector,
};

/** Whether a view can be shown: a store open, or a storage.path opened alone for its views. */
function available(name: ViewName, hasStore: boolean, hasStoragePath: boolean): boolean {
  return !VIEWS.find((v) => v.name === name)?.needsStore || hasStore || (hasStoragePath && STORAGE_PATH_VIEWS.has(name));
}

const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

function Nav() {
  const view = useSession((s) => s.view);
  const hasStore = useSession((s) => !!s.opened);
  const hasStoragePath = useStoragePath((s) => !!s.report);
  return (
    <nav aria-label="Views" className="nav" id="views-nav">
      <ul>
        {VIEWS.map((v, i) => {
          const disabled = !available(v.name, hasStore, hasStoragePath);
          return (
            <li key={v.name}>
              <button
                type="button"
                className={`nav-item${view === v.name ? ' active' : ''}`}
                aria-current={view === v.name ? 'page' : undefined}
                disabled={disabled}
                aria-keyshortcuts={viewKey(i) ? `Alt+${viewKey(i)}` : undefined}
                title={viewKey(i) ? `${v.label} (Alt+${viewKey(i)})` : v.label}
                onClick={() => useSession.getState().setView(v.name)}
              >
                <span className="nav-label">{v.label}</span>
                {viewKey(i) && <kbd>{viewKey(i)}</kbd>}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function App() {
  const view = useSession((s) => s.view);
  const opened = useSession((s) => s.opened);
  const storagePathPath = useStoragePath((s) => s.report?.path ?? null);
  const mode = useTheme((s) => s.mode);
  const scanning = useTasks((s) => Object.values(s.tasks).some((t) => t.request === 'store.rescan' || t.request === 'store.open'));

  const collapsed = useSession((s) => s.sidebarCollapsed);
  const ready = useSession((s) => s.ready);
  useEffect(() => {
    loadTheme();
    try {
      useSession.getState().setSidebarCollapsed(localStorage.getItem(SIDEBAR_KEY) === 'collapsed');
    } catch {
      /* storage unavailable */
    }
    void loadAppInfo();
    const stopWatch = watchStoreEvents();
    const stopNav = clearAlertsOnNavigation();
    return () => {
      stopWatch();
      stopNav();
    };
  }, []);
  const toggleSidebar = () => {
    const next = !useSession.getState().sidebarCollapsed;
    useSession.getState().setSidebarCollapsed(next);
    try {
      localStorage.setItem(SIDEBAR_KEY, next ? 'collapsed' : 'open');
    } catch {
      /* ignore */
    }
  };
  useEffect(() => applyTheme(mode), [mode]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const i = VIEWS.findIndex((_, k) => viewKey(k) === e.key);
      if (i < 0) return;
      const target = VIEWS[i];
      if (!available(target.name, !!useSession.getState().opened, !!useStoragePath.getState().report)) return;
      e.preventDefault();
      useSession.getState().setView(target.name);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // A view opens at its top (the main area keeps its scroll position across views otherwise), and
  // so does a scan, whose progress bar sits at the top of the main area.
  useEffect(() => {
    const main = document.getElementById('main');
    main?.focus({ preventScroll: true });
    main?.scrollTo({ top: 0 });
  }, [view, scanning]);

  const storagePathOnly = useStoragePath((s) => !opened && !!s.report);
  const Current = storagePathOnly
    ? (STORAGE_PATH_COMPONENTS[view] ?? VIEW_COMPONENTS[available(view, false, true) ? view : 'open'])
    : VIEW_COMPONENTS[opened || !VIEWS.find((v) => v.name === view)?.needsStore ? view : 'open'];
  return (
    <div className={`app${collapsed ? ' nav-collapsed' : ''}`} data-ready={ready ? 'true' : undefined}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="small nav-toggle"
          aria-expanded={!collapsed}
          aria-controls="views-nav"
          onClick={toggleSidebar}
          title="Show or hide the view names"
        >
          <span aria-hidden="true">☰</span>
          <span className="sr-only">{collapsed ? 'Show the navigation' : 'Collapse the navigation'}</span>
        </button>
        <h1>
          <span className="logo" aria-hidden="true">
            ◆
          </span>{' '}
          Store Doctor
        </h1>
        <div className="store-name" data-testid="store-name">
          {opened ? shown(opened.report.source.path) : storagePathPath ? `${shown(storagePathPath)} (storage.path)` : 'No store open'}
        </div>
        {opened && (
          <>
            <button type="button" className="small" disabled={scanning} onClick={() => void rescan()} title="Read the store again from disk">
              Rescan
            </button>
            <button type="button" className="small" onClick={() => void closeStore()}>
              Close store
            </button>
          </>
        )}
        <button type="button" className="small" onClick={() => useTheme.getState().cycle()} aria-label={`${THEME_LABEL[mode]} (click to change)`}>
          {THEME_LABEL[mode]}
        </button>
      </header>
      <div className="body">
        <Nav />
        <main id="main" tabIndex={-1}>
          <LiveBanner />
          <DemoCopyBanner />
          <TaskBar />
          <StatusLine />
          <Current />
        </main>
      </div>
    </div>
  );
}
