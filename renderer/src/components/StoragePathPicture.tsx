/**
 * The storage picture of a Fluent Bit engine buffer (`storage.path`, not an S3 store_dir): its
 * backlog per input folder as bars (each input's share of the buffer on disk), the chunks Fluent
 * Bit will reject at its next start next to each input, and the age of its oldest record. For the
 * config's storage.path beside an opened store (store.storage) and for a storage.path opened alone.
 */
import type { StoragePathBacklogSummary } from '../../../shared/model';
import { formatCount, shown } from '../format';
import { Rows } from './StorageRows';
import { Time } from './Time';

export function StoragePathPicture({ backlog, fromConfig = true }: { backlog: StoragePathBacklogSummary; fromConfig?: boolean }) {
  const rejected = backlog.inputs.reduce((n, i) => n + i.rejected, 0);
  const rows = backlog.inputs.map((i) => ({
    ...i,
    label: i.input,
    extra: i.rejected ? `${formatCount(i.rejected)} rejected at the next start (${formatCount(i.rejectedRecords)} records)` : undefined,
  }));
  return (
    <div className="storage-path-picture" data-testid="storage-path-picture">
      <h4>Engine buffer (storage.path)</h4>
      <p className="muted small">
        <code>{shown(backlog.path)}</code>
        {fromConfig ? ', the config’s [SERVICE] storage.path,' : ''} is Fluent Bit’s engine buffer of its inputs (storage.type filesystem), not an S3{' '}
        <code>store_dir</code>.{' '}
        {backlog.error
          ? `Not read: ${shown(backlog.error)}`
          : `${formatCount(rejected)} chunk(s) will be rejected at the next start${backlog.checksum === null ? ' if storage.checksum is on (unknown)' : ''}.`}
      </p>
      {!backlog.error && (
        <>
          <Rows caption="storage.path backlog by input" rows={rows} recordsKnown />
          <ul className="muted small">
            {backlog.inputs.map((i) => (
              <li key={i.input}>
                {shown(i.input)}: oldest record <Time iso={i.oldestTime} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
