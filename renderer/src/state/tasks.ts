/** Long-running requests with their progress, so the UI can show a bar and a Cancel button. */
import { create } from 'zustand';
import type { RequestName } from '../../../shared/contract';
import type { Progress } from '../../../shared/model';

export interface TaskEntry {
  taskId: string;
  request: RequestName;
  label: string;
  progress: Progress | null;
  startedAt: number;
  /** When the last progress event arrived (for its rate and ETA). */
  progressAt?: number;
  cancelling: boolean;
}

export interface TasksState {
  tasks: Record<string, TaskEntry>;
  start(taskId: string, request: RequestName, label: string): void;
  progress(taskId: string, progress: Progress): void;
  cancelling(taskId: string): void;
  finish(taskId: string): void;
}

export const useTasks = create<TasksState>()((set) => ({
  tasks: {},
  start: (taskId, request, label) =>
    set((s) => ({ tasks: { ...s.tasks, [taskId]: { taskId, request, label, progress: null, startedAt: Date.now(), cancelling: false } } })),
  progress: (taskId, progress) =>
    set((s) => (s.tasks[taskId] ? { tasks: { ...s.tasks, [taskId]: { ...s.tasks[taskId], progress, progressAt: Date.now() } } } : s)),
  cancelling: (taskId) => set((s) => (s.tasks[taskId] ? { tasks: { ...s.tasks, [taskId]: { ...s.tasks[taskId], cancelling: true } } } : s)),
  finish: (taskId) =>
    set((s) => {
      const { [taskId]: _gone, ...rest } = s.tasks;
      return { tasks: rest };
    }),
}));

/** Fraction 0..1 of a progress, or null when the total is unknown. */
export function progressFraction(p: Progress | null): number | null {
  if (!p) return null;
  if (p.total && p.total > 0) return Math.min(1, p.done / p.total);
  if (p.totalBytes && p.totalBytes > 0 && p.bytes != null) return Math.min(1, p.bytes / p.totalBytes);
  return null;
}
