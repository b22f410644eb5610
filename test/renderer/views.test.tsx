// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useChunks } from '../../renderer/src/state/chunks';
import { useRepair } from '../../renderer/src/features/repair/state';
import { useEvidence } from '../../renderer/src/state/evidence';
import { useInspector } from '../../renderer/src/state/inspector';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { RequestResult } from '../../shared/contract';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    constructor(
      public opts: unknown,
      public data: unknown,
    ) {}
    setSize() {}
    destroy() {}
  },
}));

const report = syntheticReport(500, 3, 'bucket-a');
const diagnosis = syntheticDiagnosis('bucket-a');
const rootPath = report.roots[0].path;

let client: FakeClient;

function makeClient(overrides: Parameters<typeof fakeClient>[0] = {}): FakeClient {
  return fakeClient({
    'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: true }),
    'store.recent': () => ({ recent: [{ path: '/old/store', openedAt: '2026-11-28T10:00:00.000Z' }] }),
    'store.open': ({ path }) => ({ storeId: 'st-1', report: { ...report, source: { ...report.source, path } } }),
    'store.rescan': () => ({ storeId: 'st-1', report }),
    'diagnose.run': () => diagnosis,
    'chunk.inspect': ({ chunkPath }) => {
      const chunk = report.roots[0].streams.flatMap((s) => s.chunks).find((c) => c.path === chunkPath)!;
      return { chunk, headerHex: 'c1 00 00 00 00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12', layout: [] };
    },
    'chunk.records': ({ chunkPath, offset }) => ({
      chunkPath,
      offset,
      records: [{ log: `record ${offset}`, level: 'info' }],
      total: 120,
      nextOffset: offset + 50 < 120 ? offset + 50 : null,
    }),
    ...overrides,
  });
}

async function openStore(path = '/data/fluent-bit/bucket-a') {
  render(<App />);
  const input = await screen.findByLabelText('Path');
  fireEvent.change(input, { target: { value: path } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByRole('heading', { name: 'Overview' });
}

beforeEach(() => {
  client = makeClient();
  setClient(client);
});
afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, config: null });
  useChunks.getState().reset();
  useRepair.getState().reset();
  useEvidence.getState().reset();
  useInspector.getState().clear();
});

describe('Open → Overview', () => {
  it('opens a typed path, runs the diagnosis and shows its findings by severity with an action', async () => {
    await openStore();
    expect(client.calls.map((c) => c.name)).toEqual(expect.arrayContaining(['app.info', 'store.recent', 'store.open', 'diagnose.run']));
    expect(client.calls.find((c) => c.name === 'store.open')!.input).toEqual({ path: '/data/fluent-bit/bucket-a' });
    const finding = await screen.findByText('seq_index_0 says 9 but the bucket already has index 16');
    const card = finding.closest('article')!;
    expect(within(card as HTMLElement).getByText('critical')).toBeTruthy();
    expect(within(card as HTMLElement).getByText(/Repair the index to 17/)).toBeTruthy();
    expect(screen.getByTestId('store-name').textContent).toBe('/data/fluent-bit/bucket-a');
    // seq index card and what happens on graceful stop come from the report as-is
    expect(screen.getByTestId('seq-card').textContent).toContain('next index 9');
    expect(screen.getByText(/deleted on graceful stop with every seq index/)).toBeTruthy();
    // the finding's next step (a request from the engine) is a button: the repair wizard with that action preselected
    fireEvent.click(within(card as HTMLElement).getByRole('button', { name: /Plan the index repair \(next index 17\)/ }));
    expect(useSession.getState().view).toBe('repair');
    expect(useRepair.getState().params).toMatchObject({ action: 'repair-index', outputId: 0 });
  });

  it('shows an error sentence naming the path when the engine refuses', async () => {
    client = makeClient({
      'store.open': () => {
        throw Object.assign(new (class extends Error {})('not a Fluent Bit store: no stream folders'), {});
      },
    });
    setClient(client);
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/tmp/empty' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Opening /tmp/empty failed: not a Fluent Bit store: no stream folders');
  });

  it('navigates with Alt+digit shortcuts once a store is open', async () => {
    await openStore();
    fireEvent.keyDown(window, { key: '3', altKey: true });
    expect(useSession.getState().view).toBe('chunks');
    await screen.findByRole('heading', { name: 'Chunks' });
    fireEvent.keyDown(window, { key: '1', altKey: true });
    expect(useSession.getState().view).toBe('open');
  });
});

