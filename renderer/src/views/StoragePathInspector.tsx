/**
 * The Inspector on a storage.path chunk (Fluent Bit's engine buffer, not an S3 store_dir chunk):
 * the input instance folder, the tag from the chunk metadata, the CRC (valid, invalid — stale after
 * a crash or damaged — or absent), the records decoded with their event format (metrics and traces
 * chunks named as such), a torn last record, and what each measured Fluent Bit version does with it
 * at its next start — all from the engine's storage.path analysis (storagePath.open).
 */
import type { ReactNode } from 'react';
import { MEASURED_ENGINE_VERSIONS, nextStartFate, versionFates } from '../../../shared/storage-path-backlog';
import type { EngineChunkInfo, EventFormat } from '../../../shared/model';
import { Badge } from '../components/Badge';
import { KeyValues } from '../components/KeyValues';
import { crcKind } from './StoragePathChunks';
import { StoragePathRecords } from '../components/StoragePathRecords';
import { Time } from '../components/Time';
import { formatBytes, formatCount, shown } from '../format';
import { useStoragePath } from '../state/storagePath';

const FORMAT: Record<EventFormat, string> = {
  v1: '[ts, record] (before Fluent Bit 2.1)',
  v2: '[[ts, metadata], record] (Fluent Bit 2.1 and later)',
  mixed: 'both [ts, record] and [[ts, metadata], record]',
  none: 'no event decoded',
};

const CRC_TEXT = {
  valid: 'valid: the CRC field matches its bytes',
  invalid: 'invalid: the CRC field does not match its bytes — stale after a crash (SIGKILL before the last sync), or damaged',
  absent: 'absent: the field is zero (written with storage.checksum off)',
} as const;

function recordsText(c: EngineChunkInfo): string {
  const kind = c.eventType === 'metrics' ? 'metrics object(s)' : c.eventType === 'traces' ? 'trace object(s)' : 'record(s)';
  return `${formatCount(c.records)} ${kind} decoded${c.eventType === 'metrics' || c.eventType === 'traces' ? ` — a ${c.eventType} chunk` : ''}`;
}

export function StoragePathInspector() {
  const report = useStoragePath((s) => s.report);
  const selected = useStoragePath((s) => s.selected);
  const stream = report?.streams.find((s) => s.chunks.some((c) => c.path === selected));
  const c = stream?.chunks.find((x) => x.path === selected);
  if (!report || !stream || !c) {
    return (
      <div className="view">
        <h2>Inspector</h2>
        <p className="muted">Pick a chunk in the Chunks view to inspect it.</p>
      </div>
    );
  }
  const checksum = report.limits.checksum;
  const rows: [string, ReactNode][] = [
    ['Path', <code key="p">{shown(`${report.path}/${c.path}`)}</code>],
    ['Kind', 'storage.path chunk (Fluent Bit engine buffer), not an S3 store_dir chunk'],
    [
      'Input instance',
      <>
        <code>{shown(stream.name)}</code>
        {stream.plugin ? ` (${shown(stream.plugin)} input, instance ${stream.instance ?? '?'})` : ''}
      </>,
    ],
    ['Tag (metadata)', c.tag != null ? <code key="t">{shown(c.tag)}</code> : '—'],
    ['Event type', c.eventType ?? 'legacy metadata (bare tag)'],
    ['Event format', FORMAT[c.format]],
    [
      'CRC',
      <Badge key="c" kind={crcKind(c.crc)}>
        {CRC_TEXT[c.crc]}
      </Badge>,
    ],
    ['Records', recordsText(c)],
    ['Torn last record', c.tornBytes ? `${formatCount(c.tornBytes)} byte(s) after the last complete event` : 'none'],
    ['First record', <Time key="f" iso={c.firstTime} />],
    ['Last record', <Time key="l" iso={c.lastTime} />],
    // The header decoder is the store_dir one: its message on a loading header speaks of store_dir CRCs.
    ['Header', c.headerStatus === 'ok' ? 'ok (the chunkio header decodes; the CRC is above)' : `${c.headerStatus}: ${c.headerMessage}`],
    ['On disk', `${formatCount(c.fileSize)} bytes (${formatBytes(c.fileSize)})`],
    ['Modified', <Time key="m" iso={c.mtime} />],
    ['Next start', `${nextStartFate(c, checksum)} — ${c.fateText}`],
  ];
  return (
    <div className="view">
      <h2>
        Inspector <code className="subtle">{shown(c.path)}</code>
      </h2>
      <section className="card">
        <h3>storage.path chunk</h3>
        <KeyValues rows={rows} testId="sp-inspector" />
      </section>
      <section className="card">
        <h3>What each Fluent Bit version does with it at its next start</h3>
        <table className="compact" data-testid="sp-versions">
          <thead>
            <tr>
              <th scope="col">version</th>
              <th scope="col">storage.checksum on</th>
              <th scope="col">storage.checksum off</th>
              <th scope="col">deletes it</th>
            </tr>
          </thead>
          <tbody>
            {versionFates(c).map((v) => (
              <tr key={v.version}>
                <th scope="row">{v.version}</th>
                <td>{v.checksumOn}</td>
                <td>{v.checksumOff}</td>
                <td>{v.deletes ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">
          Measured with the real binaries of {MEASURED_ENGINE_VERSIONS.join(', ')} on buffers left by SIGKILL (docs/storage-path.md): the same on each. A
          rejected chunk is never deleted: it stays on disk and is rejected again at every start. Not measured: a restart by another version than the writer,
          storage.delete_irrecoverable_chunks.
          {checksum === null
            ? ' The config was not given: this buffer’s storage.checksum is unknown.'
            : ` This buffer’s config: storage.checksum ${checksum ? 'on' : 'off'}.`}
        </p>
      </section>
      <StoragePathRecords key={`${report.path}/${c.path}`} dir={report.path} chunkPath={c.path} stamp={c} />
    </div>
  );
}
