/** Opening, rescanning and closing stores; app info; recent list; live-watch events. */
import { getClient } from '../client';
import { useChunks } from '../state/chunks';
import { useEvidence } from '../state/evidence';
import { useInspector } from '../state/inspector';
import { useMultipart, useRepair, useReplay } from '../state/planFlow';
import { useSession } from '../state/session';
import type { OpenedStore } from '../../../shared/contract';
import { describeError, isCancelled, runTask } from './run';
import { runDiagnosis } from './evidence';

export async function loadAppInfo(): Promise<void> {
  const client = getClient();
  try {
    const [info, recent] = await Promise.all([client.request('app.info', {}), client.request('store.recent', {})]);
    useSession.getState().setAppInfo(info);
    useSession.getState().setRecent(recent.recent);
  } catch (e) {
    useSession.getState().setError(describeError(e, 'Starting'));
  }
}

function resetViews(): void {
  useChunks.getState().reset();
  useInspector.getState().clear();
  useEvidence.getState().reset();
  useRepair.getState().reset();
  useReplay.getState().reset();
  useMultipart.getState().reset();
}

async function afterOpen(opened: OpenedStore): Promise<void> {
  resetViews();
  useSession.getState().setOpened(opened);
  if (opened.evidence) useEvidence.getState().setEvidence(opened.evidence);
  useSession.getState().setView('overview');
  try {
    const recent = await getClient().request('store.recent', {});
    useSession.getState().setRecent(recent.recent);
  } catch {
    /* the recent list is a convenience */
  }
  await runDiagnosis();
}

export async function openStore(path: string): Promise<boolean> {
  const s = useSession.getState();
  s.setError(null);
  s.setOpening(true);
  try {
    const opened = await runTask('store.open', { path }, `Scanning ${path}`);
    await afterOpen(opened);
    return true;
  } catch (e) {
    if (isCancelled(e))
      useSession
        .getState()
        .setNotice(`Opening ${path} was cancelled: nothing was opened${useSession.getState().opened ? '; the store that was open stays open' : ''}.`);
    else useSession.getState().setError(describeError(e, `Opening ${path}`));
    return false;
  }
}

export async function openDemo(): Promise<boolean> {
  useSession.getState().setError(null);
  useSession.getState().setOpening(true);
  try {
    const opened = await runTask('store.openDemo', {}, 'Opening the demo store');
    await afterOpen(opened);
    return true;
  } catch (e) {
    if (isCancelled(e)) useSession.getState().setNotice('Opening the demo store was cancelled.');
    else useSession.getState().setError(describeError(e, 'Opening the demo store'));
    return false;
  }
}

export async function rescan(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  useSession.getState().setError(null);
  try {
    const next = await runTask('store.rescan', { storeId: opened.storeId }, 'Rescanning the store');
    useSession.getState().setOpened(next);
    useInspector.getState().clear();
    await runDiagnosis();
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
    const firstS3 = config.outputs.find((o) => o.s3);
    if (firstS3 && useEvidence.getState().outputId == null) useEvidence.getState().setOutputId(firstS3.id);
    await runDiagnosis();
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
