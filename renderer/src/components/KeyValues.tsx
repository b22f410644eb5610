import type { ReactNode } from 'react';

/** A label → value list (`<dl class="kv">`), as both Inspectors show a chunk's fields. */
export function KeyValues({ rows, testId }: { rows: readonly (readonly [string, ReactNode])[]; testId: string }) {
  return (
    <dl className="kv" data-testid={testId}>
      {rows.map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
