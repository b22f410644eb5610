/** Severity / status pill. */
import type { ReactNode } from 'react';

export function Badge({ kind, children }: { kind: string; children: ReactNode }) {
  return <span className={`badge badge-${kind}`}>{children}</span>;
}
