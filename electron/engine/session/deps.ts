/**
 * The engine functions the session calls, behind one small interface: the one place where the
 * session meets the store, fluentbit, s3, diagnose and repair modules (and where tests can swap
 * a function, e.g. a slow scan to test cancel).
 */
import type { RequestInput } from '../../../shared/contract';
import type {
  ChunkInfo,
  Diagnosis,
  FluentBitConfig,
  FluentBitOutput,
  Progress,
  RecordPage,
  RepairPlan,
  RepairResult,
  RootReport,
  S3Evidence,
  StoreReport,
} from '../../../shared/model';
import type { StoreSession } from './registry';

export interface WorkOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

export type RepairInput = Omit<RequestInput<'repair.apply'>, 'confirm'> & { confirm?: string };

export interface EngineDeps {
  scanStore(path: string, opts: WorkOptions): Promise<StoreReport>;
  readChunk(storePath: string, rootPath: string, chunkPath: string): Promise<{ info: ChunkInfo; headerHex: string }>;
  readRecords(storePath: string, rootPath: string, chunkPath: string, offset: number, limit: number, signal?: AbortSignal): Promise<RecordPage>;
  /** Start watching; returns a function that stops it. */
  watchStore(path: string, onChange: (paths: string[]) => void): () => Promise<void> | void;
  loadConfigFile(path: string): Promise<FluentBitConfig>;
  loadConfigText(name: string, text: string): Promise<FluentBitConfig>;
  parseOfflineEvidence(documents: { name: string; text: string }[]): Promise<S3Evidence>;
  /** Focused or full listing as `planLiveListing` decides (root: the output's root in the store, for its buffered data). */
  listLive(
    output: FluentBitOutput,
    connection: RequestInput<'evidence.live'>['connection'],
    opts: WorkOptions & { at?: Date; fullListing?: boolean; root?: RootReport | null },
  ): Promise<S3Evidence>;
  diagnose(session: StoreSession, opts: { at?: string; outputId?: number }): Promise<Diagnosis>;
  /** Bucket names the user may type to confirm a write. */
  confirmations(session: StoreSession, input: RepairInput): string[];
  repairPlan(
    session: StoreSession,
    input: RepairInput,
    opts: WorkOptions,
  ): Promise<RepairPlan & { replayItems?: import('../../../shared/model').ReplayItem[] }>;
  repairApply(session: StoreSession, input: RepairInput, plan: RepairPlan, opts: WorkOptions): Promise<RepairResult>;
}

export { defaultDeps } from './deps-default';
