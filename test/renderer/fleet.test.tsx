// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { FleetView } from '../../renderer/src/views/FleetView';
import { setClient } from '../../renderer/src/client';
import { summarizeFleet } from '../../shared/fleet';
import { fakeClient } from './fakeClient';
import { nodeReport } from '../support/node-reports';

afterEach(() => {
  cleanup();
  setClient(null);
});

const fleet = summarizeFleet(
  '/srv/reports',
  Array.from({ length: 200 }, (_, i) => ({ file: `node-${String(i).padStart(3, '0')}.json`, report: nodeReport(i) })),
  [{ file: 'notes.json', error: 'not a Store Doctor node report: schema: Invalid input' }],
);

async function openFleet() {
  const client = fakeClient({ 'fleet.open': () => fleet });
  setClient(client);
  render(<FleetView />);
  fireEvent.change(screen.getByLabelText('Folder of report.json files'), { target: { value: '/srv/reports' } });
  fireEvent.click(screen.getByRole('button', { name: 'Open fleet' }));
  await screen.findByTestId('fleet-totals');
  return client;
}

const bodyRows = () =>
  within(screen.getByRole('region', { name: 'Nodes' }))
    .getAllByRole('row')
    .slice(1);
const firstCells = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('Fleet view', () => {
  it('opens a folder through fleet.open and lists 200 nodes, most at risk first, with what was not read', async () => {
    const client = await openFleet();
    expect(client.calls).toEqual([{ name: 'fleet.open', input: { path: '/srv/reports' }, taskId: undefined }]);
    expect(screen.getByTestId('fleet-totals').textContent).toMatch(/^200 node\(s\): 29 with outputs at risk \(29 outputs\)/);
    // all 200 in the table, the ones on screen rendered
    expect(screen.getByRole('table', { name: 'Nodes' }).getAttribute('aria-rowcount')).toBe('201');
    expect(bodyRows().length).toBeLessThan(60);
    expect(firstCells().slice(0, 3)).toEqual(['node-000', 'node-154', 'node-077']);
    // scrolled to the end: the last rows, numbered as rows of the whole table
    const scroller = screen.getByTestId('fleet-scroller');
    scroller.scrollTop = 200 * 29;
    fireEvent.scroll(scroller);
    expect(bodyRows().at(-1)!.getAttribute('aria-rowindex')).toBe('201');
    expect(screen.getByText(/notes\.json: not a Store Doctor node report/)).toBeTruthy();
  });

  it('sorts by a column (numbers high first, again for the other way) and by name', async () => {
    await openFleet();
    fireEvent.click(screen.getByRole('button', { name: 'Backlog' }));
    expect(firstCells().slice(0, 2)).toEqual(['node-199', 'node-198']);
    expect(screen.getByRole('columnheader', { name: 'Backlog' }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'Backlog' }));
    expect(firstCells().slice(0, 2)).toEqual(['node-001', 'node-000']); // 2 chunks, then 3 (node-000 before node-002 by name)
    fireEvent.click(screen.getByRole('button', { name: 'Node' }));
    expect(firstCells().slice(0, 2)).toEqual(['node-000', 'node-001']);
    fireEvent.click(screen.getByRole('button', { name: 'Node' }));
    expect(firstCells()[0]).toBe('node-199');
  });

  it('clicking a node opens its report; back returns to the table', async () => {
    await openFleet();
    fireEvent.click(screen.getByRole('button', { name: 'node-007' }));
    const panel = screen.getByRole('region', { name: 'Report of node-007' });
    expect(within(panel).getByText(/seq_index_0 is missing or unreadable: the next start counts \$INDEX from 0 \(the guard keeps 107\)/)).toBeTruthy();
    expect(within(panel).getByText('107 (not final)')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Back to the fleet' }));
    expect(screen.getByRole('table', { name: 'Nodes' }).getAttribute('aria-rowcount')).toBe('201');
    expect(firstCells()[0]).toBe('node-000');
  });

  it('shows the engine error naming the folder', async () => {
    setClient(
      fakeClient({
        'fleet.open': () => {
          throw new (class extends Error {})('x');
        },
      }),
    );
    render(<FleetView />);
    fireEvent.change(screen.getByLabelText('Folder of report.json files'), { target: { value: '/nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open fleet' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Opening the fleet folder failed: x/);
  });
});