describe('Chunks and Inspector', () => {
  it('filters the table by status and stream', async () => {
    await openStore();
    act(() => useSession.getState().setView('chunks'));
    expect((await screen.findByTestId('chunk-count')).textContent).toBe('500 of 500 chunks');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'crc-mismatch' } });
    expect(screen.getByTestId('chunk-count').textContent).toBe('50 of 500 chunks');
    const stream = report.roots[0].streams[0];
    fireEvent.change(screen.getByLabelText('Stream'), { target: { value: stream.name } });
    const expected = stream.chunks.filter((c) => c.status === 'crc-mismatch').length;
    expect(screen.getByTestId('chunk-count').textContent).toBe(`${expected} of 500 chunks`);
  });

  it('shows header fields, the header hex and pages of records', async () => {
    await openStore();
    const chunk = report.roots[0].streams[1].chunks[3];
    const { inspectChunk } = await import('../../renderer/src/actions/inspector');
    await act(() => inspectChunk(rootPath, chunk.path));
    expect(client.calls.find((c) => c.name === 'chunk.inspect')!.input).toEqual({ storeId: 'st-1', rootPath, chunkPath: chunk.path });
    expect(screen.getByTestId('header-fields').textContent).toContain(chunk.tag!);
    expect(screen.getByTestId('header-hex').textContent).toMatch(/^00000000 {2}c1 00 00/);
    expect(screen.getByTestId('records').textContent).toContain('record 0');
    expect(screen.getByText('1–1 of 120')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next →' }));
    await waitFor(() => expect(screen.getByTestId('records').textContent).toContain('record 50'));
    const recordCalls = client.calls.filter((c) => c.name === 'chunk.records').map((c) => (c.input as { offset: number }).offset);
    expect(recordCalls).toEqual([0, 50]);
  });
});

describe('Repair wizard and live watch', () => {
  const repairPlan: RequestResult<'repair.plan'> = {
    action: 'repair-index',
    storePath: rootPath,
    rootPath,
    summary: 'Set the next index of s3.0 from 9 to 17',
    why: ['the bucket already has index 16'],
    steps: [{ kind: 'write-file', target: `${rootPath}/sequence/index_metadata/seq_index_0`, description: 'write the next index', before: '9', after: '17' }],
    warnings: [],
    refusals: [],
    planId: 'plan-aaaaaaaaaaaaaaaaaaaaaaaa',
    confirm: 'bucket-a',
  };
  const undoPlanId = 'plan-bbbbbbbbbbbbbbbbbbbbbbbb';
  const result = {
    action: 'repair-index' as const,
    applied: true,
    summary: 'seq_index_0 now holds 17',
    steps: [{ step: repairPlan.steps[0], ok: true, message: 'written and read back' }],
    undoId: 'u-1',
    verified: true,
    warnings: [],
  };

  it('plans, shows the diff, requires the bucket name, applies, verifies and offers undo', async () => {
    client = makeClient({
      'repair.plan': ({ action }) =>
        action === 'undo'
          ? {
              ...repairPlan,
              action: 'undo',
              planId: undoPlanId,
              summary: 'Undo repair-index u-1 of 2026-11-29T12:00:00.000Z: Set the next index of s3.0 from 9 to 17',
              steps: [{ ...repairPlan.steps[0], before: '17', after: '9' }],
            }
          : repairPlan,
      'repair.apply': ({ planId }) => (planId === undoPlanId ? { ...result, action: 'undo', summary: 'restored 9', undoId: null } : result),
    });
    setClient(client);
    await openStore();
    act(() => useSession.getState().setView('repair'));
    fireEvent.click(await screen.findByRole('button', { name: 'Plan (dry run)' }));
    await screen.findByText('Plan: Set the next index of s3.0 from 9 to 17');
    const diff = screen.getByTestId('diff');
    expect(diff.querySelector('.diff-before')!.textContent).toBe('9');
    expect(diff.querySelector('.diff-after')!.textContent).toBe('17');
    const apply = screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Bucket name to confirm'), { target: { value: 'bucket-b' } });
    expect(apply.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Bucket name to confirm'), { target: { value: 'bucket-a' } });
    expect(apply.disabled).toBe(false);
    fireEvent.click(apply);
    const res = await screen.findByTestId('apply-result');
    expect(res.textContent).toContain('Applied — verified');
    // the reviewed plan is the applied plan: apply names its id, nothing else
    expect(client.calls.find((c) => c.name === 'repair.apply')!.input).toEqual({ storeId: 'st-1', planId: repairPlan.planId, confirm: 'bucket-a' });
    expect(client.calls.find((c) => c.name === 'repair.plan')!.input).toMatchObject({ storeId: 'st-1', action: 'repair-index', outputId: 0 });
    // what the write changed comes back with the result: the store is not rescanned, the diagnosis is run again
    await waitFor(() => expect(client.calls.filter((c) => c.name === 'diagnose.run').length).toBeGreaterThan(1));
    expect(client.calls.some((c) => c.name === 'store.rescan')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Undo this change…' }));
    // an undo's headline says what it puts back, in reverse terms
    await screen.findByText('Plan: Put back seq_index_0: 17 → 9');
    expect(screen.getByText('Undoes repair-index u-1 of 2026-11-29T12:00:00.000Z: Set the next index of s3.0 from 9 to 17')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Bucket name to confirm'), { target: { value: 'bucket-a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getByTestId('apply-result').textContent).toContain('restored 9'));
    expect(client.calls.filter((c) => c.name === 'repair.apply').map((c) => (c.input as { planId: string }).planId)).toEqual([repairPlan.planId, undoPlanId]);
  });

  it('a store.changed event shows the banner, blocks apply, and rescan clears it', async () => {
    client = makeClient({ 'repair.plan': () => repairPlan, 'repair.apply': () => result });
    setClient(client);
    await openStore();
    act(() => client.emit('store.changed', { storeId: 'st-1', paths: ['2026-11-10T08:00:00/new.flb'], at: '2026-11-29T12:00:00Z' }));
    const banner = await screen.findByTestId('live-banner');
    expect(banner.textContent).toContain('The store changed on disk — writes are blocked; rescan');
    expect(banner.textContent).toContain('new.flb');
    act(() => useSession.getState().setView('repair'));
    fireEvent.click(await screen.findByRole('button', { name: 'Plan (dry run)' }));
    await screen.findByText(/Plan: Set the next index/);
    fireEvent.change(screen.getByLabelText('Bucket name to confirm'), { target: { value: 'bucket-a' } });
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(banner).getByRole('button', { name: 'Rescan' }));
    await waitFor(() => expect(screen.queryByTestId('live-banner')).toBeNull());
    expect(client.calls.filter((c) => c.name === 'store.rescan')).toHaveLength(1);
  });
});

