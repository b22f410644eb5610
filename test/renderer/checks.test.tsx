// @vitest-environment happy-dom
/**
 * Overview never reads silence as "fine": without config or bucket evidence it says what was not
 * checked (no all-clear), with the control that adds it right there (issue 12, item 3), and a
 * finding's next steps from the engine are buttons that open the view making that request.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useEvidence } from '../../renderer/src/state/evidence';
import { useRepair } from '../../renderer/src/features/repair/state';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { Diagnosis } from '../../shared/model';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    setSize() {}
    destroy() {}
  },
}));

const report = syntheticReport(20, 1, 'bucket-a');

let client: FakeClient;
const calls = () => client.calls;
const evidence = {
  source: 'offline' as const,
  bucket: 'bucket-a',
  scope: ['versions.json'],
  objects: [],
  versions: [],
  multipartUploads: null,
  notes: [],
  requests: 0,
  complete: true,
};

function withDiagnosis(diagnosis: Diagnosis) {
  client = fakeClient({
    'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: false }),
    'store.recent': () => ({ recent: [] }),
    'store.open': () => ({ storeId: 'st-1', report }),
    'diagnose.run': () => diagnosis,
    'config.load': () => ({ files: ['/etc/fluent-bit/fluent-bit.conf'], format: 'classic', outputs: [], warnings: [] }),
    'evidence.importFiles': () => evidence,
  });
  setClient(client);
}

async function open() {
  render(<App />);
  fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/data/store' } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByRole('heading', { name: 'Overview' });
}

afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, config: null });
  useEvidence.getState().reset();
  useRepair.getState().reset();
});

describe('Overview: what was checked', () => {
  it('no config, no evidence and no findings is not an all-clear', async () => {
    withDiagnosis({
      at: '2026-11-29T12:00:00.000Z',
      fluentBit: { source: 'unknown', version: null, assumes: [], text: 'Fluent Bit version unknown', evidence: [] },
      outputs: [],
      storeFindings: [],
      checks: { store: true, config: null, outputs: [], roots: [{ bucket: 'logs-a', path: '/data/store/logs-a', index: 'unknown' }], complete: false },
    });
    await open();
    const checks = await screen.findByTestId('checks');
    expect(checks.textContent).toContain('Config not loaded');
    // the root's folder name is the bucket: its evidence row names it (issue 18 case 5)
    expect(within(checks).getByTestId('check-root-logs-a').textContent).toBe(
      '✗ Bucket evidence for logs-a: index state unknown — load the config (its S3 output for bucket logs-a), then list or import a listing of logs-a',
    );
    expect((await screen.findByTestId('no-findings')).textContent).toMatch(/not an all-clear/);
    expect(screen.queryByText(/nothing looks wrong/)).toBeNull();
    // the config is loaded right here (a path on the host, or an upload): no trip to another view
    const row = within(checks).getByTestId('check-config');
    fireEvent.change(within(row).getByLabelText('Fluent Bit config: path on the Store Doctor host'), { target: { value: '/etc/fluent-bit/fluent-bit.conf' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Read' }));
    await waitFor(() => expect(calls().find((c) => c.name === 'config.load')?.input).toEqual({ storeId: 'st-1', path: '/etc/fluent-bit/fluent-bit.conf' }));
    expect(useSession.getState().view).toBe('overview');
    expect(within(row).getByLabelText('Fluent Bit config: upload')).toBeTruthy();
  });

  it('per output: the bucket evidence and how far it goes, with a way to add what is missing', async () => {
    const d = syntheticDiagnosis('bucket-a');
    d.outputs[0].findings = [];
    d.checks = {
      store: true,
      config: ['/etc/fb.conf'],
      outputs: [{ id: 0, displayName: 's3.0', listing: 'incomplete', versions: false, multipart: false }],
      roots: [{ bucket: 'bucket-a', path: '/data/store/bucket-a', index: 'known' }],
      complete: true,
    };
    withDiagnosis(d);
    await open();
    const checks = await screen.findByTestId('checks');
    expect(checks.textContent).toContain('s3.0');
    expect(within(checks).getByTestId('check-listing-0').textContent).toContain('✗ Bucket evidence: incomplete listing');
    expect(within(checks).getByTestId('check-versions-0').textContent).toContain('✗ Versions not listed');
    expect(within(checks).getByTestId('check-multipart-0').textContent).toContain('✗ Multipart uploads not listed');
    expect((await screen.findByTestId('no-findings')).textContent).toMatch(/not an all-clear/);
    // a versions file by host path: added to what was imported before, then back to the diagnosis
    const versions = within(checks).getByTestId('check-versions-0');
    fireEvent.change(within(versions).getByLabelText(/^Versions .*path on the Store Doctor host/), { target: { value: '/tmp/versions.json' } });
    fireEvent.click(within(versions).getByRole('button', { name: 'Read' }));
    await waitFor(() =>
      expect(calls().find((c) => c.name === 'evidence.importFiles')?.input).toEqual({
        storeId: 'st-1',
        outputId: 0,
        versions: ['/tmp/versions.json'],
        add: true,
      }),
    );
    await waitFor(() => expect(calls().filter((c) => c.name === 'diagnose.run').length).toBe(2));
    expect(useSession.getState().view).toBe('overview');
    fireEvent.click(within(checks).getByRole('button', { name: /List live in Index & S3/ }));
    expect(useSession.getState().view).toBe('index');
    expect(useEvidence.getState().outputId).toBe(0);
  });

  it('an unknown safe index reads "unknown (at least N)", never a number the evidence does not support', async () => {
    const d = syntheticDiagnosis('bucket-a');
    Object.assign(d.outputs[0], { safeNextIndex: null, lowerBoundNextIndex: 9, indexEvidence: { coverage: 'none', text: 'no listing of bucket bucket-a' } });
    d.outputs[0].findings[0].next = [
      { label: 'List the bucket', request: { name: 'evidence.live', input: { outputId: 0 } } },
      { label: 'Import a bucket listing', request: { name: 'evidence.importOffline', input: { kind: 'listing', bucket: 'bucket-a', outputId: 0 } } },
    ];
    withDiagnosis(d);
    await open();
    expect((await screen.findByTestId('seq-card')).textContent).toContain('unknown (at least 9)');
    const card = (await screen.findByText(/seq_index_0 says 9/)).closest('article') as HTMLElement;
    const buttons = within(card)
      .getAllByTestId('next-step')
      .map((b) => b.textContent);
    expect(buttons).toEqual(['List the bucket →', 'Import a bucket listing →']);
    fireEvent.click(within(card).getByRole('button', { name: /Import a bucket listing/ }));
    expect(useSession.getState().view).toBe('index');
  });
});
