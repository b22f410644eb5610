/**
 * The requests a finding recommends, as data (`NextStep`): every door renders them its own way —
 * the app as buttons, the CLI and the Markdown report as command lines (shared/suggest-cli.ts).
 */
import type { NextStep } from '../../../shared/model';

export const next = {
  repairIndex: (outputId: number, value: number | null): NextStep => ({
    label: value === null ? 'Plan the index repair' : `Plan the index repair (next index ${value})`,
    request: { name: 'repair.plan', input: { action: 'repair-index', outputId } },
  }),
  protect: (outputId: number, method: 'marker' | 'shadow'): NextStep => ({
    label: method === 'marker' ? 'Protect the index with a marker chunk' : 'Protect the index with a shadow copy',
    request: { name: 'repair.plan', input: { action: 'protect-index', outputId, method } },
  }),
  restore: (outputId: number): NextStep => ({
    label: 'Restore the index before the next start',
    request: { name: 'repair.plan', input: { action: 'restore-index', outputId } },
  }),
  replay: (outputId: number, includeActive?: boolean): NextStep => ({
    label: 'Plan the replay to the bucket',
    request: { name: 'repair.plan', input: { action: 'replay', outputId, ...(includeActive ? { includeActive } : {}) } },
  }),
  multipart: (outputId: number, decision?: 'complete' | 'abort', abortOrphans?: boolean): NextStep => ({
    label:
      decision === 'complete' ? 'Plan completing the uploads' : abortOrphans ? 'Plan settling the uploads (abort orphans too)' : 'Plan settling the uploads',
    request: {
      name: 'repair.plan',
      input: { action: 'multipart', outputId, ...(decision ? { multipartDecision: decision } : {}), ...(abortOrphans ? { abortOrphans } : {}) },
    },
  }),
  recoverVersions: (outputId: number): NextStep => ({
    label: 'Plan recovering the overwritten versions',
    request: { name: 'repair.plan', input: { action: 'recover-versions', outputId } },
  }),
  listLive: (outputId: number, fullListing?: boolean): NextStep => ({
    label: fullListing ? 'List every key of the bucket' : 'List the bucket',
    request: { name: 'evidence.live', input: { outputId, ...(fullListing ? { fullListing } : {}) } },
  }),
  importEvidence: (bucket: string, kind: 'listing' | 'versions' | 'multipart', outputId?: number): NextStep => ({
    label: kind === 'listing' ? 'Import a bucket listing' : kind === 'versions' ? 'Import a versions listing' : 'Import the multipart uploads',
    request: { name: 'evidence.importOffline', input: { kind, bucket, ...(outputId !== undefined ? { outputId } : {}) } },
  }),
  loadConfig: (): NextStep => ({ label: 'Load the Fluent Bit config', request: { name: 'config.load', input: {} } }),
  rescan: (): NextStep => ({ label: 'Rescan the store', request: { name: 'store.rescan', input: {} } }),
};

/** Ways to get bucket evidence for one output: a live listing, or imported `aws s3api` JSON. */
export function evidenceSteps(outputId: number, bucket: string): NextStep[] {
  return [next.listLive(outputId), next.importEvidence(bucket, 'listing', outputId)];
}
