/** Opening (and landing on a store the door opened), rescanning and closing stores; the demo copy; app info; recent list; live-watch events. */
import { getClient } from '../client';
import { useChunks } from '../state/chunks';
import { useEvidence } from '../state/evidence';
import { useInspector } from '../state/inspector';
import { useHistory, useMultipart, useRepair, useReplay } from '../features/repair/state';
import { useSession } from '../state/session';
import type { OpenedStore } from '../../../shared/contract';
import type { RepairResult } from '../../../shared/model';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { describeError, isCancelled, runTask } from './run';
import { showIfStoragePath } from './storagePath';
import { useStoragePath } from '../state/storagePath';
import { resetSalvage } from '../features/salvage/state';
import { runDiagnosis } from './evidence';
import { loadSavedConnections } from './connection';

/** App info, recent stores, and the store the door opened before the page loaded (`serve <path>`, `npm start`). */
export async function loadAppInfo(): Promise<void> {
  const client = getClient();
  try {
    // The store list without its chunk rows: the Overview paints from the report's summary, and the
    // rows (tens of MB for a big store) follow once it is up (loadRows).
    const [info, recent, open] = await Promise.all([
      client.request('app.info', {}),
      client.request('store.recent', {}),
      client.request('store.list', { rows: false }),
    ]);
    useSession.getState().setAppInfo(info);
    useSession.getState().setRecent(recent.recent);
    // Land on the store the engine already has open (the newest), unless the user opened one meanwhile.
    if (open.stores.length > 0 && !useSession.getState().opened) await afterOpen(open.stores[0]);
  } catch (e) {
    useSession.getState().setError(describeError(e, 'Starting'));
  } finally {
    useSession.getState().setReady();
  }
  void loadSavedConnections();
}

function resetViews(): void {
  useChunks.getState().reset();
  useInspector.getState().clear();
  useEvidence.getState().reset();
  useRepair.getState().reset();
  useReplay.getState().reset();
  useMultipart.getState().reset();
  useHistory.getState().reset();
  resetSalvage();
}

/** Where the data sits (engine's summary of the current report); a convenience, so failures stay quiet. */
export async function loadStorage(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  try {
    const storage = await getClient().request('store.storage', { storeId: opened.storeId });
    if (useSession.getState().opened?.storeId === opened.storeId) useSession.getState().setStorage(storage);
  } catch {
    useSession.getState().setStorage(null);
  }
}

async function afterOpen(opened: OpenedStore, demoCopy: { path: string; from: string } | null = null): Promise<void> {
  resetViews();
  useSession.getState().setOpened(opened);
  useSession.getState().setDemoCopy(demoCopy);
  if (opened.evidence) useEvidence.getState().setEvidence(opened.evidence);
  useSession.getState().setView('overview');
  // The recent list, the diagnosis and the storage picture are independent: asked for together, so
  // the Overview does not wait a round trip for the recent list first.
  await Promise.all([loadRecent(), runDiagnosis(), loadStorage()]);
  if (opened.rowsOmitted) await loadRows();
}

let rowsAsked = 0;

/**
 * The chunk rows of the opened store when its report came without them (`rowsOmitted`): the
 * report as the engine has it now replaces the summary. Only the newest ask counts, and only while
 * the same store is open and still without its rows; a failure leaves the views saying so.
 */
export async function loadRows(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened?.rowsOmitted) return;
  const ask = ++rowsAsked;
  try {
    const { stores } = await getClient().request('store.list', {});
    const full = stores.find((s) => s.storeId === opened.storeId);
    const now = useSession.getState().opened;
    if (ask !== rowsAsked || !full || now?.storeId !== opened.storeId || !now.rowsOmitted) return;
    const { rowsOmitted: _omitted, ...rest } = now;
    useSession.getState().setOpened({ ...rest, report: full.report });
  } catch (e) {
    if (ask === rowsAsked) useSession.getState().setError(describeError(e, 'Reading the chunk list'));
  }
}

/**
 * What a write of ours changed in store `storeId`, as the engine read it back (a result's
 * storeUpdate): merged into the open report while that store is still the one open, no rescan;
 * rows that had not come yet are asked for as they are now.
 */
