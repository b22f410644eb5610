/**
 * The S3 target of the chosen output: resolved by the engine for the form (connection.describe),
 * tested with one HeadBucket (connection.test), and the connections saved per bucket.
 */
import { getClient } from '../client';
import { connectionInput, formOf, useEvidence } from '../state/evidence';
import { useSession } from '../state/session';
import { describeError } from './run';

/** The bucket of the chosen output, from the config or the diagnosis (engine facts). */
export function bucketOfOutput(outputId: number | null): string | null {
  if (outputId == null) return null;
  const cfg = useSession.getState().config?.outputs.find((o) => o.id === outputId)?.s3?.bucket;
  return cfg ?? useEvidence.getState().diagnosis?.outputs.find((o) => o.id === outputId)?.bucket ?? null;
}

/** Ask the engine where requests of the chosen output would go with the form as it is. */
export async function refreshTarget(): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  if (!opened || ev.outputId == null || !useSession.getState().config) {
    ev.setTarget(null);
    return;
  }
  const outputId = ev.outputId;
  try {
    const target = await getClient().request('connection.describe', { storeId: opened.storeId, outputId, connection: connectionInput(ev.connection) });
    if (useEvidence.getState().outputId === outputId) useEvidence.getState().setTarget(target);
  } catch {
    useEvidence.getState().setTarget(null); // e.g. an endpoint that is not a URL yet: the form says so on test
  }
}

export async function testConnection(): Promise<void> {
  const opened = useSession.getState().opened;
  const ev = useEvidence.getState();
  if (!opened || ev.outputId == null) return;
  ev.setTesting(true);
  try {
    const test = await getClient().request('connection.test', { storeId: opened.storeId, outputId: ev.outputId, connection: connectionInput(ev.connection) });
    useEvidence.getState().setTest(test);
    useEvidence.getState().setTarget(test.target);
  } catch (e) {
    useEvidence.getState().setTesting(false);
    useEvidence.getState().setError(describeError(e, 'Testing the connection'));
  }
}

export async function loadSavedConnections(): Promise<void> {
  try {
    const { connections } = await getClient().request('connection.list', {});
    useEvidence.getState().setSaved(connections);
  } catch {
    /* saved connections are a convenience */
  }
}

/** Fill the form from the connection saved for the output's bucket, if there is one. */
export function applySaved(outputId: number | null): boolean {
  const bucket = bucketOfOutput(outputId);
  const saved = bucket ? useEvidence.getState().saved.find((c) => c.bucket === bucket) : undefined;
  if (!saved) return false;
  useEvidence.getState().setConnection(formOf(saved));
  return true;
}

export async function saveConnection(): Promise<void> {
  const bucket = bucketOfOutput(useEvidence.getState().outputId);
  if (!bucket) return;
  try {
    await getClient().request('connection.save', { bucket, connection: connectionInput(useEvidence.getState().connection) });
    await loadSavedConnections();
  } catch (e) {
    useEvidence.getState().setError(describeError(e, `Saving the connection of ${bucket}`));
  }
}

export async function forgetConnection(bucket: string): Promise<void> {
  try {
    await getClient().request('connection.forget', { bucket });
    await loadSavedConnections();
  } catch (e) {
    useEvidence.getState().setError(describeError(e, `Forgetting the connection of ${bucket}`));
  }
}
