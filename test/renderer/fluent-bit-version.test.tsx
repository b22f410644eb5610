// @vitest-environment happy-dom
/**
 * The Overview says which Fluent Bit version the diagnosis applies and where it came from, and
 * takes the version that runs the store: `store.fluentBitVersion`, then a new diagnosis.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useEvidence } from '../../renderer/src/state/evidence';
import { fakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { FluentBitVersionInfo } from '../../shared/model';

vi.mock('uplot', () => ({
  default: class {
    setSize() {}
    destroy() {}
  },
}));

afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, config: null });
  useEvidence.getState().reset();
});

const inferred: FluentBitVersionInfo = {
  source: 'inferred',
  version: null,
  assumes: ['5.0.9', '5.1.1'],
  text: 'Fluent Bit 5.x, inferred from the store (quarantine/ exists)',
  evidence: ['bucket-a/quarantine/ exists: only 5.0.9 and 5.1.1 create it (docs/fluent-bit-versions.md §3)'],
};
const given: FluentBitVersionInfo = {
  source: 'given',
  version: '4.2.8',
  assumes: ['4.2.8'],
  text: 'Fluent Bit 4.2.8, given',
  evidence: ['given: Fluent Bit 4.2.8'],
};

describe('Overview: the Fluent Bit version', () => {
  it('shows where the version comes from; a typed version is sent to the engine and the store diagnosed again', async () => {
    let current = inferred;
    const client = fakeClient({
      'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: false }),
      'store.recent': () => ({ recent: [] }),
      'store.open': () => ({ storeId: 'st-1', report: syntheticReport(5, 1, 'bucket-a') }),
      'diagnose.run': () => ({ ...syntheticDiagnosis('bucket-a'), fluentBit: current }),
      'store.fluentBitVersion': (input) => {
        current = input.version ? given : inferred;
        return current;
      },
    });
    setClient(client);
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/data/store' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const card = await screen.findByTestId('fluent-bit-version');
    expect(card.textContent).toContain('Fluent Bit 5.x, inferred from the store (quarantine/ exists)');
    expect(card.textContent).toContain('only 5.0.9 and 5.1.1 create it');
    expect(within(card).queryByRole('button', { name: 'Infer from the store' })).toBeNull();
    const input = within(card).getByLabelText('Version that runs this store');
    const use = within(card).getByRole('button', { name: 'Use this version' });
    fireEvent.change(input, { target: { value: 'latest' } });
    expect((use as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '4.2.8' } });
    fireEvent.click(use);
    await waitFor(() => expect(screen.getByTestId('fluent-bit-version').textContent).toContain('Fluent Bit 4.2.8, given'));
    expect(client.calls.filter((c) => c.name === 'store.fluentBitVersion').map((c) => c.input)).toEqual([{ storeId: 'st-1', version: '4.2.8' }]);
    expect(client.calls.filter((c) => c.name === 'diagnose.run')).toHaveLength(2);
    fireEvent.click(within(screen.getByTestId('fluent-bit-version')).getByRole('button', { name: 'Infer from the store' }));
    await waitFor(() => expect(screen.getByTestId('fluent-bit-version').textContent).toContain('inferred from the store'));
    expect(client.calls.filter((c) => c.name === 'store.fluentBitVersion').at(-1)?.input).toEqual({ storeId: 'st-1', version: null });
  });
});