export function mergeOwnWrite(storeId: string, update: RepairResult['storeUpdate']): void {
  const now = useSession.getState().opened;
  if (now?.storeId !== storeId || !update?.length) return;
  useSession.getState().setOpened({ ...now, report: mergeStoreUpdate(now.report, update) });
  if (now.rowsOmitted) void loadRows();
}

/** The recent list (a convenience, so failures stay quiet). */
async function loadRecent(): Promise<void> {
  try {
    const recent = await getClient().request('store.recent', {});
    useSession.getState().setRecent(recent.recent);
  } catch {
    /* the recent list is a convenience */
  }
}

export async function openStore(path: string): Promise<boolean> {
  const s = useSession.getState();
  s.setError(null);
  s.setOpening(true);
  useStoragePath.getState().clear();
  try {
    const opened = await runTask('store.open', { path }, `Scanning ${path}`);
    await afterOpen(opened);
    return true;
  } catch (e) {
    if (isCancelled(e))
      useSession
        .getState()
        .setNotice(`Opening ${path} was cancelled: nothing was opened${useSession.getState().opened ? '; the store that was open stays open' : ''}.`);
    else if (await showIfStoragePath(path, e)) useSession.getState().setOpening(false);
    else useSession.getState().setError(describeError(e, `Opening ${path}`));
    return false;
  }
}

async function openDemoWith(request: 'store.openDemo' | 'store.openDemoCopy', label: string): Promise<boolean> {
  useSession.getState().setError(null);
  useSession.getState().setOpening(true);
  try {
    if (request === 'store.openDemoCopy') {
      const { copy, ...opened } = await runTask('store.openDemoCopy', {}, label);
      await afterOpen(opened, copy);
    } else await afterOpen(await runTask('store.openDemo', {}, label));
    return true;
  } catch (e) {
    if (isCancelled(e)) useSession.getState().setNotice(`${label} was cancelled.`);
    else useSession.getState().setError(describeError(e, label));
    return false;
  }
}

/** The demo as shipped: a read-only archive. */
export const openDemo = (): Promise<boolean> => openDemoWith('store.openDemo', 'Opening the demo store');

/** A writable copy of the demo in a temp folder the engine makes (and names), so Repair and Undo can be tried. */
export const openDemoCopy = (): Promise<boolean> => openDemoWith('store.openDemoCopy', 'Making a writable copy of the demo');

export async function rescan(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  useSession.getState().setError(null);
  try {
    const next = await runTask('store.rescan', { storeId: opened.storeId }, 'Rescanning the store');
    useSession.getState().setOpened(next);
    useInspector.getState().clear();
    await Promise.all([runDiagnosis(), loadStorage()]);
  } catch (e) {
    if (isCancelled(e)) useSession.getState().setNotice('Rescan cancelled: the views still show the previous scan.');
    else useSession.getState().setError(describeError(e, `Rescanning ${opened.report.source.path}`));
  }
}

export async function closeStore(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  try {
    await getClient().request('store.close', { storeId: opened.storeId });
  } catch {
    /* closing is best-effort on the engine side */
  }
  resetViews();
  useSession.getState().close();
}

/** Load a Fluent Bit config (typed path on the engine's machine, or a file's text). */
export async function loadConfig(source: { path: string } | { document: { name: string; text: string } }): Promise<boolean> {
  const opened = useSession.getState().opened;
  if (!opened) return false;
  try {
    const config = await getClient().request('config.load', { storeId: opened.storeId, ...source });
    useSession.getState().setConfig(config);
    // The diagnosis shown was made without this config: it says nothing true any more.
    useEvidence.getState().setDiagnosis(null);
    const firstS3 = config.outputs.find((o) => o.s3);
    if (firstS3 && useEvidence.getState().outputId == null) useEvidence.getState().setOutputId(firstS3.id);
    // The storage picture carries the config's storage.path (its backlog per input).
    await Promise.all([runDiagnosis(), loadStorage()]);
    return true;
  } catch (e) {
    const what = 'path' in source ? source.path : source.document.name;
    useSession.getState().setError(describeError(e, `Reading the Fluent Bit config ${what}`));
    return false;
  }
}

/** Subscribe to live-watch events; returns the unsubscribe. */
export function watchStoreEvents(): () => void {
  return getClient().on('store.changed', (ev) => useSession.getState().storeChanged(ev));
}
