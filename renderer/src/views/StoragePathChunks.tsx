/**
 * The Chunks view of a storage.path opened alone: every chunk per input with its tag, event type,
 * CRC, records and what the next start does with it; "Salvage" on each chunk Fluent Bit would
 * reject (the engine's rule, shared/storage-path-backlog.ts), with the reason on the others; a
 * file name opens the chunk in the Inspector. The salvage is reviewed below the table.
 */
import { engineSalvageRefusal, nextStartFate } from '../../../shared/storage-path-backlog';
import { startSalvage } from '../features/salvage';
import { Badge } from '../components/Badge';
import { SalvageReview } from '../features/salvage';
import { formatBytes, formatCount, shown } from '../format';
import { useSession } from '../state/session';
import { useStoragePath } from '../state/storagePath';

export const crcKind = (crc: string) => (crc === 'valid' ? 'ok' : crc === 'absent' ? 'warning' : 'error');

export function StoragePathChunks() {
  const report = useStoragePath((s) => s.report);
  if (!report) return null;
  const checksum = report.limits.checksum;
  const chunks = report.streams.flatMap((s) => s.chunks);
  return (
    <div className="view">
      <h2>Chunks</h2>
      <p className="muted">
        <code>{shown(report.path)}</code> is a Fluent Bit <code>storage.path</code> (the engine buffer of the inputs), not an S3 <code>store_dir</code>:{' '}
        {formatCount(chunks.length)} chunk(s) in {formatCount(report.streams.length)} input folder(s).{' '}
        {checksum === null ? 'storage.checksum unknown (no config): the next start is shown as with it on.' : `storage.checksum ${checksum ? 'on' : 'off'}.`}
      </p>
      <table className="compact" aria-label="Chunks of the storage.path" data-testid="sp-chunks">
        <thead>
          <tr>
            <th scope="col">Input</th>
            <th scope="col">File</th>
            <th scope="col">Tag</th>
            <th scope="col">Type</th>
            <th scope="col">CRC</th>
            <th scope="col" className="num">
              Records
            </th>
            <th scope="col" className="num">
              On disk
            </th>
            <th scope="col">Next start</th>
            <th scope="col">Salvage</th>
          </tr>
        </thead>
        <tbody>
          {chunks.map((c) => {
            const refusal = engineSalvageRefusal(c, checksum);
            const fate = nextStartFate(c, checksum);
            return (
              <tr key={c.path} data-testid="sp-chunk" data-path={c.path}>
                <td>{shown(c.stream)}</td>
                <td>
                  <button
                    type="button"
                    className="link"
                    title="Open in the Inspector"
                    onClick={() => {
                      useStoragePath.getState().set({ selected: c.path });
                      useSession.getState().setView('inspector');
                    }}
                  >
                    {shown(c.name)}
                  </button>
                </td>
                <td>{c.tag != null ? shown(c.tag) : '—'}</td>
                <td>{c.eventType ?? 'legacy'}</td>
                <td>
                  <Badge kind={crcKind(c.crc)}>{c.crc}</Badge>
                  {c.tornBytes > 0 && <span className="small"> torn last record ({formatCount(c.tornBytes)} B)</span>}
                </td>
                <td className="num">{formatCount(c.records)}</td>
                <td className="num">{formatBytes(c.fileSize)}</td>
                <td>
                  <Badge kind={fate === 'load' ? 'ok' : fate === 'reject' ? 'error' : 'warning'}>{fate}</Badge>
                </td>
                <td>
                  <button
                    type="button"
                    className="small"
                    disabled={refusal !== null}
                    aria-label={`Salvage ${c.path}`}
                    onClick={() => void startSalvage({ path: report.path, chunk: `${report.path}/${c.path}`, layout: 'storage-path' })}
                  >
                    Salvage
                  </button>
                  {refusal && <span className="muted small"> {shown(refusal)}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <SalvageReview />
    </div>
  );
}
