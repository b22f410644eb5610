// @vitest-environment happy-dom
/** The Guard view: start and stop through guard.start / guard.stop, the status it shows, and when it cannot start. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { GuardView } from '../../renderer/src/features/guard';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useGuard } from '../../renderer/src/features/guard/state';
import { fakeClient } from './fakeClient';
import { syntheticReport } from '../e2e/support/synthetic';
import { GUARD_OFF, type GuardStatus } from '../../shared/guard-status';
import type { FluentBitConfig } from '../../shared/model';

const report = syntheticReport(10, 1, 'fb-crash');
const WATCHING: GuardStatus = {
  ...GUARD_OFF,
  running: true,
  state: 'watching',
  startedAt: '2026-12-06T04:00:00.000Z',
  stateDir: '/state/guard/abc',
  restores: 1,
  lastRestoreAt: '2026-12-06T04:01:00.000Z',
  lastRestoreLatencyMs: 12,
  roots: [
    {
      bucket: 'fb-crash',
      rootPath: '/s/fb-crash',
      phase: 'watching',
      problem: null,
      outputs: [{ id: 0, displayName: 's3.0', kept: 6, final: true, restores: 1 }],
      lastRestoreAt: '2026-12-06T04:01:00.000Z',
    },
  ],
  messages: ['2026-12-06T04:01:00.000Z restored seq_index_0 of fb-crash: done'],
};

afterEach(() => {
  cleanup();
  setClient(null);
  useSession.setState({ opened: null, config: null });
  useGuard.setState({ status: null, busy: false, error: null });
});

function open(config: boolean) {
  useSession.setState({ opened: { storeId: 'st-1', report }, config: config ? ({ outputs: [] } as unknown as FluentBitConfig) : null });
}

describe('Guard view', () => {
  it('starts the guard on the open store, shows its state, kept value and restores, and stops it', async () => {
    let running = false;
    const client = fakeClient({
      'guard.status': () => (running ? WATCHING : GUARD_OFF),
      'guard.start': () => ((running = true), WATCHING),
      'guard.stop': () => ((running = false), { ...WATCHING, running: false, state: 'stopped' }),
    });
    setClient(client);
    open(true);
    render(<GuardView />);
    await waitFor(() => expect(screen.getByTestId('guard-state').textContent).toBe('off'));
    fireEvent.click(screen.getByRole('button', { name: 'Start the guard' }));
    await waitFor(() => expect(screen.getByTestId('guard-state').textContent).toBe('watching'));
    expect(client.calls.find((c) => c.name === 'guard.start')?.input).toEqual({ storeId: 'st-1', marker: false });
    expect(screen.getByTestId('guard-kept').textContent).toBe('6 (final)');
    expect(screen.getByTestId('guard-output-restores').textContent).toBe('1');
    expect(screen.getByTestId('guard-log').textContent).toContain('restored seq_index_0 of fb-crash');
    fireEvent.click(screen.getByRole('button', { name: 'Stop the guard' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start the guard' })).toBeTruthy());
    expect(client.calls.filter((c) => c.name === 'guard.stop')).toHaveLength(1);
  });

  it('cannot start without the Fluent Bit config, and says why', async () => {
    setClient(fakeClient({ 'guard.status': () => GUARD_OFF }));
    open(false);
    render(<GuardView />);
    await screen.findByText(/Load the Fluent Bit config first/);
    expect((screen.getByRole('button', { name: 'Start the guard' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a refusal from the engine', async () => {
    setClient(
      fakeClient({
        'guard.status': () => GUARD_OFF,
        'guard.start': () => {
          throw new Error('this session keeps no state folder');
        },
      }),
    );
    open(true);
    render(<GuardView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start the guard' }));
    await screen.findByText(/this session keeps no state folder/);
  });
});
