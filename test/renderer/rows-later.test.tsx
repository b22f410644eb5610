// @vitest-environment happy-dom
/**
 * Landing on a store the engine already has open (`serve <path>`): the page asks for the store
 * list without the chunk rows, paints the Overview from the summary, and then asks for the rows;
 * the Chunks and Multipart views say the rows are being read until they come.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useEvidence } from '../../renderer/src/state/evidence';
import { useChunks } from '../../renderer/src/state/chunks';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { OpenedStore } from '../../shared/contract';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    setSize() {}
    destroy() {}
  },
}));

const report = syntheticReport(300, 3, 'bucket-a');
const full: OpenedStore = { storeId: 'st-1', report };

/** What the engine sends for `store.list { rows: false }` (electron/engine/session/registry.ts withoutRows). */
function withoutRows(o: OpenedStore): OpenedStore {
  const rowsOmitted = o.report.roots.map((r) =>
    r.streams.map((s) => {
      const actions = new Map<string, number>();
      for (const c of s.chunks) actions.set(c.fluentBitAction, (actions.get(c.fluentBitAction) ?? 0) + 1);
      return { chunks: s.chunks.length, actions: [...actions] };
    }),
  );
  return { ...o, report: { ...o.report, roots: o.report.roots.map((r) => ({ ...r, streams: r.streams.map((s) => ({ ...s, chunks: [] })) })) }, rowsOmitted };
}

afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, notice: null, config: null, demoCopy: null, storage: null, ready: false });
  useEvidence.getState().reset();
  useChunks.getState().reset();
});

describe('landing on a big store: the Overview first, the rows after it', () => {
  it('paints the Overview from the summary, then replaces it with the rows; Chunks waits for them', async () => {
    let release: () => void = () => {};
    const rowsAsked = new Promise<void>((r) => (release = r));
    const client: FakeClient = fakeClient({
      'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: false }),
      'store.recent': () => ({ recent: [] }),
      'store.list': async (input) => {
        if (input.rows === false) return { stores: [withoutRows(full)] };
        await rowsAsked;
        return { stores: [full] };
      },
      'diagnose.run': () => syntheticDiagnosis('bucket-a'),
      'store.storage': () => ({
        at: report.scannedAt,
        recordsKnown: true,
        byKind: [],
        byTag: [],
        backlog: [],
        backlogUnknownAge: { chunks: 0, bytes: 0, records: 0 },
        backlogBasis: 'age',
      }),
    });
    setClient(client);
    render(<App />);
    await screen.findByRole('heading', { name: 'Overview' });
    // the summary asked first, then the rows
    const lists = () => client.calls.filter((c) => c.name === 'store.list').map((c) => c.input);
    await vi.waitFor(() => expect(lists()).toEqual([{ rows: false }, {}]));
    expect(useSession.getState().opened?.rowsOmitted).toBeDefined();
    // per stream, the counts of the rows not here yet
    const streams = report.roots[0].streams;
    const table = within(screen.getByRole('region', { name: 'Streams' })).getByRole('table');
    for (const s of streams) {
      const row = within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(s.name))!;
      expect(row.textContent).toContain(String(s.chunks.length));
    }
    const next = screen.getByRole('region', { name: 'What Fluent Bit will do with bucket-a' });
    const first = streams[0];
    const actions = new Map<string, number>();
    for (const c of first.chunks) actions.set(c.fluentBitAction, (actions.get(c.fluentBitAction) ?? 0) + 1);
    for (const [a, n] of actions) expect(next.textContent).toContain(`${n} × ${a}`);
    expect(next.textContent).toContain(`${first.chunks.length} chunks`);
    // Chunks says the rows are being read, then shows them
    act(() => useSession.getState().setView('chunks'));
    expect(screen.getByTestId('rows-pending').textContent).toBe('Reading the chunk list…');
    expect(screen.queryByTestId('chunk-count')).toBeNull();
    release();
    expect((await screen.findByTestId('chunk-count')).textContent).toContain('300');
    expect(useSession.getState().opened?.rowsOmitted).toBeUndefined();
    expect(useSession.getState().opened?.report).toBe(report);
  });
});
