/**
 * Diagnosis: StoreReport + Fluent Bit config + S3 evidence → per S3 output the persisted, highest
 * and safe `$INDEX`, a (time, index) timeline, resets, collision analysis and findings with
 * stable codes (INDEX_FILE_MISSING, OVERWRITE_RISK, …).
 *
 * Offers: diagnose(input) (pure; the session diagnoses what it holds), worstSeverity(d), DiagnoseInputError, analyzeBucket, findResets; live evidence in the listing mode the
 * key format allows: planLiveListing(input), listLiveEvidence(client, opts).
 */
export { diagnose, worstSeverity, bySeverity, SEVERITY_ORDER, type DiagnoseInput } from './diagnose';
export {
  planLiveListing,
  listLiveEvidence,
  listingModeNote,
  oldestBufferedTime,
  collisionWindowMs,
  type LiveListingPlan,
  type LiveListingInput,
  type LiveEvidenceOptions,
} from './live';
export { DiagnoseInputError, selectTargets, matchRoot, normalizeRootPath, offlineTarget, type Target } from './targets';
export { analyzeBucket, findResets, type BucketAnalysis, type ParsedKey } from './bucket';
export { indexRanges } from './text';
export { indexEvidenceOf, coversIndex } from './coverage';
