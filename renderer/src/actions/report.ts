/** Export the report for a support ticket and hand it to the browser as a download. */
import type { RequestResult } from '../../../shared/contract';
import { getClient } from '../client';
import { useSession } from '../state/session';

export async function exportReport(format: 'json' | 'markdown'): Promise<RequestResult<'report.export'>> {
  const opened = useSession.getState().opened;
  if (!opened) throw new Error('Open a store first.');
  return getClient().request('report.export', { storeId: opened.storeId, format });
}

export function downloadText(fileName: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
