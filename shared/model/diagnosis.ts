/** Findings and per-output index diagnosis. Part of the domain model (see ../model.ts). */
import type { CollisionAnalysis } from './keyformat';
import type { RepairAction } from './repair';

export type Severity = 'critical' | 'error' | 'warning' | 'info';

export const FINDING_CODES = [
  'INDEX_FILE_MISSING',
  'INDEX_FILE_UNREADABLE',
  'INDEX_BEHIND_BUCKET',
  'INDEX_REUSED',
  'OVERWRITE_RISK',
  'OBJECTS_OVERWRITTEN',
  'SEQUENCE_UNPROTECTED',
  'SHARED_STORE_ROOT',
  'OUTPUT_ID_MISMATCH',
  'BUFFERED_BACKLOG',
  'QUARANTINED_DATA',
  'MULTIPART_PENDING',
  'MULTIPART_ORPHANED',
  'CHUNK_DAMAGED',
  'ROOT_NOT_FOUND',
  'NO_EVIDENCE',
  'INDEX_BEYOND_EXACT_RANGE',
  'NO_STORE',
  'STORE_UNREADABLE',
  /** Store Doctor could not read a seq_index file (permission denied): its value is unknown. */
  'INDEX_FILE_NOT_READ',
  /** Version-aware (docs/fluent-bit-versions.md): chunks a crash left with zero padding that Fluent Bit uploads as NUL bytes. */
  'CHUNK_NUL_PADDING',
  /** A version before 5 on a store with quarantine/: it uploads what 5.x set aside. */
  'QUARANTINE_DOWNGRADE',
  /** Before 5.x a graceful stop deletes given-up chunks with their stream. */
  'GIVEN_UP_LOST_AT_STOP',
  /** 1.x crashes at its first upload to an http:// endpoint without `tls Off`. */
  'CONFIG_HTTP_WITHOUT_TLS_OFF',
  /** 1.x with keep-alive connections sent records twice. */
  'CONFIG_KEEPALIVE_DUPLICATES',
  /** No config and no seq_index file in a root: whether an output there uses `$INDEX` (and lost it) is unknown. */
  'INDEX_STATE_UNKNOWN',
  /** The listing shows keys of one output from several writers (each its own $INDEX counter) with a format that has no node-unique part. */
  'COLLISION_ACROSS_NODES',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface Finding {
  code: FindingCode;
  severity: Severity;
  summary: string;
  /** Facts that prove the finding, one per line (keys, indices, paths, times). */
  evidence: string[];
  /** What to do, one line, in words every door can show (no command lines, no flags). */
  action: string;
  /**
   * The requests that do it, best first: the app shows each as a button, the CLI as a command
   * line (`electron/cli/suggest.ts`). Empty when there is nothing to run.
   */
  next: NextStep[];
  outputId?: number | null;
  /** Structured details for the UI (keys at risk, time window, …). */
  data?: Record<string, unknown>;
}

/** A request a finding recommends, without the store id (the door adds it). */
export type SuggestedRequest =
  | {
      name: 'repair.plan';
      input: {
        action: RepairAction;
        outputId?: number;
        /** repair-index: a value the operator chose instead of the safe one. */
        value?: number;
        method?: 'marker' | 'shadow';
        includeActive?: boolean;
        multipartDecision?: 'complete' | 'abort';
        abortOrphans?: boolean;
      };
    }
  /** List the bucket live (the app asks for the connection; the CLI adds `--live`). */
  | { name: 'evidence.live'; input: { outputId: number; fullListing?: boolean } }
  /** Import `aws s3api` JSON of this kind for this bucket. */
  | { name: 'evidence.importOffline'; input: { outputId?: number; kind: 'listing' | 'versions' | 'multipart'; bucket: string } }
  | { name: 'config.load'; input: Record<string, never> }
  | { name: 'store.rescan'; input: Record<string, never> };

export interface NextStep {
  /** Button text, e.g. "Plan the index repair". */
  label: string;
  request: SuggestedRequest;
}

export interface IndexPoint {
  /** When the index was used (object LastModified, or the time in the key). */
  time: string;
  index: number;
  key: string;
  tag?: string;
  /** The object's LastModified, when the evidence has it. */
  lastModified?: string | null;
}

/** What the next start writes first for one tag, and whether that key is already in the bucket. */
export interface NextKeyExample {
  tag: string;
  index: number;
  key: string;
  /** `exists`: the evidence holds this key; `free`: the evidence covers it and does not; `unknown`: not covered. */
  state: 'exists' | 'free' | 'unknown';
}

export interface OutputDiagnosis {
  id: number;
  displayName: string;
  bucket: string;
  keyFormat: string;
  rootPath: string | null;
  persistedNextIndex: number | null;
  highestIndexInBucket: number | null;
  /**
   * The next `$INDEX` that reuses no key the bucket holds — only when the bucket evidence covers
   * every key the next uploads can produce (see `indexEvidence`); null when that is not known.
   */
  safeNextIndex: number | null;
  /**
   * What the local facts and the evidence at hand rule out: the next index is at least this (the
   * bucket's highest + 1 when listed, the persisted value, multipart records). Never "safe" by itself.
   */
  lowerBoundNextIndex: number;
  /** How far the bucket evidence goes for `safeNextIndex`, in one sentence for the operator. */
  indexEvidence: IndexEvidence;
  /**
   * Set only when the bucket holds an `$INDEX` above 2^53 - 1: the exact decimal values. The
   * numbers above are then rounded up (never below the exact value) and are not safe integers;
   * `safeNextIndex` is then null (Store Doctor writes no such value).
   */
  highestIndexInBucketText?: string;
  lowerBoundNextIndexText?: string;
  /** Set only when the seq_index file holds a value above 2^53 - 1 (`persistedNextIndex` is then null): its exact decimal. */
  persistedNextIndexText?: string;
  timeline: IndexPoint[];
  /** Detected resets: where the index went down over time. */
  resets: { time: string; from: number; to: number }[];
  collision: CollisionAnalysis;
  /**
   * A worked example of the collision analysis: the first key the next start writes per tag
   * (with the persisted index, at the assumed restart time). Absent when the key format has no
   * `$INDEX` or no tag is known.
   */
  nextKeys?: NextKeyExample[];
  findings: Finding[];
}

/**
 * Coverage of the bucket evidence for the `$INDEX` question. `complete`: every key the key format
 * can reach was listed; `window`: a focused listing, complete for keys dated `from` on (what uploads
 * after a restart at that time can produce); `incomplete`: listed, but cut (denied, cancelled, a
 * missing page, a narrower prefix); `none`: no listing; `unusable`: keys cannot be matched (no key
 * format, or the format has no `$INDEX`).
 */
export interface IndexEvidence {
  coverage: 'complete' | 'window' | 'incomplete' | 'none' | 'unusable' | 'stale';
  /** `window`: the earliest key time the listing is complete for. */
  from?: string;
  text: string;
  /** When the listing was taken (live: when it finished; offline: the file time), when known. */
  listedAt?: string;
}

/**
 * What makes bucket evidence stale (`coverage: 'stale'`: nothing is called safe on it): a write
 * Store Doctor itself made to the bucket after the listing (replay, multipart, recover-versions),
 * or an age above `maxAgeMs`.
 */
export interface EvidenceFreshness {
  /** The tool's own last write per bucket: when, and which action. */
  bucketWrites?: Record<string, { at: string; action: string }>;
  /** Evidence older than this (by its `listedAt`) is stale; none: no age limit. */
  maxAgeMs?: number;
  now?: Date;
}

/** What a diagnosis looked at, so no view reads "nothing wrong" into what was not checked. */
export interface DiagnosisChecks {
  /** Was a store found at all (at least one bucket root)? */
  store: boolean;
  /** Config file(s) the outputs come from; null: no config (outputs inferred from seq_index files). */
  config: string[] | null;
  outputs: {
    id: number;
    displayName: string;
    listing: IndexEvidence['coverage'];
    /** Object versions listed (null: not listed, so overwritten versions are unknown). */
    versions: boolean;
    /** In-progress multipart uploads listed. */
    multipart: boolean;
  }[];
  /**
   * Every bucket root (its folder name is the bucket) and whether its `$INDEX` state is known:
   * `known` when an output (of the config, or inferred from a seq_index file) uses it; `unknown`
   * without a config and without a seq_index file (INDEX_STATE_UNKNOWN).
   */
  roots: { bucket: string; path: string; index: 'known' | 'unknown' }[];
  /** False while a root's index state is unknown: the result is incomplete (CLI exit 7), never "no findings". */
  complete: boolean;
}

/**
 * The Fluent Bit version a diagnosis applies, and where it comes from (docs/fluent-bit-versions.md,
 * electron/engine/fluentbit/versions.ts). Never a guess presented as a fact: `inferred` names the
 * store files it rests on, `unknown` makes the findings say where versions differ.
 */
export interface FluentBitVersionInfo {
  /** `given` by the operator, read from a `binary` (`fluent-bit --version`), `inferred` from the store, or `unknown`. */
  source: 'given' | 'binary' | 'inferred' | 'unknown';
  /** The exact version (given, or printed by the binary), e.g. "1.9.10"; null when inferred or unknown. */
  version: string | null;
  /**
   * The measured versions whose behaviour the findings apply (of 1.9.10, 3.2.10, 4.2.8, 5.0.9, 5.1.1).
   * More than one: the findings say where those versions differ instead of claiming one behaviour.
   */
  assumes: string[];
  /** One sentence: which version and where it came from. */
  text: string;
  /** What the source rests on: the value given, the binary and its output, the store files seen. */
  evidence: string[];
}

/** A version set on an opened store (given, or read from a binary): what `store.fluentBitVersion` records. */
export interface FluentBitVersionGiven {
  source: 'given' | 'binary';
  version: string;
  evidence: string[];
}

export interface Diagnosis {
  at: string;
  /** Which Fluent Bit version the findings apply, and why. */
  fluentBit: FluentBitVersionInfo;
  outputs: OutputDiagnosis[];
  /** Findings not tied to one output (damaged chunks, roots no output uses, …). */
  storeFindings: Finding[];
  checks: DiagnosisChecks;
}