describe('Index & S3', () => {
  it('imports offline listings as documents, then shows the chart summary and collision analysis', async () => {
    client = makeClient({
      'evidence.importOffline': ({ documents }) => ({
        source: 'offline',
        bucket: 'bucket-a',
        scope: documents.map((d) => d.name),
        objects: [{ key: 'a', size: 1, etag: null, lastModified: null }],
        versions: null,
        multipartUploads: null,
        notes: [],
        requests: 0,
        complete: true,
      }),
    });
    setClient(client);
    await openStore();
    act(() => useSession.getState().setView('index'));
    const input = (await screen.findByTestId('offline-input')) as HTMLInputElement;
    const file = new File(['{"Contents":[]}'], 's3api-list-objects-v2.json', { type: 'application/json' });
    fireEvent.change(input, { target: { files: [file] } });
    await screen.findByTestId('evidence-summary');
    const call = client.calls.find((c) => c.name === 'evidence.importOffline')!;
    expect(call.input).toEqual({ storeId: 'st-1', outputId: 0, documents: [{ name: 's3api-list-objects-v2.json', text: '{"Contents":[]}' }] });
    expect(screen.getByTestId('evidence-summary').textContent).toContain('Offline listing of bucket-a: 1 objects');
    expect(screen.getByTestId('index-chart').textContent).toContain('1 reset (red lines)');
    expect(screen.getByTestId('collision').textContent).toContain('same tag, same second only');
  });
});

describe('long work and theme', () => {
  it('shows a running task with its progress and cancels it by task id', async () => {
    let finish!: () => void;
    client = makeClient({
      'store.open': (_input, options) =>
        new Promise((resolve) => {
          options?.onProgress?.({ task: 'scan', done: 40, total: 100, current: '2026-11-10T08:00:00/a.flb' });
          finish = () => resolve({ storeId: 'st-1', report });
        }),
    });
    setClient(client);
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/big/store' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const task = await screen.findByTestId('task');
    expect(task.textContent).toContain('Scanning /big/store');
    expect(task.textContent).toContain('40 of 100');
    expect((within(task).getByRole('progressbar') as HTMLProgressElement).value).toBeCloseTo(0.4);
    fireEvent.click(within(task).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(client.cancelled).toHaveLength(1));
    expect(client.cancelled[0]).toBe(client.calls.find((c) => c.name === 'store.open')!.taskId);
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByTestId('task')).toBeNull());
  });

  it('toggles the theme on <html> and remembers it', async () => {
    render(<App />);
    const button = await screen.findByRole('button', { name: /Theme: system/ });
    fireEvent.click(button);
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: /Theme: light/ }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('store-doctor.theme')).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: /Theme: dark/ }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});
