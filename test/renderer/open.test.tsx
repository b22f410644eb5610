// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { ClientError, setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useEvidence } from '../../renderer/src/state/evidence';
import { fakeClient, type FakeClient } from './fakeClient';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';
import type { RequestInput, RequestResult } from '../../shared/contract';
import type { RequestOptions } from '../../renderer/src/client';

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

const report = syntheticReport(40, 2, 'bucket-a');
const diagnosis = syntheticDiagnosis('bucket-a');

/** A request that hangs until cancelled, then rejects the way the engine does. */
function cancellable<N extends 'store.open' | 'store.rescan'>(client: () => FakeClient, request: N) {
  return (_input: RequestInput<N>, options?: RequestOptions): Promise<RequestResult<N>> =>
    new Promise((_resolve, reject) => {
      options?.onProgress?.({ task: 'scan', done: 3, total: 40 });
      const timer = setInterval(() => {
        if (client().cancelled.includes(options!.taskId!)) {
          clearInterval(timer);
          reject(new ClientError({ code: 'cancelled', message: `cancelled: ${request} was stopped` }));
        }
      }, 5);
    });
}

function makeClient(overrides: Parameters<typeof fakeClient>[0] = {}): FakeClient {
  return fakeClient({
    'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: true }),
    'store.recent': () => ({ recent: [] }),
    'store.open': ({ path }) => ({ storeId: 'st-1', report: { ...report, source: { ...report.source, path } } }),
    'store.rescan': () => ({ storeId: 'st-1', report }),
    'diagnose.run': () => diagnosis,
    ...overrides,
  });
}

/** The app's top bar (finding cards have their own <header>s). */
function topbar(): HTMLElement {
  return screen.getByTestId('store-name').closest('header')!;
}

async function typeAndOpen(path: string) {
  fireEvent.change(await screen.findByLabelText('Path'), { target: { value: path } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
}

afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, notice: null, config: null });
  useEvidence.getState().reset();
});

describe('cancelling long work', () => {
  it('a cancelled open is a notice, not an error, and leaves the app usable', async () => {
    const client: FakeClient = makeClient({ 'store.open': cancellable(() => client, 'store.open') });
    setClient(client);
    render(<App />);
    await typeAndOpen('/big/store');
    const task = await screen.findByTestId('task');
    fireEvent.click(within(task).getByRole('button', { name: 'Cancel' }));
    const notice = await screen.findByTestId('notice');
    expect(notice.textContent).toContain('Opening /big/store was cancelled: nothing was opened.');
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(screen.queryByTestId('task')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Open a Fluent Bit store' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Open' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('the top bar rescans; a cancelled rescan keeps the previous scan on screen', async () => {
    const client: FakeClient = makeClient({ 'store.rescan': cancellable(() => client, 'store.rescan') });
    setClient(client);
    render(<App />);
    await typeAndOpen('/data/store');
    await screen.findByRole('heading', { name: 'Overview' });
    act(() => useSession.getState().setView('chunks'));
    expect((await screen.findByTestId('chunk-count')).textContent).toBe('40 of 40 chunks');
    fireEvent.click(within(topbar()).getByRole('button', { name: 'Rescan' }));
    const task = await screen.findByTestId('task');
    expect(task.textContent).toContain('Rescanning the store');
    expect((within(topbar()).getByRole('button', { name: 'Rescan' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(task).getByRole('button', { name: 'Cancel' }));
    expect((await screen.findByTestId('notice')).textContent).toContain('Rescan cancelled: the views still show the previous scan.');
    expect(screen.getByTestId('chunk-count').textContent).toBe('40 of 40 chunks');
    expect(useSession.getState().opened?.storeId).toBe('st-1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failed rescan is an error sentence naming the store, shown in any view', async () => {
    const client = makeClient({
      'store.rescan': () => {
        throw new ClientError({ code: 'not-found', message: 'store: no such file or directory (/data/store)', file: '/data/store' });
      },
    });
    setClient(client);
    render(<App />);
    await typeAndOpen('/data/store');
    await screen.findByRole('heading', { name: 'Overview' });
    fireEvent.click(within(topbar()).getByRole('button', { name: 'Rescan' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Rescanning /data/store failed: store: no such file or directory (/data/store).');
  });
});

describe('context imports from the Open view', () => {
  it('uploads a Fluent Bit config and offline listings as documents once a store is open', async () => {
    const client = makeClient({
      'config.load': (input) =>
        ({
          files: [input.document?.name ?? String(input.path)],
          format: 'classic',
          outputs: [],
          warnings: [],
        }) as unknown as RequestResult<'config.load'>,
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
    render(<App />);
    expect(screen.queryByRole('region', { name: 'Context for the opened store' })).toBeNull();
    await typeAndOpen('/data/store');
    await screen.findByRole('heading', { name: 'Overview' });
    act(() => useSession.getState().setView('open'));
    const context = await screen.findByRole('region', { name: 'Context for the opened store' });
    expect(within(context).getByRole('heading', { name: 'Add context for bucket-a' })).toBeTruthy();

    const configInput = within(context).getByRole('region', { name: 'Fluent Bit config' }).querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(configInput, { target: { files: [new File(['[OUTPUT]\n    name s3\n'], 'fluent-bit.conf')] } });
    await within(context).findByText(/Read fluent-bit\.conf \(classic\)/);
    expect(client.calls.find((c) => c.name === 'config.load')!.input).toEqual({
      storeId: 'st-1',
      document: { name: 'fluent-bit.conf', text: '[OUTPUT]\n    name s3\n' },
    });

    const listing = within(context).getByTestId('offline-input');
    fireEvent.change(listing, { target: { files: [new File(['{"Contents":[]}'], 'list.json', { type: 'application/json' })] } });
    expect((await within(context).findByTestId('offline-loaded')).textContent).toBe('Loaded: list.json (1 objects).');
    expect(client.calls.find((c) => c.name === 'evidence.importOffline')!.input).toMatchObject({
      storeId: 'st-1',
      documents: [{ name: 'list.json', text: '{"Contents":[]}' }],
    });
    // the diagnosis is run again with the new evidence
    expect(client.calls.filter((c) => c.name === 'diagnose.run').length).toBeGreaterThanOrEqual(3);
  });
});
