/**
 * Running tasks by id, so any door can cancel one (`task.cancel`) and follow its progress.
 * Each task gets its own AbortController, linked to the signal the door passed in.
 */
export interface RunningTask {
  taskId: string;
  request: string;
  startedAt: number;
  controller: AbortController;
}

export class TaskRegistry {
  private readonly tasks = new Map<string, RunningTask>();

  /** Start tracking a task; the returned signal aborts when the door's signal or `cancel()` does. */
  start(taskId: string, request: string, outer?: AbortSignal): { signal: AbortSignal; finish: () => void } {
    const controller = new AbortController();
    const onOuter = () => controller.abort(outer?.reason ?? new Error('cancelled'));
    if (outer?.aborted) onOuter();
    else outer?.addEventListener('abort', onOuter, { once: true });
    const task: RunningTask = { taskId, request, startedAt: Date.now(), controller };
    this.tasks.set(taskId, task);
    return {
      signal: controller.signal,
      finish: () => {
        outer?.removeEventListener('abort', onOuter);
        if (this.tasks.get(taskId) === task) this.tasks.delete(taskId);
      },
    };
  }

  /** Abort a running task. False when no task has that id (finished or never started). */
  cancel(taskId: string): boolean {
    const task = this.tasks.get(taskId);
    if (!task) return false;
    const err = new Error(`${task.request} cancelled`);
    err.name = 'AbortError';
    task.controller.abort(err);
    return true;
  }

  running(): RunningTask[] {
    return [...this.tasks.values()];
  }

  cancelAll(): void {
    for (const id of [...this.tasks.keys()]) this.cancel(id);
  }
}
