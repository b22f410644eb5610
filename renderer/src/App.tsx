/** Shell of the UI: header, navigation (Alt+1…9), live banner, task bar and the current view. */
import { useEffect, type ComponentType } from 'react';
import { closeStore, loadAppInfo, rescan, watchStoreEvents } from './actions/store';
import { applyTheme, loadTheme } from './actions/theme';
import { useSession, VIEWS, type ViewName } from './state/session';
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
import { RepairView } from './views/RepairView';
import { ReplayView } from './views/ReplayView';
import { MultipartView } from './views/MultipartView';
import { ExportView } from './views/ExportView';
import { FleetView } from './views/FleetView';

const VIEW_COMPONENTS: Record<ViewName, ComponentType> = {
  open: OpenView,
  overview: OverviewView,
  chunks: ChunksView,
  inspector: InspectorView,
  index: IndexView,
  repair: RepairView,
  replay: ReplayView,
  multipart: MultipartView,
  export: ExportView,
  fleet: FleetView,
};

const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

function Nav() {
  const view = useSession((s) => s.view);
  const hasStore = useSession((s) => !!s.opened);
  return (
    <nav aria-label="Views" className="nav">
      <ul>
        {VIEWS.map((v, i) => {
          const disabled = v.needsStore && !hasStore;
          return (
            <li key={v.name}>
              <button
                type="button"
                className={`nav-item${view === v.name ? ' active' : ''}`}
                aria-current={view === v.name ? 'page' : undefined}
                disabled={disabled}
                aria-keyshortcuts={`Alt+${i + 1}`}
                title={`${v.label} (Alt+${i + 1})`}
                onClick={() => useSession.getState().setView(v.name)}
              >
                <span>{v.label}</span>
                <kbd>{i + 1}</kbd>
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
  const mode = useTheme((s) => s.mode);
  const scanning = useTasks((s) => Object.values(s.tasks).some((t) => t.request === 'store.rescan' || t.request === 'store.open'));

  useEffect(() => {
    loadTheme();
    void loadAppInfo();
    return watchStoreEvents();
  }, []);
  useEffect(() => applyTheme(mode), [mode]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const n = Number(e.key);
      if (!Number.isInteger(n) || n < 1 || n > VIEWS.length) return;
      const target = VIEWS[n - 1];
      if (target.needsStore && !useSession.getState().opened) return;
      e.preventDefault();
      useSession.getState().setView(target.name);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [view]);

  const Current = VIEW_COMPONENTS[opened || !VIEWS.find((v) => v.name === view)?.needsStore ? view : 'open'];
  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <h1>
          <span className="logo" aria-hidden="true">
            ◆
          </span>{' '}
          Store Doctor
        </h1>
        <div className="store-name" data-testid="store-name">
          {opened ? opened.report.source.path : 'No store open'}
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
          <TaskBar />
          <StatusLine />
          <Current />
        </main>
      </div>
    </div>
  );
}
