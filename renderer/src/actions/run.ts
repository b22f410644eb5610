/** Runs a request through the client, tracked in the tasks slice (progress + cancel). */
import type { RequestInput, RequestName, RequestResult } from '../../../shared/contract';
import { ClientError, getClient, newTaskId } from '../client';
import { useTasks } from '../state/tasks';

/** A readable sentence for an error, with the file it concerns. */
export function describeError(e: unknown, doing?: string): string {
  const prefix = doing ? `${doing} failed: ` : '';
  if (e instanceof ClientError) {
    const msg = e.message.trim().replace(/\.$/, '');
    const file = e.file && !msg.includes(e.file) ? ` (file: ${e.file})` : '';
    return `${prefix}${msg}${file}.`;
  }
  if (e instanceof Error) return `${prefix}${e.message}`;
  return `${prefix}${String(e)}`;
}

export function isCancelled(e: unknown): boolean {
  return e instanceof ClientError && e.code === 'cancelled';
}

/** Call a request as a visible task: shows in the task bar with its progress and a Cancel button. */
export async function runTask<N extends RequestName>(
  name: N,
  input: RequestInput<N>,
  label: string,
  options: { taskId?: string; onStart?: (taskId: string) => void } = {},
): Promise<RequestResult<N>> {
  const taskId = options.taskId ?? newTaskId(name.replace('.', '-'));
  const tasks = useTasks.getState();
  tasks.start(taskId, name, label);
  options.onStart?.(taskId);
  try {
    return await getClient().request(name, input, { taskId, onProgress: (p) => useTasks.getState().progress(taskId, p) });
  } finally {
    useTasks.getState().finish(taskId);
  }
}

export async function cancelTask(taskId: string): Promise<void> {
  useTasks.getState().cancelling(taskId);
  try {
    await getClient().cancel(taskId);
  } catch {
    /* the task may have finished meanwhile */
  }
}
