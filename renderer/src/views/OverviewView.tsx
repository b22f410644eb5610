/**
 * The store at a glance: the standing checklist (what was checked, and the controls that add what
 * was not), findings by severity, where the data sits, seq index per output, streams, and what
 * Fluent Bit will do at its next start and graceful stop.
 */
import { highestLabel } from '../../../shared/evidence-scope';
import type { StreamRowsSummary } from '../../../shared/contract';
import type { Finding, RootReport, Severity, StreamInfo } from '../../../shared/model';
import { useEvidence } from '../state/evidence';
import { useSession } from '../state/session';
import { Badge } from '../components/Badge';
import { ErrorText } from '../components/ErrorText';
import { FindingCard } from '../components/FindingCard';
import { StoragePicture } from '../components/StoragePicture';
import { Time } from '../components/Time';
import { formatBytes, formatCount, safeIndexText, shown } from '../format';
import { ChecksPanel, checksIncomplete } from '../components/ChecksPanel';
import { FluentBitVersion } from '../components/FluentBitVersion';

const SEVERITIES: Severity[] = ['critical', 'error', 'warning', 'info'];

/** A stream's chunk count and Fluent Bit actions: from its rows, or from the summary sent before them. */
function streamRows(s: StreamInfo, summary: StreamRowsSummary | undefined): StreamRowsSummary {
  if (summary) return summary;
  const actions = new Map<string, number>();
  for (const c of s.chunks) actions.set(c.fluentBitAction, (actions.get(c.fluentBitAction) ?? 0) + 1);
  return { chunks: s.chunks.length, actions: [...actions] };
}

