/** S3 evidence (live listing or offline import) and the diagnosis. */
import { useEvidence, connectionInput } from '../state/evidence';
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

export async function listLive(): Promise<void> {
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
      { storeId: opened.storeId, outputId: ev.outputId, connection: connectionInput(ev.connection) },
      'Listing the bucket',
    );
    useEvidence.getState().setEvidence(evidence);
    await runDiagnosis();
  } catch (e) {
    useEvidence.getState().setError(isCancelled(e) ? 'Listing cancelled: nothing was compared.' : describeError(e, 'Listing the bucket'));
  }
}

/** Offline evidence: the text of `aws s3api list-objects-v2` / list-object-versions / list-multipart-uploads JSON files. */
export async function importOffline(documents: { name: string; text: string }[]): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  if (!opened || documents.length === 0) return;
  ev.setError(null);
  ev.setBusy('offline');
  try {
    const input = { storeId: opened.storeId, documents, ...(ev.outputId != null ? { outputId: ev.outputId } : {}) };
    const evidence = await runTask('evidence.importOffline', input, 'Importing listings');
    useEvidence.getState().setEvidence(evidence);
    await runDiagnosis();
  } catch (e) {
    useEvidence.getState().setError(describeError(e, `Importing ${documents.map((d) => d.name).join(', ')}`));
  }
}

/** Read browser File objects as text documents. */
export async function readFiles(files: FileList | File[]): Promise<{ name: string; text: string }[]> {
  return Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
}
