// @vitest-environment happy-dom
/** The app's task bar shows a long task's rate and ETA (issue 23): progress over the time from the task's start to the event. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ProgressLine } from '../../renderer/src/components/TaskBar';
import type { TaskEntry } from '../../renderer/src/state/tasks';

afterEach(() => {
  cleanup();
});

describe('ProgressLine', () => {
  it('a replay half done after 10 s: count, bytes, rate and ETA', () => {
    const task: TaskEntry = {
      taskId: 't1',
      request: 'repair.apply',
      label: 'Replay',
      startedAt: 1_000_000 - 10_000,
      progressAt: 1_000_000,
      cancelling: false,
      progress: { task: 'replay', done: 1000, total: 2000, bytes: 5 * 1048576, totalBytes: 10 * 1048576, current: 'quarantine/1-a.flb' },
    };
    render(<ProgressLine task={task} />);
    const detail = screen.getByText(/of 2,000|of 2000/).textContent!;
    expect(detail).toContain('512 KiB/s');
    expect(detail).toContain('ETA 10 s');
    expect(detail).toContain('quarantine/1-a.flb');
  });

  it('nothing done yet: no rate, no ETA', () => {
    const task: TaskEntry = {
      taskId: 't2',
      request: 'repair.apply',
      label: 'Replay',
      startedAt: 1_000_000 - 3_000,
      progressAt: 1_000_000,
      cancelling: false,
      progress: { task: 'replay', done: 0, total: 2000, bytes: 0, totalBytes: 10 * 1048576 },
    };
    render(<ProgressLine task={task} />);
    expect(screen.getByText(/of 2,000|of 2000/).textContent).not.toMatch(/ETA|\/s/);
  });
});