function NextSteps({ root, summary }: { root: RootReport; summary: StreamRowsSummary[] | undefined }) {
  return (
    <section className="card" aria-label={`What Fluent Bit will do with ${root.bucket}`}>
      <h3>
        What Fluent Bit will do with <code>{root.bucket}</code>
      </h3>
      <h4>On next start</h4>
      <ul>
        {root.streams.map((s, i) => {
          const { chunks, actions } = streamRows(s, summary?.[i]);
          return (
            <li key={s.name}>
              <code>{shown(s.name)}</code> ({s.kind}, {formatCount(chunks)} chunks){s.writable === false ? ' — not writable: Fluent Bit skips it' : ''}
              {actions.length > 0 && (
                <ul>
                  {actions.map(([a, n]) => (
                    <li key={a}>
                      {formatCount(n)} × {a}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
        {root.seqIndex.map((q) => (
          <li key={q.path}>
            <code>{q.fileName}</code>: {q.message}
          </li>
        ))}
      </ul>
      <h4>On next graceful stop</h4>
      <ul>
        {root.streams.map((s) => (
          <li key={s.name}>
            <code>{shown(s.name)}</code>: {s.fateOnGracefulStop}
          </li>
        ))}
        <li className={root.sequence.deletedOnGracefulStop ? 'error' : ''}>
          <code>sequence/</code>: {root.sequence.message}
        </li>
      </ul>
    </section>
  );
}

export function OverviewView() {
  const opened = useSession((s) => s.opened);
  const diagnosis = useEvidence((s) => s.diagnosis);
  const busy = useEvidence((s) => s.busy);
  const error = useEvidence((s) => s.error);
  if (!opened) return null;
  const { report } = opened;
  const rootOf = new Map<Finding, string | null>();
  for (const f of diagnosis?.storeFindings ?? []) rootOf.set(f, report.roots.length === 1 ? report.roots[0].path : null);
  for (const o of diagnosis?.outputs ?? []) for (const f of o.findings) rootOf.set(f, o.rootPath);
  const findings = [...rootOf.keys()];
  return (
    <div className="view">
      <h2>Overview</h2>
      <p>
        {report.source.description}{' '}
        <span className="muted">
          · {shown(report.source.path)} · scanned <Time iso={report.scannedAt} />
        </span>
        {report.source.kind === 'archive' ? <Badge kind="info">read-only archive</Badge> : report.source.readOnly && <Badge kind="info">read-only</Badge>}
      </p>
      {report.problems.map((p, i) => (
        <p key={i} className={p.severity === 'error' ? 'error' : 'warning-text'}>
          {shown(p.path)}: {shown(p.message)}
        </p>
      ))}
      {diagnosis && <ChecksPanel checks={diagnosis.checks} />}
      <section aria-label="Findings">
        <h3>Findings</h3>
        <ErrorText error={error} />
        {busy === 'diagnose' && !diagnosis && <p className="muted">Diagnosing…</p>}
        {diagnosis?.fluentBit && <FluentBitVersion info={diagnosis.fluentBit} />}
        {diagnosis && findings.length === 0 && (
          <p data-testid="no-findings">
            {checksIncomplete(diagnosis.checks)
              ? 'No findings in what was checked — but not everything was checked (see above): this is not an all-clear.'
              : 'No findings in what was checked (above).'}
          </p>
        )}
        {SEVERITIES.map((sev) => {
          const list = findings.filter((f) => f.severity === sev);
          if (list.length === 0) return null;
          return (
            <div key={sev} className="severity-group">
              <h4>
                {sev} ({list.length})
              </h4>
              {list.map((f, i) => (
                <FindingCard key={`${f.code}-${f.outputId ?? 's'}-${i}`} finding={f} rootPath={rootOf.get(f) ?? null} />
              ))}
            </div>
          );
        })}
      </section>
      <StoragePicture />
      <section aria-label="Seq index">
        <h3>Seq index per output</h3>
        <div className="cards">
          {report.roots.flatMap((root) =>
            root.seqIndex.map((q) => {
              const out = diagnosis?.outputs.find((o) => o.id === q.outputId && o.bucket === root.bucket);
              return (
                <div className="card seq" key={q.path} data-testid="seq-card">
                  <div className="muted small">{root.bucket}</div>
                  <h4>
                    <code>{q.fileName}</code> <Badge kind={q.status === 'ok' ? 'ok' : 'error'}>{q.status}</Badge>
                  </h4>
                  <div className="big">{q.valueText ?? '—'}</div>
                  <p className="small">{q.message}</p>
                  {out && (
                    <dl className="kv small">
                      <dt>Highest {highestLabel(out.indexEvidence)}</dt>
                      <dd>{out.highestIndexInBucketText ?? formatCount(out.highestIndexInBucket)}</dd>
                      <dt>Safe next index</dt>
                      <dd title={out.indexEvidence.text}>{safeIndexText(out)}</dd>
                    </dl>
                  )}
                </div>
              );
            }),
          )}
          {report.roots.every((r) => r.seqIndex.length === 0) && <p className="muted">No seq_index file in any root.</p>}
        </div>
      </section>
      <section aria-label="Streams">
        <h3>Streams</h3>
        <table>
          <thead>
            <tr>
              <th>Root</th>
              <th>Stream</th>
              <th>Kind</th>
              <th className="num">Chunks</th>
              <th className="num">On disk</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {report.roots.flatMap((root, r) =>
              root.streams.map((s, i) => (
                <tr key={`${root.path}/${s.name}`}>
                  <td>{root.bucket}</td>
                  <td>
                    <code>{shown(s.name)}</code>
                  </td>
                  <td>{s.kind}</td>
                  <td className="num">{formatCount(opened.rowsOmitted?.[r]?.[i]?.chunks ?? s.chunks.length)}</td>
                  <td className="num">{formatBytes(s.totalBytes)}</td>
                  <td title="From the stream's name: the local time of the Fluent Bit host when it started (no time zone is stored)">
                    {s.startTime ? `${s.startTime.replace('T', ' ')} (host local time)` : '—'}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </section>
      {report.roots.map((root, r) => (
        <NextSteps key={root.path} root={root} summary={opened.rowsOmitted?.[r]} />
      ))}
    </div>
  );
}
