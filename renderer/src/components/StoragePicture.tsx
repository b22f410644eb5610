/**
 * Where the data sits and how old it is, at a glance: bytes on disk and records by stream kind
 * and by tag, and the backlog Fluent Bit will upload by age — the engine's store.storage summary,
 * drawn as bars, each a row's share of its table's total on disk (not of the largest row), with the
 * percentage next to it. Age is record age (a chunk without record time: its file time, as the
 * basis line says).
 */
import type { StorageRow } from '../../../shared/model';
import { formatBytes, formatCount } from '../format';
import { useSession } from '../state/session';
import { Time } from './Time';

const TOP_TAGS = 8;

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

function Rows({ caption, rows, recordsKnown }: { caption: string; rows: (StorageRow & { label: string; extra?: string })[]; recordsKnown: boolean }) {
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

export function StoragePicture() {
  const storage = useSession((s) => s.storage);
  if (!storage) return null;
  const tags = storage.byTag.slice(0, TOP_TAGS);
  const rest = storage.byTag.slice(TOP_TAGS);
  const tagRows = tags.map((t) => ({ ...t, label: t.tag === '' ? '(empty tag)' : t.tag, extra: `${formatCount(t.pending)} to upload` }));
  if (rest.length)
    tagRows.push({
      label: `${rest.length} more tags`,
      chunks: rest.reduce((a, t) => a + t.chunks, 0),
      bytes: rest.reduce((a, t) => a + t.bytes, 0),
      records: rest.reduce((a, t) => a + t.records, 0),
      tag: '',
      pending: 0,
      extra: '',
    });
  const backlog = [...storage.backlog.map((b) => ({ ...b, label: b.label }))];
  if (storage.backlogUnknownAge.chunks) backlog.push({ ...storage.backlogUnknownAge, label: 'age unknown', fromSeconds: 0, toSeconds: null });
  return (
    <section className="card" aria-label="Where the data sits" data-testid="storage">
      <h3>Where the data sits</h3>
      <p className="muted small">
        Bytes on disk are file sizes (chunk files are page-sized); records are the JSON lines inside. At the scan time <Time iso={storage.at} />.
      </p>
      <div className="storage-grid">
        <Rows caption="By stream kind" rows={storage.byKind.map((k) => ({ ...k, label: k.kind }))} recordsKnown={storage.recordsKnown} />
        <Rows caption="By tag (data and quarantine)" rows={tagRows} recordsKnown={storage.recordsKnown} />
        <Rows caption="Backlog Fluent Bit uploads next, by record age" rows={backlog} recordsKnown={storage.recordsKnown} />
      </div>
      <p className="muted small">Record age: {storage.backlogBasis}.</p>
    </section>
  );
}
