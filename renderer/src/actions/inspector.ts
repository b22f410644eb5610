/** Open a chunk in the Inspector and page through its records. */
import { getClient } from '../client';
import { RECORDS_PAGE_SIZE, useInspector } from '../state/inspector';
import { useSession } from '../state/session';
import { describeError } from './run';

export async function inspectChunk(rootPath: string, chunkPath: string): Promise<void> {
  const opened = useSession.getState().opened;
  if (!opened) return;
  const ins = useInspector.getState();
  ins.open({ rootPath, chunkPath });
  useSession.getState().setView('inspector');
  const client = getClient();
  try {
    const { chunk, headerHex, layout } = await client.request('chunk.inspect', { storeId: opened.storeId, rootPath, chunkPath });
    if (useInspector.getState().target?.chunkPath !== chunkPath) return;
    useInspector.getState().setHeader(chunk, headerHex, layout ?? []);
    await loadRecords(0);
  } catch (e) {
    useInspector.getState().setError(describeError(e, `Reading ${chunkPath}`));
  }
}

export async function loadRecords(offset: number): Promise<void> {
  const opened = useSession.getState().opened;
  const target = useInspector.getState().target;
  if (!opened || !target) return;
  useInspector.getState().setLoading(true);
  try {
    const page = await getClient().request('chunk.records', {
      storeId: opened.storeId,
      rootPath: target.rootPath,
      chunkPath: target.chunkPath,
      offset,
      limit: RECORDS_PAGE_SIZE,
    });
    if (useInspector.getState().target?.chunkPath !== target.chunkPath) return;
    useInspector.getState().setPage(page);
  } catch (e) {
    useInspector.getState().setError(describeError(e, `Reading the records of ${target.chunkPath}`));
  }
}
