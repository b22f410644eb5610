/**
 * "Salvage" in the Chunks view of a store_dir: the chunks the S3 output rejects at its start (a
 * header longer than the file, a wrong magic, shorter than a header), each with a Salvage button
 * when a valid chunk can be written in its place and the reason when not; and the chunk selected
 * in the table, with why it is not offered when it is not. The plan is reviewed below
 * (SalvageReview), made by the same session planner as `store-doctor salvage`.
 */
import { storeSalvageRefusal, startSalvage } from './actions';
import { SalvageReview } from './SalvageReview';
import { shown } from '../../format';
import { useChunks } from '../../state/chunks';
import { useSession } from '../../state/session';
import { memo, useMemo } from 'react';
import type { ChunkInfo, StoreReport } from '../../../../shared/model';

const REJECTED = new Set(['too-short', 'bad-magic', 'truncated']);
const SHOWN = 20;

interface Item {
  rootPath: string;
  chunk: ChunkInfo;
  refusal: string | null;
}

function SalvageItem({ item }: { item: Item }) {
  const { rootPath, chunk, refusal } = item;
  return (
    <li data-testid="salvage-item" data-path={chunk.path}>
      <code>{shown(chunk.path)}</code> ({chunk.status}){' '}
      <button
        type="button"
        className="small"
        disabled={refusal !== null}
        aria-label={`Salvage ${chunk.path}`}
        onClick={() => void startSalvage({ path: rootPath, chunk: `${rootPath}/${chunk.path}`, layout: 'store-dir' })}
      >
        Salvage
      </button>
      {refusal && <span className="muted small"> not offered: {shown(refusal)}</span>}
    </li>
  );
}

/** The rejected chunks of data streams, and the selected chunk (by its table id) when it is not one of them. */
function salvageItems(report: StoreReport | null, selectedId: string | null): { rejected: Item[]; selected: Item | null } {
  const rejected: Item[] = [];
  let selected: Item | null = null;
  if (!report) return { rejected, selected };
  for (const root of report.roots)
    for (const s of root.streams)
      for (const c of s.chunks) {
        const isSelected = selectedId === `${root.path}::${c.path}`;
        if (!REJECTED.has(c.status) && !isSelected) continue;
        const item = { rootPath: root.path, chunk: c, refusal: storeSalvageRefusal(c, s.kind, report.source.readOnly) };
        if (REJECTED.has(c.status) && s.kind === 'data') rejected.push(item);
        else if (isSelected) selected = item;
      }
  return { rejected, selected };
}

/** Memoized, its list computed once per scan and selection: the table's filters re-render the view on each key. */
export const StoreSalvageBar = memo(function StoreSalvageBar() {
  const report = useSession((s) => s.opened?.report ?? null);
  const selectedId = useChunks((s) => s.selectedId);
  const { rejected, selected } = useMemo(() => salvageItems(report, selectedId), [report, selectedId]);
  // After the last rejected chunk is salvaged the list is empty, but the result (and its undo) stays.
  if (!rejected.length && !selected) return <SalvageReview />;
  return (
    <>
      <section className="card" aria-label="Chunks the S3 output rejects" data-testid="store-salvage">
        <h3>Chunks Fluent Bit rejects at its start</h3>
        {rejected.length ? (
          <>
            <p className="muted small">
              The S3 output never uploads nor deletes these: their lines are never delivered. Salvage writes a valid chunk in place of one, keeping every
              complete line, with a backup and undo.
            </p>
            <ul>
              {rejected.slice(0, SHOWN).map((i) => (
                <SalvageItem key={`${i.rootPath}::${i.chunk.path}`} item={i} />
              ))}
            </ul>
            {rejected.length > SHOWN && <p className="muted small">{rejected.length - SHOWN} more: filter the table by status to find them.</p>}
          </>
        ) : (
          <p className="muted small">None in this store.</p>
        )}
        {selected && (
          <ul>
            <SalvageItem item={selected} />
          </ul>
        )}
      </section>
      <SalvageReview />
    </>
  );
});
