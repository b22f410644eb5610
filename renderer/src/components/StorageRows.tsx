/**
 * One table of the storage picture: a row per stream kind, tag, backlog age or input folder, with
 * chunks, bytes on disk, a bar of the row's share of the table's total on disk (not of the largest
 * row) with the percentage next to it, and records.
 */
import type { StorageRow } from '../../../shared/model';
import { formatBytes, formatCount } from '../format';

/** A row's share of the table's total bytes on disk: the bar's length and the number next to it. */
function Bar({ value, total, kind }: { value: number; total: number; kind: string }) {
  const share = total > 0 ? value / total : 0;
  const pct = Math.round(share * 100);
  return (
    <span className="bar-share">
      <span className="bar" aria-hidden="true">
        <span className={`bar-fill bar-${kind}`} style={{ width: `${share * 100}%` }} data-share={share} />
      </span>
      <span className="muted small">{value > 0 && pct === 0 ? '<1' : pct} %</span>
    </span>
  );
}

export function Rows({ caption, rows, recordsKnown }: { caption: string; rows: (StorageRow & { label: string; extra?: string })[]; recordsKnown: boolean }) {
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  return (
    <table className="compact storage" aria-label={caption}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" />
          <th scope="col" className="num">
            Chunks
          </th>
          <th scope="col" className="num">
            On disk
          </th>
          <th scope="col" className="bar-col">
            Share of the total on disk
          </th>
          <th scope="col" className="num">
            Records
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row">
              {r.label}
              {r.extra ? <span className="muted small"> {r.extra}</span> : null}
            </th>
            <td className="num">{formatCount(r.chunks)}</td>
            <td className="num">{formatBytes(r.bytes)}</td>
            <td className="bar-col">
              <Bar value={r.bytes} total={total} kind="disk" />
            </td>
            <td className="num">{recordsKnown ? formatCount(r.records) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
