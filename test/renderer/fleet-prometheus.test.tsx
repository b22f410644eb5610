// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { FleetView } from '../../renderer/src/views/FleetView';
import { setClient } from '../../renderer/src/client';
import { fakeClient } from './fakeClient';
import { promFleet } from '../support/prom-fleet';

afterEach(() => {
  cleanup();
  setClient(null);
});

const table = () => within(screen.getByRole('region', { name: 'Nodes from Prometheus' })).getByRole('table', { name: 'Nodes' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const names = () => rows().map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('Fleet view: Prometheus URL beside the folder', () => {
  it('queries fleet.prometheus, lists at risk first, filters at risk only, searches, sorts, opens a node page with its chart and report', async () => {
    const fleet = promFleet(1000);
    fleet.warnings = ['partial response: store 2 unavailable (query store_doctor_guard_up)'];
    const client = fakeClient({
      'fleet.prometheus': () => fleet,
      'fleet.prometheusNode': (input) => ({
        node: input.node ?? input.instance,
        instance: input.instance,
        start: 1000,
        end: 4600,
        stepSeconds: 15,
        series: [
          {
            metric: 'persisted',
            bucket: 'logs',
            output: '0',
            points: [
              { t: 1000, v: 5 },
              { t: 4600, v: 9 },
            ],
          },
          {
            metric: 'guarded',
            bucket: 'logs',
            output: '0',
            points: [
              { t: 1000, v: 5 },
              { t: 4600, v: 9 },
            ],
          },
        ],
        warnings: [],
        report: null,
        reportError: `http://${input.instance}/report.json not reachable from here: fetch failed`,
      }),
    });
    setClient(client);
    render(<FleetView />);
    fireEvent.change(screen.getByLabelText('Prometheus URL'), { target: { value: 'http://prom:9090' } });
    fireEvent.change(screen.getByLabelText('Bearer token (optional)'), { target: { value: 'tok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Query Prometheus' }));
    await screen.findByTestId('prom-fleet-totals');
    expect(client.calls.filter((c) => c.name === 'fleet.prometheus')).toEqual([
      { name: 'fleet.prometheus', input: { connection: { url: 'http://prom:9090', bearerToken: 'tok' } }, taskId: undefined },
    ]);
    expect(screen.getByRole('list', { name: 'Prometheus warnings' }).textContent).toMatch(/partial response/);
    // the rows on screen of all 1,000, at risk first
    expect(table().getAttribute('aria-rowcount')).toBe('1001');
    expect(rows().length).toBeLessThan(100);
    expect(rows()[0].getAttribute('aria-rowindex')).toBe('2');
    const atRisk = fleet.nodes.filter((n) => n.outputsAtRisk > 0).length;
    expect(
      names()
        .slice(0, atRisk)
        .every((n) => Number(n!.slice(5)) % 7 === 0),
    ).toBe(true);
    fireEvent.click(screen.getByLabelText('At risk only'));
    const down = fleet.nodes.filter((n) => n.guardState === 'down').length;
    expect(screen.getByTestId('prom-fleet-shown').textContent).toBe(`${atRisk + down} shown`);
    expect(table().getAttribute('aria-rowcount')).toBe(String(atRisk + down + 1));
    fireEvent.change(screen.getByLabelText('Search node'), { target: { value: 'node-070' } });
    expect(names()).toEqual(['node-0700', 'node-0707']);
    fireEvent.click(screen.getByLabelText('At risk only'));
    // the engine's order: at risk, down, damaged, quarantine, oldest backlog
    expect(names()).toEqual(['node-0700', 'node-0707', 'node-0704', 'node-0705', 'node-0709', 'node-0708', 'node-0706', 'node-0703', 'node-0702', 'node-0701']);
    fireEvent.click(screen.getByRole('button', { name: 'Backlog' }));
    expect(names()).toEqual(['node-0709', 'node-0708', 'node-0707', 'node-0706', 'node-0705', 'node-0704', 'node-0703', 'node-0702', 'node-0701', 'node-0700']);
    fireEvent.click(screen.getByRole('button', { name: 'node-0707' }));
    await screen.findByTestId('prom-node-chart');
    expect(client.calls.find((c) => c.name === 'fleet.prometheusNode')?.input).toEqual({
      connection: { url: 'http://prom:9090', bearerToken: 'tok' },
      instance: '10.0.2.207:9464',
      job: 'store-doctor-guard',
      node: 'node-0707',
      hours: 6,
    });
    expect(screen.getByText(/report\.json not reachable from here/)).toBeTruthy();
    expect(screen.getByText(/seq_index_0 of logs is missing/)).toBeTruthy();
  });
});
