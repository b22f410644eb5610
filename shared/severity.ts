/** Severity order of findings and the worst severity of a diagnosis (pure; every door uses it). */
import type { Diagnosis, Finding, Severity } from './model';

export const SEVERITY_ORDER: Severity[] = ['critical', 'error', 'warning', 'info'];

export const bySeverity = (a: Finding, b: Finding) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity);

/** The worst severity in a diagnosis (null: no findings). */
export function worstSeverity(d: Diagnosis): Severity | null {
  const all = [...d.outputs.flatMap((o) => o.findings), ...d.storeFindings];
  for (const s of SEVERITY_ORDER) if (all.some((f) => f.severity === s)) return s;
  return null;
}
