/**
 * Facts the app's console views show beyond the scan and the diagnosis: the history of applied
 * actions (from the undo journal), the resolved S3 target of an output and a connection test,
 * saved connections, where the data of a store sits (storage summary), and the annotated layout
 * of a chunk's first bytes. Part of the domain model (see ../model.ts).
 */
import type { RepairAction } from './repair';
import type { S3ConnectionOptions } from './s3';
import type { StreamKind } from './store';

/** One applied action of a store, as its journal (`<root>/.store-doctor/journal.jsonl`) records it. */
export interface HistoryEntry {
  id: string;
  at: string;
  action: RepairAction;
  summary: string;
  rootPath: string;
  journal: string;
  /** The user id that applied it; null when the journal does not record it. */
  uid: number | null;
  /** `verified`: applied and checked after writing; `applied`: applied, the check did not pass; `failed`; `incomplete` (no outcome: interrupted); `abandoned` (nothing was changed). */
  result: 'verified' | 'applied' | 'failed' | 'incomplete' | 'abandoned';
  /** The outcome in one sentence. */
  resultText: string;
  resultAt: string | null;
  /**
   * `next`: what an undo takes now; `later`: undoable once the newer actions are undone; `undone`;
   * `undo-failed` (the last undo of it did not complete); `not-undoable`; `nothing` (nothing was changed).
   */
  undo: { state: 'next' | 'later' | 'undone' | 'undo-failed' | 'not-undoable' | 'nothing'; text: string; at: string | null };
  /** Files, folders and moves the action recorded. */
  changes: number;
}

export interface HistoryList {
  /** Newest first. */
  entries: HistoryEntry[];
  /** Journals read. */
  journals: string[];
  /** Why there is no history to read (an archive, …); null otherwise. */
  note: string | null;
}

/** Where S3 requests of one output go, as resolved for a request — never a secret. */
export interface S3Target {
  outputId: number;
  outputName: string;
  bucket: string;
  /** The endpoint requests are sent to (no user info, no query). */
  endpoint: string;
  endpointFrom: 'form' | 'config' | 'aws';
  /** Null: not set anywhere Store Doctor reads; the SDK takes the profile's region, else us-east-1. */
  region: string | null;
  regionFrom: 'form' | 'config' | 'environment' | 'profile-or-default';
  addressing: 'path-style' | 'virtual-hosted-style';
  profile: string | null;
  profileFrom: 'form' | 'config' | 'environment' | null;
  /** Where the credentials come from, one sentence (resolved when the connection was tested). */
  credentialSource: string;
}

export interface ConnectionTest {
  target: S3Target;
  /** HeadBucket answered 200. */
  ok: boolean;
  /** One sentence: what happened, and that nothing was changed. */
  message: string;
  httpStatus: number | null;
  at: string;
}

/** A connection remembered for a bucket (engine state dir; profile/region/endpoint/path-style only — never a secret). */
export interface SavedConnection {
  bucket: string;
  connection: S3ConnectionOptions;
  savedAt: string;
}

export interface StorageRow {
  chunks: number;
  bytes: number;
  /** Sum of the known record counts (chunks read without records count 0; see `recordsKnown`). */
  records: number;
}

/** Where the data of a store sits and how old the backlog is, at the scan time. */
export interface StorageSummary {
  /** The time ages are measured from (the scan time). */
  at: string;
  /** False when the store was read without record counts. */
  recordsKnown: boolean;
  byKind: (StorageRow & { kind: StreamKind })[];
  /** Data and quarantined chunks by tag, largest first. */
  byTag: (StorageRow & { tag: string; pending: number })[];
  /** Chunks Fluent Bit will upload (valid chunks of data streams) by age of their oldest record (else file time). */
  backlog: (StorageRow & { label: string; fromSeconds: number; toSeconds: number | null })[];
  /** Backlog chunks whose age is unknown (no record time, no file time). */
  backlogUnknownAge: StorageRow;
  /** How the age is measured, one sentence. */
  backlogBasis: string;
  /** The config's `[SERVICE] storage.path` (Fluent Bit's engine buffer, not this store_dir): its backlog per input; absent when no config sets one. */
  storagePath?: StoragePathBacklogSummary;
}

/** A storage.path's backlog per input folder (`dummy.0`, `tail.1`) for the storage picture. */
export interface StoragePathBacklogSummary {
  path: string;
  /** storage.checksum from the config; null when unknown (rejections then counted as with it on). */
  checksum: boolean | null;
  inputs: (StorageRow & { input: string; rejected: number; rejectedRecords: number; oldestTime: string | null })[];
  /** Why the folder could not be read (then `inputs` is empty). */
  error: string | null;
}

/** One field of a chunk's first bytes, for an annotated hex dump (docs/fluent-bit-store-format.md#chunk-header). */
export interface ChunkLayoutField {
  name: string;
  offset: number;
  /** Bytes of the field present in the file (may be less than the field's size in a short file). */
  length: number;
  hex: string;
  /** The value as Fluent Bit reads it. */
  value: string;
  /** What it means for this chunk. */
  note: string;
  /** Whether the field is as Fluent Bit expects; null when it does not apply. */
  ok: boolean | null;
}
