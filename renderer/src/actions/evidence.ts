/** S3 evidence (live listing, offline import by upload or by host path) and the diagnosis. */
import { useEvidence, connectionInput, type ImportedDoc } from '../state/evidence';
import { useSession } from '../state/session';
import { describeError, isCancelled, runTask } from './run';

export async function runDiagnosis(): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  const ev = useEvidence.getState();
  ev.setError(null);
  ev.setBusy('diagnose');
  try {
    const diagnosis = await runTask('diagnose.run', { storeId: opened.storeId }, 'Diagnosing');
    useEvidence.getState().setDiagnosis(diagnosis);
    if (useEvidence.getState().outputId == null && diagnosis.outputs.length > 0) useEvidence.getState().setOutputId(diagnosis.outputs[0].id);
    useEvidence.getState().setBusy(null);
  } catch (e) {
    useEvidence.getState().setError(describeError(e, 'Diagnosis'));
  }
}

/**
 * List the bucket live for the chosen output: the listing mode the key format allows (focused when
 * its time partitions allow it), or `fullListing`: every key of the format (the CLI's
 * `--full-listing`). Runs as a task (progress, cancel in the task bar).
 */
export async function listLive(opts: { fullListing?: boolean } = {}): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  if (!opened) return;
  if (ev.outputId == null) {
    ev.setError('Choose the S3 output to compare with: load the Fluent Bit config first, or use the demo.');
    return;
  }
  ev.setError(null);
  ev.setBusy('live');
  try {
    const evidence = await runTask(
      'evidence.live',
      { storeId: opened.storeId, outputId: ev.outputId, connection: connectionInput(ev.connection), ...(opts.fullListing ? { fullListing: true } : {}) },
      opts.fullListing ? 'Listing every key of the bucket' : 'Listing the bucket',
    );
    useEvidence.getState().setEvidence(evidence);
    useEvidence.getState().addImports([], true);
    await runDiagnosis();
  } catch (e) {
    useEvidence.getState().setError(isCancelled(e) ? 'Listing cancelled: nothing was compared.' : describeError(e, 'Listing the bucket'));
  }
}

export interface ImportOptions {
  /** What the documents are (the checklist knows; the generic chooser lets the engine detect it). */
  kind?: ImportedDoc['kind'];
  /** Keep the documents imported before (a versions file next to the listing). */
  add?: boolean;
  /** Go back to the diagnosis (Overview) once imported. */
  back?: boolean;
}

async function afterImport(docs: ImportedDoc[], opts: ImportOptions): Promise<void> {
  useEvidence.getState().addImports(docs, !opts.add);
  await runDiagnosis();
  if (opts.back) useSession.getState().setView('overview');
}

/** Offline evidence: the text of `aws s3api list-objects-v2` / list-object-versions / list-multipart-uploads JSON files. */
export async function importOffline(documents: { name: string; text: string }[], opts: ImportOptions = {}): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  if (!opened || documents.length === 0) return;
  ev.setError(null);
  ev.setBusy('offline');
  try {
    const input = { storeId: opened.storeId, documents, ...(ev.outputId != null ? { outputId: ev.outputId } : {}), ...(opts.add ? { add: true } : {}) };
    const evidence = await runTask('evidence.importOffline', input, 'Importing listings');
    useEvidence.getState().setEvidence(evidence);
    await afterImport(
      documents.map((d) => ({ name: d.name, kind: opts.kind ?? 'listing' })),
      opts,
    );
  } catch (e) {
    useEvidence.getState().setError(describeError(e, `Importing ${documents.map((d) => d.name).join(', ')}`));
  }
}

/** The same from files on the engine's machine, by their paths. */
export async function importFiles(kind: ImportedDoc['kind'], paths: string[], opts: Omit<ImportOptions, 'kind'> = {}): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  const list = paths.map((p) => p.trim()).filter(Boolean);
  if (!opened || list.length === 0) return;
  ev.setError(null);
  ev.setBusy('offline');
  try {
    const input = { storeId: opened.storeId, [kind]: list, ...(ev.outputId != null ? { outputId: ev.outputId } : {}), ...(opts.add ? { add: true } : {}) };
    const evidence = await runTask('evidence.importFiles', input, `Reading ${list.join(', ')}`);
    useEvidence.getState().setEvidence(evidence);
    await afterImport(
      list.map((name) => ({ name, kind })),
      { ...opts, kind },
    );
  } catch (e) {
    useEvidence.getState().setError(describeError(e, `Reading ${list.join(', ')}`));
  }
}

/** Read browser File objects as text documents. */
export async function readFiles(files: FileList | File[]): Promise<{ name: string; text: string }[]> {
  return Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
}

/**
 * "Refresh evidence" (stale evidence, issue 18): list again through the same request as a live
 * listing (the same mode: full or focused), or read the offline files again from their paths on the
 * engine's machine. An offline file whose time did not change is the same listing: said so (it has
 * to be exported again). Uploaded files cannot be read again: upload a new export.
 */
export async function refreshEvidence(): Promise<void> {
  const ev = useEvidence.getState();
  ev.setRefreshNote(null);
  if (!ev.evidence) return;
  if (ev.evidence.source === 'live') return listLive({ fullListing: ev.evidence.coverage === 'full' });
  const byPath = ev.imports.filter((d) => d.name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(d.name));
  if (!byPath.length) {
    ev.setRefreshNote('The listing was uploaded: export it again (aws s3api list-objects-v2) and upload the new file.');
    return;
  }
  const before = ev.evidence.listedAt;
  const kinds = [...new Set(byPath.map((d) => d.kind))];
  for (const [i, kind] of kinds.entries())
    await importFiles(
      kind,
      byPath.filter((d) => d.kind === kind).map((d) => d.name),
      { add: i > 0 },
    );
  const after = useEvidence.getState().evidence;
  if (after?.source === 'offline' && before && after.listedAt === before)
    useEvidence
      .getState()
      .setRefreshNote(
        `Read again: the file did not change (file time ${before}), so it is the same listing. Export it again (aws s3api list-objects-v2), then refresh.`,
      );
  else if (after?.source === 'offline') useEvidence.getState().setRefreshNote(`Read again: file time ${after.listedAt ?? 'unknown'}.`);
}
