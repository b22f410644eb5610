/** Plans and results of every write action (repair/, replay, multipart, versions). Part of the domain model (see ../model.ts). */
import type { PlanDetails } from './plan-details';
import type { RootReport, SeqIndexInfo, SequenceInfo, StreamInfo } from './store';

/** Every write action's name, spelled once (the contract's enum and the engine's registry of actions derive from it). */
export const REPAIR_ACTIONS = ['repair-index', 'protect-index', 'restore-index', 'replay', 'multipart', 'recover-versions', 'undo', 'salvage'] as const;
export type RepairAction = (typeof REPAIR_ACTIONS)[number];

export interface PlanStep {
  /** `write-file`, `mkdir`, `move`, `put-object`, `complete-upload`, `abort-upload`, `copy-object`, … */
  kind: string;
  /** Local path (absolute) or `s3://bucket/key`. */
  target: string;
  description: string;
  /** For writes: previous and new content (text; bytes as hex when not text). */
  before?: string | null;
  after?: string | null;
}

export interface RepairPlan {
  action: RepairAction;
  storePath: string;
  rootPath: string | null;
  summary: string;
  why: string[];
  steps: PlanStep[];
  warnings: string[];
  /** Reasons the plan cannot be applied (without --force where `forceable`). */
  refusals: { reason: string; forceable: boolean }[];
  /** Data the apply step needs (UIs show the steps, not this). */
  details?: PlanDetails;
  /** Set by the session that made the plan: `repair.apply` takes this id and applies exactly this plan. */
  planId?: string;
  /** The phrase the operator types to confirm (the bucket; `bucket/alias` when outputs share it). */
  confirm?: string;
  /** What the plan rests on; apply refuses when any of it changed since. */
  basis?: PlanBasis;
  /** The plan was made with force: forceable refusals are overridden when it is applied. */
  forced?: boolean;
  /** What Store Doctor writes for itself when the plan is applied (its undo journal, backups), set by the session. */
  bookkeeping?: PlanStep[];
  /** Whether a process uses the plan's root, as checked when planning (set by the session for local writes). */
  processCheck?: ProcessCheck;
}

/** The check for processes using a root before a write (Fluent Bit maps chunks shared and takes no locks). */
export interface ProcessCheck {
  /** The check could run (Linux /proc). */
  checked: boolean;
  /** Processes found using the root. */
  processes: { pid: number; command: string }[];
  /** Processes that could not be inspected (permission denied). */
  uninspectable: number;
  /** One sentence, e.g. "No process uses this root (…)". */
  text: string;
}

/**
 * What a plan rests on, as fingerprints a later apply (in this session or from a saved plan file)
 * recomputes: the scan of the plan's root, the config, the bucket evidence, and each local file it
 * writes, moves or deletes.
 */
export interface PlanBasis {
  /** sha256 of the scan of the plan's root (streams, chunks, seq_index files, sequence/). */
  store: string;
  /** sha256 of the Fluent Bit config's outputs; null: no config. */
  config: string | null;
  /** sha256 of the bucket evidence of the plan's output; null: none. */
  evidence: string | null;
  /** State of each local file or folder the plan changes: `sha256:<hex>`, `stat:<size>:<mtimeMs>:<ino>`, `dir`, `absent`. */
  files: { path: string; state: string }[];
  /** The folder the plan's root resolved to (absent: the plan has no root). */
  root?: PlanRoot;
}

/**
 * What a plan's root was when it was planned: the folder it resolved to (a bucket root may be a
 * symlink, which Fluent Bit follows). A link swapped afterwards — to another folder, even one that
 * looks the same — makes the plan stale.
 */
export interface PlanRoot {
  /** The root as the plan names it. */
  path: string;
  /** Its realpath, device and inode; null when it could not be resolved (then `problem`). */
  folder: { real: string; dev: number; ino: number } | null;
  problem?: string;
}

/** What an apply changed on disk, re-read once with the scanner's own parsers (so no door rescans the store). */
export interface StoreUpdate {
  readonly rootPath: string;
  /** The root's seq_index files now (when the action touched sequence/). */
  readonly seqIndex?: readonly SeqIndexInfo[];
  readonly sequence?: SequenceInfo;
  /** Streams whose chunks changed, as they are now (by name; a stream that is gone is absent from `removedStreams`). */
  readonly streams?: readonly StreamInfo[];
  readonly removedStreams?: readonly string[];
  readonly totals?: RootReport['totals'];
}

export interface RepairResult {
  action: RepairAction;
  applied: boolean;
  summary: string;
  steps: { step: PlanStep; ok: boolean; message: string }[];
  /** Id of the undo-journal entry written. */
  undoId: string | null;
  verified: boolean;
  warnings: string[];
  /** The parts of the store report this apply changed (the session merges them into its report). */
  storeUpdate?: StoreUpdate[];
  /**
   * What the action left as it was although it was asked to settle it (multipart: uploads still
   * open, records kept), with why. Non-empty: not a success (the CLI exits 6).
   */
  unsettled?: string[];
}

export interface ReplayItem {
  chunkPath: string;
  stream: string;
  tag: string;
  key: string;
  index: number | null;
  bytes: number;
  records: number | null;
  compression: string;
  state: 'planned' | 'uploaded' | 'skipped' | 'failed' | 'done';
  message?: string;
}
