/**
 * The node table of both Fleet views (a folder of reports, Prometheus): the columns they share —
 * node (opens its page), guard, outputs at risk, backlog, oldest, quarantine, damaged, restores —
 * plus any of the view's own, a sortable head, and rows virtualised by hand: every row has one
 * height, so the rows on screen follow from the scroll position alone and 5,000 nodes render the
 * same few dozen rows as 50. Rows are memoised: a new sort or filter moves them, it does not
 * render them again.
 */
import { memo, type ReactNode } from 'react';
import { formatSeconds } from '../../../shared/fleet-prom';
import { formatBytes, formatCount } from '../format';
import type { FleetBaseColumn, FleetRowBase } from '../views/fleet-prom-rows';
import { SortableHead, type SortColumn, type SortState } from './SortableHead';
import { useRowWindow } from './useRowWindow';

export interface FleetColumn<R, K extends string> extends SortColumn<K> {
  cell: (r: R) => ReactNode;
}

export const FLEET_ROW_HEIGHT = 29;
const OVERSCAN = 10;

/** The shared columns; the node cell is the button that opens the node's page. */
export function fleetColumns<R extends FleetRowBase>(): FleetColumn<R, FleetBaseColumn>[] {
  return [
    { key: 'node', label: 'Node', cell: (n) => n.node },
    { key: 'guardState', label: 'Guard', cell: (n) => n.guardState },
    { key: 'outputsAtRisk', label: 'Outputs at risk', num: true, cell: (n) => `${n.outputsAtRisk}/${n.outputs}` },
    { key: 'backlogChunks', label: 'Backlog', num: true, cell: (n) => `${formatCount(n.backlogChunks)} (${formatBytes(n.backlogBytes)})` },
    { key: 'oldestBacklogSeconds', label: 'Oldest', num: true, cell: (n) => formatSeconds(n.oldestBacklogSeconds) },
    { key: 'quarantineChunks', label: 'Quarantine', num: true, cell: (n) => n.quarantineChunks },
    { key: 'damagedChunks', label: 'Damaged', num: true, cell: (n) => n.damagedChunks },
    { key: 'restores', label: 'Restores', num: true, cell: (n) => n.restores },
  ];
}

interface RowProps<R, K extends string> {
  row: R;
  index: number;
  columns: FleetColumn<R, K>[];
  atRisk: boolean;
  onOpen: (r: R) => void;
}

function RowImpl<R extends FleetRowBase, K extends string>({ row, index, columns, atRisk, onOpen }: RowProps<R, K>) {
  return (
    <tr className={atRisk ? 'frow at-risk' : 'frow'} aria-rowindex={index + 2} data-testid="fleet-row">
      {columns.map((c, i) => (
        <td key={c.key} className={c.num ? 'num' : undefined}>
          {i === 0 ? (
            <button type="button" className="link" onClick={() => onOpen(row)}>
              {c.cell(row)}
            </button>
          ) : (
            c.cell(row)
          )}
        </td>
      ))}
    </tr>
  );
}
const Row = memo(RowImpl) as typeof RowImpl;

export function FleetTable<R extends FleetRowBase, K extends string>(props: {
  label: string;
  rows: R[];
  columns: FleetColumn<R, K>[];
  sort: SortState<K>;
  onSort: (next: (s: SortState<K>) => SortState<K>) => void;
  rowKey: (r: R) => string;
  isAtRisk: (r: R) => boolean;
  onOpen: (r: R) => void;
}) {
  const { rows, columns } = props;
  const { scroller, view } = useRowWindow(FLEET_ROW_HEIGHT, rows, { fallbackHeight: 660, initialFit: 24 });
  const first = Math.max(0, Math.min(view.first, rows.length - 1) - OVERSCAN);
  const last = Math.min(rows.length, view.first + view.fit + OVERSCAN);
  return (
    <div className="fleet-scroller" ref={scroller} data-testid="fleet-scroller">
      <table className="compact fleet-table" aria-label={props.label} aria-rowcount={rows.length + 1}>
        <SortableHead columns={columns} sort={props.sort} onSort={props.onSort} />
        <tbody>
          {first > 0 && <tr aria-hidden="true" style={{ height: first * FLEET_ROW_HEIGHT }} />}
          {rows.slice(first, last).map((r, i) => (
            <Row key={props.rowKey(r)} row={r} index={first + i} columns={columns} atRisk={props.isAtRisk(r)} onOpen={props.onOpen} />
          ))}
          {last < rows.length && <tr aria-hidden="true" style={{ height: (rows.length - last) * FLEET_ROW_HEIGHT }} />}
        </tbody>
      </table>
    </div>
  );
}
