/** One chunk: header fields, an annotated hex dump of its first bytes, and its records page by page as NDJSON with search. */
import { loadRecords } from '../actions/inspector';
import { RECORDS_PAGE_SIZE, useInspector } from '../state/inspector';
import { useSession } from '../state/session';
import { Badge } from '../components/Badge';
import { CopyButton } from '../components/CopyButton';
import { ErrorText } from '../components/ErrorText';
import { HexDump, LayoutTable } from '../components/HexDump';
import { KeyValues } from '../components/KeyValues';
import { RecordsList } from '../components/RecordsList';
import { Time } from '../components/Time';
import { formatBytes, formatCount, shown } from '../format';
import { statusKind } from './ChunkRows';
import type { ReactNode } from 'react';
import type { ChunkInfo } from '../../../shared/model';

function HeaderFields({ chunk }: { chunk: ChunkInfo }) {
  const rows: [string, ReactNode][] = [
    ['Path', <code key="p">{shown(chunk.path)}</code>],
    [
      'Status',
      <>
        <Badge kind={statusKind(chunk.status)}>{chunk.status}</Badge> {shown(chunk.message)}
      </>,
    ],
    ['Fluent Bit will', chunk.fluentBitAction],
    ['On disk', `${formatCount(chunk.fileSize)} bytes (${formatBytes(chunk.fileSize)})`],
    ['Modified', <Time key="mt" iso={chunk.mtime} />],
    ['CRC field', chunk.crcField ?? '—'],
    ['CRC computed', chunk.crcComputed ?? '—'],
    ['Content length field', formatCount(chunk.contentLengthField)],
    ['Content length (resolved)', chunk.contentLength == null ? '—' : `${formatCount(chunk.contentLength)} bytes of records`],
    ['Metadata length', formatCount(chunk.metaLength)],
    ['Tag / metadata', chunk.tag != null ? <code key="t">{shown(chunk.tag)}</code> : '—'],
    [
      'Metadata hex',
      chunk.metaHex ? (
        <code key="m" className="wrap">
          {chunk.metaHex}
        </code>
      ) : (
        '—'
      ),
    ],
    ['Records', formatCount(chunk.records) + (chunk.badLines ? ` (${chunk.badLines} lines are not JSON objects)` : '')],
    ['First record', <Time key="fr" iso={chunk.firstRecordTime} />],
    ['Last record', <Time key="lr" iso={chunk.lastRecordTime} />],
    ['Slack after end is zero', chunk.slackZero == null ? '—' : chunk.slackZero ? 'yes' : 'no'],
  ];
  return <KeyValues rows={rows} testId="header-fields" />;
}

function Multipart({ chunk }: { chunk: ChunkInfo }) {
  const m = chunk.multipart;
  if (!m) return null;
  return (
    <section className="card">
      <h3>Multipart record</h3>
      <p>
        <code>{m.s3Key}</code> upload <code>{m.uploadId}</code>: {m.parts.length} parts parsed, {m.completeParts.length} would be completed.
      </p>
      {m.stoppedAt && (
        <p className="warning-text">
          Parsing stops at line {m.stoppedAt.line} (<code>{m.stoppedAt.text}</code>): {m.stoppedAt.reason}
        </p>
      )}
      {m.problems.map((p, i) => (
        <p key={i} className="error">
          {p}
        </p>
      ))}
    </section>
  );
}

export function InspectorView() {
  const { target, chunk, headerHex, layout, page, loading, error } = useInspector();
  const storeOpen = useSession((s) => !!s.opened);
  if (!storeOpen) return null;
  if (!target) {
    return (
      <div className="view">
        <h2>Inspector</h2>
        <p className="muted">Pick a chunk in the Chunks view to inspect it.</p>
      </div>
    );
  }
  const from = page ? page.offset + 1 : 0;
  const to = page ? page.offset + page.records.length : 0;
  return (
    <div className="view">
      <h2>
        Inspector <code className="subtle">{target.chunkPath}</code> <CopyButton text={`${target.rootPath}/${target.chunkPath}`} label="Copy path" />
      </h2>
      <ErrorText error={error} />
      {chunk && (
        <div className="inspector-split">
          <section className="card">
            <h3>Header</h3>
            <HeaderFields chunk={chunk} />
          </section>
          <section className="card">
            <h3>Header bytes</h3>
            <HexDump layout={layout} headerHex={headerHex ?? ''} />
            <p className="muted small">Coloured by field; the fields are explained below.</p>
          </section>
        </div>
      )}
      {chunk && layout.length > 0 && (
        <section className="card">
          <h3>What the bytes say</h3>
          <LayoutTable layout={layout} />
        </section>
      )}
      {chunk && <Multipart chunk={chunk} />}
      <section className="card" aria-label="Records">
        <div className="section-head">
          <h3>Records</h3>
          <span className="muted">
            {page && page.records.length > 0 ? `${formatCount(from)}–${formatCount(to)} of ${page.total != null ? formatCount(page.total) : 'many'}` : ''}
          </span>
          <button
            type="button"
            disabled={loading || !page || page.offset === 0}
            onClick={() => void loadRecords(Math.max(0, (page?.offset ?? 0) - RECORDS_PAGE_SIZE))}
          >
            ← Previous
          </button>
          <button type="button" disabled={loading || page?.nextOffset == null} onClick={() => page?.nextOffset != null && void loadRecords(page.nextOffset)}>
            Next →
          </button>
        </div>
        {loading && <p className="muted">Loading…</p>}
        {page && page.records.length === 0 && <p className="muted">No records.</p>}
        {page && page.records.length > 0 && <RecordsList page={page} />}
      </section>
    </div>
  );
}
