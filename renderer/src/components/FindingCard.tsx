/**
 * One finding as the engine wrote it: severity, code, summary, evidence, what to do, its next
 * steps as buttons (and as command lines), and "Show chunks →" for a finding about chunks, which
 * opens the Chunks table filtered to exactly those chunks.
 */
import type { Finding } from '../../../shared/model';
import { useChunks } from '../state/chunks';
import { useRepair } from '../features/repair/state';
import { useSession } from '../state/session';
import { FINDING_VIEW } from '../views/findingNav';
import { Badge } from './Badge';
import { CliEquivalent } from './CliEquivalent';
import { NextStepButton } from './NextStep';
import { RichText } from './RichText';
import { shown } from '../format';

/** The chunk paths a finding names in its data (BUFFERED_BACKLOG, QUARANTINED_DATA, CHUNK_DAMAGED). */
function chunksOf(f: Finding): string[] {
  const d = f.data as { chunks?: unknown; rewritten?: unknown } | undefined;
  const list = [...(Array.isArray(d?.chunks) ? d.chunks : []), ...(Array.isArray(d?.rewritten) ? d.rewritten : [])];
  return list.filter((p): p is string => typeof p === 'string');
}

export function FindingCard({ finding, rootPath }: { finding: Finding; rootPath: string | null }) {
  const nav = FINDING_VIEW[finding.code];
  const chunks = chunksOf(finding);
  const showChunks = () => {
    useChunks.getState().showOnly(`${finding.code}: ${chunks.length} chunk${chunks.length === 1 ? '' : 's'}`, chunks, rootPath);
    useSession.getState().setView('chunks');
  };
  const go = () => {
    if (!nav) return;
    if (nav.action) useRepair.getState().setParams({ action: nav.action, outputId: finding.outputId ?? null });
    useSession.getState().setView(nav.view);
  };
  return (
    <article className={`finding sev-${finding.severity}`} data-testid="finding" data-code={finding.code}>
      <header>
        <Badge kind={finding.severity}>{finding.severity}</Badge> <code className="code">{finding.code}</code>
        <span className="finding-summary">
          <RichText text={finding.summary} />
        </span>
      </header>
      {finding.evidence.length > 0 && (
        <details>
          <summary>Evidence ({finding.evidence.length})</summary>
          <ul className="evidence">
            {finding.evidence.map((e, i) => (
              <li key={i}>
                <code>{shown(e)}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="finding-action">
        <strong>What to do:</strong> <RichText text={finding.action} />{' '}
        {finding.next.map((step, i) => (
          <NextStepButton key={i} step={step} />
        ))}
        {chunks.length > 0 && (
          <button type="button" className="small" onClick={showChunks} data-testid="show-chunks">
            Show {chunks.length === 1 ? 'the chunk' : `these ${chunks.length} chunks`} →
          </button>
        )}
        {nav && finding.next.length === 0 && chunks.length === 0 && (
          <button type="button" className="small" onClick={go}>
            {nav.label} →
          </button>
        )}
      </p>
      {finding.next.length > 0 && <CliEquivalent steps={finding.next} />}
    </article>
  );
}
