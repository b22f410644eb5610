/**
 * Where the data sits and how old it is, at a glance: bytes on disk and records by stream kind
 * and by tag, and the backlog Fluent Bit will upload by age — the engine's store.storage summary,
 * drawn as bars, each a row's share of its table's total on disk (not of the largest row), with the
 * percentage next to it. Age is record age (a chunk without record time: its file time, as the
 * basis line says).
 */
import { formatCount } from '../format';
import { useSession } from '../state/session';
import { StoragePathPicture } from './StoragePathPicture';
import { Rows } from './StorageRows';
import { Time } from './Time';

const TOP_TAGS = 8;

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
      {storage.storagePath && <StoragePathPicture backlog={storage.storagePath} />}
    </section>
  );
}
