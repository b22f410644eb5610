/** Plans and results of every write action (repair/, replay, multipart, versions). Part of the domain model (see ../model.ts). */

export type RepairAction = 'repair-index' | 'protect-index' | 'restore-index' | 'undo' | 'replay' | 'multipart' | 'recover-versions';

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
  /** Data the apply step needs (opaque to UIs). */
  details?: Record<string, unknown>;
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
