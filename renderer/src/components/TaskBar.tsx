/** Every running task with its progress bar (count, bytes, rate, ETA) and a Cancel button. */
import { cancelTask } from '../actions/run';
import { progressFraction, useTasks, type TaskEntry } from '../state/tasks';
import { formatBytes, formatCount } from '../format';
import { progressFigures } from '../../../shared/progress';

export function ProgressLine({ task }: { task: TaskEntry }) {
  const p = task.progress;
  const fraction = progressFraction(p);
  // rate and ETA: the progress so far over the time from the task's start to this event
  const figures = p && p.done > 0 && task.progressAt ? progressFigures(p, (task.progressAt - task.startedAt) / 1000) : null;
  const detail = p
    ? [
        p.total != null ? `${formatCount(p.done)} of ${formatCount(p.total)}` : `${formatCount(p.done)} done`,
        p.bytes != null ? formatBytes(p.bytes) : null,
        figures?.rate ?? null,
        figures?.eta != null ? `ETA ${figures.eta}` : null,
        p.current ?? null,
      ]
        .filter(Boolean)
        .join(' · ')
    : 'starting…';
  return (
    <div className="task" data-testid="task">
      <div className="task-head">
        <span className="task-label">{task.label}</span>
        <span className="task-detail">{detail}</span>
        <button type="button" className="small" disabled={task.cancelling} onClick={() => void cancelTask(task.taskId)}>
          {task.cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      <progress max={1} value={fraction ?? undefined} aria-label={task.label} />
    </div>
  );
}

export function TaskBar() {
  const tasks = useTasks((s) => s.tasks);
  const list = Object.values(tasks);
  if (list.length === 0) return null;
  return (
    <section className="taskbar" aria-label="Running tasks" aria-live="polite">
      {list.map((t) => (
        <ProgressLine key={t.taskId} task={t} />
      ))}
    </section>
  );
}
