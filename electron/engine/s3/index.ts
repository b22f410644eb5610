/**
 * S3 evidence, live and offline.
 *
 * Live:    createS3Client(opts) → S3Client (default credential chain, profile/region/endpoint/path-style,
 *          checksums WHEN_REQUIRED, timeouts that throw); describeConnection(opts) (no secrets);
 *          listForKeyFormat(client, { bucket, keyFormat, focus?, versions?, multipart?, … }) → S3Evidence;
 *          listAllObjects / listVersions / listMultipartUploads / listParts / versioningStatus.
 * Offline: parseOfflineEvidence(docs) / loadOfflineEvidence({ listing, versions, multipart }) → S3Evidence
 *          from `aws s3api` JSON or the recorder format; OfflineEvidenceError names the file.
 */
export {
  createS3Client,
  clientForOutput,
  resolveConnection,
  describeConnection,
  regionProvider,
  DEFAULT_REGION,
  type CreateS3ClientOptions,
  type ConnectionDescription,
} from './client';
export { listForKeyFormat, type ListForKeyFormatOptions, type ListFocus } from './planner';
export {
  listAllObjects,
  listVersions,
  listMultipartUploads,
  listParts,
  versioningStatus,
  type ListOptions,
  type RequestCounter,
  type VersioningStatus,
} from './list';
export { parseOfflineEvidence, loadOfflineEvidence, readOfflineDocuments, OfflineEvidenceError, type OfflineDocument, type OfflineDocKind } from './offline';
export { S3EvidenceError, isAbort, isAccessDenied, isNoSuchBucket, describeS3Error } from './errors';
export { explainS3Error, isS3Failure, type ExplainContext } from './explain';
export { describeTarget, testConnection, credentialSourceOf, credentialSourceHint } from './target';
export { splitSegments, keyMatcher, formatLiteralPrefix, timeChainAt } from './format-segments';
