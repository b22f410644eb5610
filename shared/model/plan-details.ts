/**
 * What `apply` needs of each kind of plan, as one discriminated union: the planner of each action
 * fills its own member, `applyPlan()` dispatches on `kind`. Part of the domain model (see ../model.ts).
 */
import type { RepairPlan, ReplayItem } from './repair';

export interface IndexPlanDetails {
  kind: 'index';
  rootPath: string;
  outputId: number;
  value: number;
  file: string;
  /** Hex of the bytes at plan time (null = missing); apply refuses when they changed. */
  expectedBeforeHex: string | null;
  noChange: boolean;
  /** The bucket evidence the value rests on: recorded with the action, so its undo is judged against it too. */
  evidence?: UsedIndexEvidence;
}

/**
 * The `$INDEX` evidence a write rested on, kept in its journal entry: an undo that would put the
 * index back below what this evidence shows used is refused without force (repair/undo/undo-index.ts).
 */
export interface UsedIndexEvidence {
  outputId: number;
  /** How far the listing went (the diagnosis' `indexEvidence.coverage`) and its sentence. */
  coverage: 'complete' | 'window' | 'incomplete' | 'none' | 'unusable' | 'stale';
  text: string;
  /** When the listing was taken; null when not known. */
  listedAt: string | null;
  /** The highest `$INDEX` the evidence shows used (in what it covers); null: none found. */
  highestIndex: number | null;
  /** The listed keys with the highest `$INDEX` values, highest first (at most 200). */
  keys: { key: string; index: number }[];
}

export interface RestorePlanDetails {
  kind: 'restore';
  /** One index plan per output of the root. */
  subplans: RepairPlan[];
  /** `$INDEX` output ids with no value anywhere (no shadow, no file, no bucket evidence): nothing was invented for them. */
  unresolved?: number[];
}

export interface ProtectMarkerDetails {
  kind: 'protect-marker';
  rootPath: string;
  marker: string;
  noChange: boolean;
  expectedBeforeHex?: string | null;
}

export interface ProtectShadowDetails {
  kind: 'protect-shadow';
  rootPath: string;
  shadowDir: string;
  writes: { id: number; value: number }[];
  noChange: boolean;
}

export interface UndoPlanDetails {
  kind: 'undo';
  journal: string;
  id: string;
  /**
   * Index files the undo would put back below an index the evidence shows used (the evidence
   * recorded with the action, and the session's current evidence): the keys Fluent Bit would make
   * again and so overwrite. The undo is refused without force while any is listed.
   */
  atRisk?: UndoIndexRisk[];
}

export interface UndoIndexRisk {
  outputId: number;
  file: string;
  /** What the undo puts back: the value, or null for a missing file (Fluent Bit then starts at 0). */
  restored: string | null;
  highestIndex: number;
  /** Listed keys with `$INDEX` >= the restored value (at most 200), highest first. */
  keys: string[];
}

export type ReplayCompression = 'none' | 'gzip';

export interface ReplayPlanDetails {
  kind: 'replay';
  rootPath: string;
  bucket: string;
  keyFormat: string;
  tagDelimiters: string;
  staticFilePath: boolean;
  compression: ReplayCompression;
  outputId: number | null;
  hasIndex: boolean;
  firstIndex: number;
  /** The index file is below what an earlier (interrupted) replay used: apply writes it even with no chunk left. */
  indexBehind: boolean;
  time: string | null;
  items: ReplayItem[];
  /** Key time per chunk path (ISO). */
  times: Record<string, string>;
}

export interface SettleItem {
  /** The record that holds this upload (`recordRole` own) or whose lines prove its parts (`lines`); null: none. */
  recordPath: string | null;
  /** `own`: the record's metadata names this upload; `lines`: no record of its own, its parts are lines of `recordPath`. */
  recordRole?: 'own' | 'lines';
  key: string;
  uploadId: string;
  op: 'complete' | 'abort' | 'forget' | 'none';
  parts: { partNumber: number; etag: string }[];
  reason: string;
}

export interface MultipartPlanDetails {
  kind: 'multipart';
  rootPath: string;
  bucket: string;
  settle: SettleItem[];
  /** Records removed once every upload they hold or prove is settled. */
  records: string[];
  /** Uploads (and records) the plan leaves as they are, with why: the result is not a success while any remain. */
  unsettled: string[];
}

export interface RecoveryCopy {
  sourceKey: string;
  versionId: string;
  lastModified: string | null;
  size: number;
  etag: string | null;
  targetKey: string;
}

export interface RecoverPlanDetails {
  kind: 'recover';
  bucket: string;
  copies: RecoveryCopy[];
  recoveryPrefix: string;
}

export type PlanDetails =
  | SalvageDetails
  | IndexPlanDetails
  | RestorePlanDetails
  | ProtectMarkerDetails
  | ProtectShadowDetails
  | UndoPlanDetails
  | ReplayPlanDetails
  | MultipartPlanDetails
  | RecoverPlanDetails;

/** Salvage of chunks Fluent Bit rejects (storage.path: CRC/torn tail; store_dir: truncated). */
export interface SalvageDetails {
  kind: 'salvage';
  rootPath: string;
  /** `storage-path` (engine chunks) or `store-dir` (out_s3 chunks). */
  layout: 'storage-path' | 'store-dir';
  chunks: {
    /** Absolute path of the chunk replaced in place. */
    path: string;
    /** sha256 of the file when planned: apply refuses a chunk that changed since. */
    beforeSha256: string;
    /** sha256 of the chunk written in its place (apply recomputes it and must get the same bytes). */
    afterSha256: string;
    records: number;
    cutBytes: number;
  }[];
}
