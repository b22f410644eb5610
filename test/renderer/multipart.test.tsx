// @vitest-environment happy-dom
/** Multipart view: the operator's choice (complete / abort / abort orphans) reaches the repair.plan request. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useMultipart } from '../../renderer/src/features/repair/state';
import { useEvidence } from '../../renderer/src/state/evidence';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    setSize() {}
    destroy() {}
  },
}));

const report = syntheticReport(20, 1, 'bucket-a');
let client: FakeClient;

beforeEach(() => {
  client = fakeClient({
    'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: true }),
    'store.recent': () => ({ recent: [] }),
    'store.open': () => ({ storeId: 'st-1', report }),
    'diagnose.run': () => syntheticDiagnosis('bucket-a'),
    'repair.plan': () => ({
      action: 'multipart',
      storePath: '/s',
      rootPath: '/s/bucket-a',
      summary: 'nothing to settle',
      why: [],
      steps: [],
      warnings: [],
      refusals: [],
    }),
  });
  setClient(client);
});
afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, config: null });
  useMultipart.getState().reset();
  useEvidence.getState().reset();
});

async function openMultipart() {
  render(<App />);
  fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/data/s3' } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByRole('heading', { name: 'Overview' });
  fireEvent.keyDown(window, { key: '8', altKey: true });
  await screen.findByRole('heading', { name: 'Multipart uploads' });
}

const planInputs = () => client.calls.filter((c) => c.name === 'repair.plan').map((c) => c.input as Record<string, unknown>);

describe('Multipart view', () => {
  it('by default asks for safe completions only (no decision, no orphan abort)', async () => {
    await openMultipart();
    fireEvent.click(screen.getByRole('button', { name: /Plan complete/ }));
    await waitFor(() => expect(planInputs()).toHaveLength(1));
    expect(planInputs()[0]).toMatchObject({ action: 'multipart' });
    expect(planInputs()[0]).not.toHaveProperty('multipartDecision');
    expect(planInputs()[0]).not.toHaveProperty('abortOrphans');
  });

  it('sends abort and abort-orphans when the operator chooses them', async () => {
    await openMultipart();
    fireEvent.click(screen.getByLabelText(/Abort every upload/));
    fireEvent.click(screen.getByLabelText(/Also abort server uploads/));
    fireEvent.click(screen.getByRole('button', { name: /Plan complete/ }));
    await waitFor(() => expect(planInputs()).toHaveLength(1));
    expect(planInputs()[0]).toMatchObject({ action: 'multipart', multipartDecision: 'abort', abortOrphans: true });
  });
});
