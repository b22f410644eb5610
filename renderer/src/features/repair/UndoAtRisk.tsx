/**
 * An undo that puts an index back below what the evidence shows used (engine: repair/undo/undo-index.ts)
 * is refused unless forced; this names the keys Fluent Bit would make again and overwrite, so the
 * operator confirms knowing exactly which objects are at risk.
 */
import type { Plan } from './planFlow';

const SHOWN = 50;

export function UndoAtRisk({ plan }: { plan: Plan }) {
  const risks = plan.details?.kind === 'undo' ? (plan.details.atRisk ?? []) : [];
  if (!risks.length) return null;
  return (
    <div className="keys-at-risk" data-testid="keys-at-risk">
      {risks.map((r) => (
        <div key={r.outputId}>
          <h4>
            Keys at risk: seq_index_{r.outputId} would be {r.restored === null ? 'missing (Fluent Bit starts at 0)' : `put back to ${r.restored}`}, but $INDEX{' '}
            {r.highestIndex} is already used
          </h4>
          <ul>
            {r.keys.slice(0, SHOWN).map((k) => (
              <li key={k}>
                <code>{k}</code>
              </li>
            ))}
          </ul>
          {r.keys.length > SHOWN && <p className="muted small">and {r.keys.length - SHOWN} more</p>}
        </div>
      ))}
    </div>
  );
}
