/**
 * A page of a chunk's records as compact NDJSON (one record per line, as Fluent Bit stores
 * them), with a search over the page that marks the matches, and copy of the page.
 */
import type { ReactNode } from 'react';
import type { RecordPage } from '../../../shared/model';
import { formatCount } from '../format';
import { useInspector } from '../state/inspector';
import { CopyButton } from './CopyButton';

function Marked({ text, needle }: { text: string; needle: string }) {
  if (!needle) return <>{text}</>;
  const out: ReactNode[] = [];
  const lower = text.toLowerCase();
  let at = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, i + needle.length)) {
    out.push(text.slice(at, i), <mark key={i}>{text.slice(i, i + needle.length)}</mark>);
    at = i + needle.length;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}

export function RecordsList({ page }: { page: RecordPage }) {
  const search = useInspector((s) => s.search);
  const needle = search.trim().toLowerCase();
  const lines = page.records.map((r) => JSON.stringify(r));
  const shown = lines.map((text, i) => ({ text, n: page.offset + i + 1 })).filter((l) => !needle || l.text.toLowerCase().includes(needle));
  return (
    <>
      <div className="records-tools">
        <label className="grow">
          Search the records of this page
          <input type="search" value={search} placeholder="error, svc, 2026-11-29…" onChange={(e) => useInspector.getState().setSearch(e.target.value)} />
        </label>
        <span className="muted small" aria-live="polite" data-testid="records-matches">
          {needle ? `${formatCount(shown.length)} of ${formatCount(lines.length)} records on this page match` : ''}
        </span>
        <CopyButton text={() => lines.join('\n') + (lines.length ? '\n' : '')} label="Copy records (NDJSON)" />
      </div>
      <ol className="records ndjson" data-testid="records">
        {shown.map((l) => (
          <li key={l.n} value={l.n}>
            <code>
              <Marked text={l.text} needle={needle} />
            </code>
          </li>
        ))}
      </ol>
    </>
  );
}
