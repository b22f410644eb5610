// @vitest-environment happy-dom
/**
 * The operator console's views against a fake client (issue 12): landing on the store the door
 * opened, the archive refusal and the writable demo copy, the history, the S3 target, the chunk
 * table's facets / `/` / a finding's chunks, the Inspector's search, stale alerts, command lines.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useEvidence } from '../../renderer/src/state/evidence';
import { useChunks } from '../../renderer/src/state/chunks';
import { useInspector } from '../../renderer/src/state/inspector';
import { useHistory, useRepair } from '../../renderer/src/features/repair/state';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { HistoryList, StoreReport } from '../../shared/model';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    setSize() {}
    destroy() {}
  },
}));

const report = syntheticReport(60, 2, 'bucket-a');
const diagnosis = syntheticDiagnosis('bucket-a');
const config = {
  files: ['/etc/fb/fluent-bit.conf'],
  format: 'classic' as const,
  outputs: [
    {
      id: 0,
      plugin: 's3',
      alias: null,
      displayName: 's3.0',
      match: '*',
      source: { file: '/etc/fb/fluent-bit.conf', line: 1 },
      properties: {},
      s3: { bucket: 'bucket-a', region: 'eu-west-1', endpoint: 'http://minio:9000', storeDir: '/data/fluent-bit', rootPath: '/data/fluent-bit/bucket-a' },
    },
  ],
  warnings: [],
} as never;

let client: FakeClient;
function start(over: Parameters<typeof fakeClient>[0] = {}, opened: { report?: StoreReport; isDemo?: boolean } = {}) {
  client = fakeClient({
    'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: true }),
    'store.recent': () => ({ recent: [] }),
    'store.list': () => ({ stores: [{ storeId: 'st-1', report: opened.report ?? report, config, isDemo: opened.isDemo }] }),
    'diagnose.run': () => diagnosis,
    'store.storage': () => ({
      at: report.scannedAt,
      recordsKnown: true,
      byKind: [{ kind: 'data', chunks: 60, bytes: 1234567, records: 15000 }],
      byTag: [],
      backlog: [],
      backlogUnknownAge: { chunks: 0, bytes: 0, records: 0 },
      backlogBasis: 'age',
    }),
    ...over,
  });
  setClient(client);
  render(<App />);
}

afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, notice: null, config: null, demoCopy: null, storage: null, ready: false });
  useEvidence.getState().reset();
  useChunks.getState().reset();
  useHistory.getState().reset();
  useInspector.getState().clear();
  useRepair.getState().reset();
});

describe('landing and the demo copy', () => {
  it('lands on the Overview of the store the engine already has open (serve <path>), without opening anything', async () => {
    start();
    await screen.findByRole('heading', { name: 'Overview' });
    expect(screen.getByTestId('store-name').textContent).toBe(report.source.path);
    expect(client.calls.map((c) => c.name)).toEqual(expect.arrayContaining(['store.list', 'diagnose.run', 'store.storage']));
    expect(client.calls.some((c) => c.name === 'store.open' || c.name === 'store.openDemo')).toBe(false);
    // the storage picture, with thousands separators
    expect(within(await screen.findByTestId('storage')).getByRole('table', { name: 'By stream kind' }).textContent).toContain('15,000');
  });

  it('an archive is refused at step 1 with no plan form; the demo offers a writable copy and says where it is', async () => {
    const archive = { ...report, source: { ...report.source, kind: 'archive' as const, path: '/demo/store.tar.gz' } };
    start(
      {
        'store.openDemoCopy': () => ({
          storeId: 'st-2',
          report,
          config,
          isDemo: true,
          copy: { path: '/tmp/store-doctor-demo-x/store', from: '/demo/store.tar.gz' },
        }),
      },
      { report: archive, isDemo: true },
    );
    await screen.findByRole('heading', { name: 'Overview' });
    act(() => useSession.getState().setView('repair'));
    const refusal = await screen.findByTestId('archive-refusal');
    expect(refusal.textContent).toContain('Refused: /demo/store.tar.gz is an archive');
    expect(screen.queryByRole('button', { name: 'Plan (dry run)' })).toBeNull();
    fireEvent.click(within(refusal).getByRole('button', { name: 'Open a writable copy of the demo' }));
    expect((await screen.findByTestId('demo-copy')).textContent).toContain('/tmp/store-doctor-demo-x/store');
    await waitFor(() => expect(useSession.getState().view).toBe('repair'));
    await screen.findByRole('button', { name: 'Plan (dry run)' });
  });
});

describe('history', () => {
  it('lists each applied action with when, by whom, result and undo state, and plans the undo of the newest', async () => {
    const list: HistoryList = {
      journals: ['/data/fluent-bit/bucket-a/.store-doctor/journal.jsonl'],
      note: null,
      entries: [
        {
          id: 'a2',
          at: '2026-11-29T12:05:00.000Z',
          action: 'protect-index',
          summary: 'Protect sequence/',
          rootPath: '/r',
          journal: 'j',
          uid: 0,
          result: 'verified',
          resultText: 'applied and verified',
          resultAt: null,
          undo: { state: 'next', text: 'undo takes this one next', at: null },
          changes: 2,
        },
        {
          id: 'a1',
          at: '2026-11-29T12:00:00.000Z',
          action: 'repair-index',
          summary: 'Set seq_index_0 to 17',
          rootPath: '/r',
          journal: 'j',
          uid: null,
          result: 'verified',
          resultText: 'applied and verified',
          resultAt: null,
          undo: { state: 'undone', text: 'undone', at: '2026-11-29T12:01:00.000Z' },
          changes: 1,
        },
      ],
    };
    start({
      'history.list': () => list,
      'repair.plan': () => ({
        action: 'undo',
        storePath: '/r',
        rootPath: '/r',
        summary: 'Undo protect-index a2',
        why: [],
        steps: [],
        warnings: [],
        refusals: [],
        planId: 'plan-aaaaaaaaaaaaaaaaaaaaaaaa',
      }),
    });
    await screen.findByRole('heading', { name: 'Overview' });
    act(() => useSession.getState().setView('history'));
    const rows = await screen.findAllByTestId('history-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[2].textContent)).toEqual(['uid 0', 'not recorded']);
    expect(rows[1].querySelector('time')!.getAttribute('title')).toMatch(/\(local time\)$/);
    expect(rows[0].textContent).toContain('next');
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Plan the undo →' }));
    await waitFor(() => expect(client.calls.find((c) => c.name === 'repair.plan')?.input).toMatchObject({ action: 'undo' }));
    expect(useSession.getState().view).toBe('repair');
  });
});

describe('S3 target', () => {
  it('shows where a replay goes, tests it, and saves it for the bucket', async () => {
    const target = {
      outputId: 0,
      outputName: 's3.0',
      bucket: 'bucket-a',
      endpoint: 'http://minio:9000',
      endpointFrom: 'config' as const,
      region: 'eu-west-1',
      regionFrom: 'config' as const,
      addressing: 'path-style' as const,
      profile: null,
      profileFrom: null,
      credentialSource: 'environment variables (AWS_ACCESS_KEY_ID)',
    };
    start({
      'connection.describe': () => target,
      'connection.test': () => ({
        target,
        ok: false,
        httpStatus: null,
        at: '2026-11-29T12:00:00Z',
        message: 'Nothing answers at http://minio:9000 (connection refused). Nothing was changed.',
      }),
      'connection.save': ({ bucket, connection }) => ({ saved: { bucket, connection, savedAt: '2026-11-29T12:00:00Z' } }),
    });
    await screen.findByRole('heading', { name: 'Overview' });
    act(() => useSession.getState().setView('replay'));
    const panel = await screen.findByTestId('s3-target');
    await waitFor(() => expect(panel.textContent).toContain('http://minio:9000 from the Fluent Bit config'));
    expect(panel.textContent).toContain('Addressingpath-style');
    expect(panel.textContent).toContain('environment variables (AWS_ACCESS_KEY_ID)');
    fireEvent.click(within(panel).getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByTestId('connection-test')).textContent).toBe(
      '✗ Nothing answers at http://minio:9000 (connection refused). Nothing was changed.',
    );
    fireEvent.change(screen.getByLabelText('Profile'), { target: { value: 'ops' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save for bucket-a' }));
    await waitFor(() => expect(client.calls.find((c) => c.name === 'connection.save')?.input).toEqual({ bucket: 'bucket-a', connection: { profile: 'ops' } }));
  });
});

describe('chunks, Inspector, alerts, command lines', () => {
  it("'/' focuses the tag filter, a count filters, and a finding shows exactly its chunks", async () => {
    const d = syntheticDiagnosis('bucket-a');
    const paths = report.roots[0].streams[1].chunks.slice(0, 4).map((c) => c.path);
    d.storeFindings = [
      {
        code: 'CHUNK_DAMAGED',
        severity: 'error',
        summary: '4 chunks Fluent Bit rejects',
        evidence: [],
        action: 'Inspect each file.',
        next: [],
        outputId: null,
        data: { chunks: paths },
      },
    ];
    start({ 'diagnose.run': () => d });
    const card = (await screen.findByText('4 chunks Fluent Bit rejects')).closest('article')!;
    fireEvent.click(within(card as HTMLElement).getByTestId('show-chunks'));
    expect(useSession.getState().view).toBe('chunks');
    expect((await screen.findByTestId('paths-filter')).textContent).toContain('CHUNK_DAMAGED: 4 chunks');
    expect(screen.getByTestId('chunk-count').textContent).toBe('4 of 60 chunks');
    expect(screen.getAllByTestId('chunk-row').map((r) => r.getAttribute('data-path'))).toEqual(paths);
    fireEvent.click(screen.getByRole('button', { name: 'Show all chunks' }));
    fireEvent.keyDown(window, { key: '/' });
    expect(document.activeElement?.id).toBe('chunk-tag-filter');
    const facet = within(screen.getByTestId('facets')).getByRole('button', { name: /^app\.web / });
    fireEvent.click(facet);
    await waitFor(() => expect(screen.getByTestId('chunk-count').textContent).toBe('12 of 60 chunks'));
  });

  it('searches the records of the page and marks the matches; an alert does not follow to the next view', async () => {
    start({
      'chunk.inspect': ({ chunkPath }) => ({
        chunk: report.roots[0].streams[0].chunks.find((c) => c.path === chunkPath)!,
        headerHex: 'c100',
        layout: [{ name: 'magic', offset: 0, length: 2, hex: 'c100', value: 'C1 00', note: 'Chunk I/O magic', ok: true }],
      }),
      'chunk.records': ({ chunkPath, offset }) => ({
        chunkPath,
        offset,
        records: [{ msg: 'GET /a 200' }, { msg: 'POST /b 500' }, { msg: 'GET /c 200' }],
        total: 3,
        nextOffset: null,
      }),
      'evidence.live': () => {
        throw new Error('Nothing answers at http://minio:9000 (connection refused). Nothing was changed (a listing only reads).');
      },
    });
    await screen.findByRole('heading', { name: 'Overview' });
    const { inspectChunk } = await import('../../renderer/src/actions/inspector');
    await act(() => inspectChunk(report.roots[0].path, report.roots[0].streams[0].chunks[0].path));
    expect(screen.getByTestId('layout').textContent).toContain('✓ Chunk I/O magic');
    expect(screen.getByTestId('records').querySelectorAll('li')).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Search the records of this page'), { target: { value: '500' } });
    expect(screen.getByTestId('records').textContent).toBe('{"msg":"POST /b 500"}');
    expect(screen.getByTestId('records').querySelector('mark')!.textContent).toBe('500');
    expect(screen.getByTestId('records-matches').textContent).toBe('1 of 3 records on this page match');
    act(() => useSession.getState().setView('index'));
    fireEvent.click(await screen.findByRole('button', { name: 'List and compare' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Listing the bucket failed: Nothing answers/);
    act(() => useSession.getState().setView('overview'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it("a finding's next step has its command line, rendered by the CLI's own renderer", async () => {
    start();
    const card = (await screen.findByText('seq_index_0 says 9 but the bucket already has index 16')).closest('article') as HTMLElement;
    const block = within(card).getByTestId('cli-equivalent');
    expect(block.querySelector('pre')!.textContent).toBe(`store-doctor repair-index ${report.source.path} --config /etc/fb/fluent-bit.conf --apply`);
    expect(within(block).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });
});
