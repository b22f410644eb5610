/**
 * The one contract between the engine and its doors (Electron IPC, CLI and its guard daemon, loopback HTTP host).
 * Every request has a zod input schema (validated at the door, before the engine sees it) and a
 * result type. Events flow engine → door → client. Isomorphic: imported by the renderer too.
 */
import { z } from 'zod';
import type {
  ChunkInfo,
  ChunkLayoutField,
  ConnectionTest,
  Diagnosis,
  FluentBitConfig,
  FluentBitVersionInfo,
  HistoryList,
  Progress,
  RecordPage,
  RepairPlan,
  RepairResult,
  ReplayItem,
  S3Evidence,
  S3Target,
  SavedConnection,
  StorageSummary,
  StoragePathReport,
  StoreReport,
  StoreUpdate,
} from './model';
import type { FleetSummary } from './fleet';
import { REPAIR_ACTIONS } from './model/repair';
import type { GuardStatus } from './guard-status';
import { prometheusConnectionSchema, type PromFleet, type PromNodeSeries } from './fleet-prom';

const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
/** A path relative to a root, `/`-separated, never absolute, never `..`. */
const relPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.includes('\0'), 'must be a relative path inside the store');

export const connectionSchema = z
  .object({
    profile: z.string().max(200).optional(),
    region: z.string().max(100).optional(),
    endpoint: z.string().url().max(2000).optional(),
    pathStyle: z.boolean().optional(),
  })
  .strict();

export const documentSchema = z.object({ name: z.string().min(1).max(500), text: z.string().max(200_000_000) }).strict();

export const repairActionSchema = z.enum(REPAIR_ACTIONS);

const isoTime = z.string().datetime({ offset: true });

/** What every repair action is planned from. `repair.apply` then takes the plan's id. */
const repairPlanSchema = z.object({
  storeId: id,
  action: repairActionSchema,
  outputId: z.number().int().min(0).optional(),
  value: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  method: z.enum(['marker', 'shadow']).optional(),
  includeActive: z.boolean().optional(),
  connection: connectionSchema.optional(),
  force: z.boolean().optional(),
  /** multipart: complete or abort every upload of a local record (default: only safe completions). */
  multipartDecision: z.enum(['complete', 'abort']).optional(),
  /** multipart: also abort server uploads that have no local record. */
  abortOrphans: z.boolean().optional(),
  /** Assumed restart time for the diagnosis the plan rests on (default now). */
  at: isoTime.optional(),
  /** replay: key time for every chunk instead of its first record's time. */
  time: isoTime.optional(),
  /** replay: override the output's compression. */
  compression: z.enum(['none', 'gzip']).optional(),
  /** multipart / recover-versions: only keys under this prefix. */
  prefix: z.string().max(1024).optional(),
  /** recover-versions: where the copies go. */
  recoveryPrefix: z.string().min(1).max(1024).optional(),
  /** replay: parallel uploads. */
  concurrency: z.number().int().min(1).max(64).optional(),
  /** protect-index / restore-index shadow folder, outside the store, an absolute path the user typed (CLI --shadow-dir, the app's field). */
  shadowDir: path.optional(),
});

const planId = z.string().regex(/^plan-[0-9a-f]{24}$/, 'not a plan id');

/** Inputs of every request. Keys are `area.verb`. */
export const requestSchemas = {
  'app.info': z.object({}).strict(),
  /** `records: false` reads chunk headers only (faster; no record counts). */
  'store.open': z
    .object({
      path,
      records: z.boolean().optional(),
      /** Bucket evidence older than this is stale: nothing is called safe on it until it is listed again. */
      evidenceMaxAgeMinutes: z.number().int().min(1).max(525_600).optional(),
    })
    .strict(),
  'store.openDemo': z.object({}).strict(),
  /** The demo extracted into a new temp folder (writable, so Repair and Undo can be tried), opened with its config and listing. */
  'store.openDemoCopy': z.object({}).strict(),
  /** Where the data of an opened store sits (by stream kind and tag) and how old its backlog is. */
  'store.storage': z.object({ storeId: id }).strict(),
  'store.rescan': z.object({ storeId: id }).strict(),
  'store.close': z.object({ storeId: id }).strict(),
  'store.recent': z.object({}).strict(),
  /**
   * Stores already open in this session, most recent first (e.g. the one `serve <path>` opened).
   * `rows: false`: each report without its chunk rows (`rowsOmitted` summarises them), so a page
   * paints the Overview before the rows of a big store arrive; ask again without it for the rows.
   */
  'store.list': z.object({ rows: z.boolean().optional() }).strict(),
  /**
   * The Fluent Bit version that runs this store, for every diagnosis and plan of it until changed:
   * `version` as the operator gives it (null: forget it, the store is read for the version again),
   * or `binary`, a Fluent Bit executable whose `--version` is read — on the command line only
   * (it runs a program). Without either, the diagnosis infers what the store shows.
   */
  'store.fluentBitVersion': z
    .object({
      storeId: id,
      version: z
        .string()
        .max(20)
        .regex(/^v?\d{1,3}\.\d{1,3}(\.\d{1,4})?$/, 'a Fluent Bit version such as 1.9.10')
        .nullable()
        .optional(),
      binary: path.optional(),
    })
    .strict()
    .refine((v) => (v.version !== undefined) !== (v.binary !== undefined), 'give either version or binary'),
  'chunk.inspect': z.object({ storeId: id, rootPath: path, chunkPath: relPath }).strict(),
  'chunk.records': z
    .object({ storeId: id, rootPath: path, chunkPath: relPath, offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) })
    .strict(),
  /** A Fluent Bit engine buffer (`[SERVICE] storage.path`): streams per input, chunks, CRC, records, the backlog and its limits. `configPath`: the Fluent Bit config (its storage settings). */
  'storagePath.open': z.object({ path, configPath: path.optional() }).strict(),
  /** The storage.path a Fluent Bit config sets (`[SERVICE] storage.path`, YAML `service.storage.path`), absolute; null when it sets none. */
  'storagePath.configured': z.object({ configPath: path }).strict(),
  /**
   * Plan the salvage of the chunks Fluent Bit would reject in an opened storage.path, store_dir or
   * bucket root (apply with storagePath.salvageApply). `chunks`: only these chunk files (absolute
   * paths, as the app's Chunks view names one); default every chunk that needs it.
   */
  'storagePath.salvagePlan': z
    .object({ path, configPath: path.optional(), force: z.boolean().optional(), chunks: z.array(path).min(1).max(10_000).optional() })
    .strict(),
  /** A page of the events of one chunk of an opened storage.path (`chunkPath`: `<input>/<chunk>.flb`), decoded from msgpack. */
  'storagePath.records': z.object({ path, chunkPath: relPath, offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) }).strict(),
  /** Plan to undo the last action applied to an opened storage.path (a salvage); applied with storagePath.salvageApply. */
  'storagePath.undoPlan': z.object({ path, force: z.boolean().optional() }).strict(),
  'storagePath.salvageApply': z.object({ path, planId, confirm: z.string().max(500) }).strict(),
  /** The report of a storage.path (as `report` on it): Markdown for a support ticket or JSON. */
  'storagePath.export': z.object({ path, configPath: path.optional(), format: z.enum(['json', 'markdown']) }).strict(),
  'config.load': z
    .object({ storeId: id, path: path.optional(), document: documentSchema.optional() })
    .strict()
    .refine((v) => !!v.path !== !!v.document, 'give either path or document'),
  /** `add`: keep the offline documents imported before for this output (a versions file next to a listing); default: replace. */
  'evidence.importOffline': z
    .object({ storeId: id, outputId: z.number().int().min(0).optional(), documents: z.array(documentSchema).min(1).max(1000), add: z.boolean().optional() })
    .strict(),
  /** The same from files the user named (host paths), by role: `aws s3api list-objects-v2`, `list-object-versions`, `list-multipart-uploads`. */
  'evidence.importFiles': z
    .object({
      storeId: id,
      outputId: z.number().int().min(0).optional(),
      listing: z.array(path).max(1000).optional(),
      versions: z.array(path).max(1000).optional(),
      multipart: z.array(path).max(1000).optional(),
      add: z.boolean().optional(),
    })
    .strict()
    .refine((v) => (v.listing?.length ?? 0) + (v.versions?.length ?? 0) + (v.multipart?.length ?? 0) > 0, 'give at least one file'),
  /**
   * `at`: assumed restart time the listing focuses on (default now; give the same `at` to
   * `diagnose.run`). `fullListing`: list every key even when the key format is time-partitioned.
   */
  'evidence.live': z
    .object({
      storeId: id,
      outputId: z.number().int().min(0),
      connection: connectionSchema,
      at: z.string().datetime({ offset: true }).optional(),
      fullListing: z.boolean().optional(),
    })
    .strict(),
  /** Where S3 requests of an output go with this connection (endpoint, region, addressing, bucket, profile, credential source): no request is sent. */
  'connection.describe': z.object({ storeId: id, outputId: z.number().int().min(0), connection: connectionSchema }).strict(),
  /** The same, then one HeadBucket: reads nothing but whether the bucket answers; changes nothing. */
  'connection.test': z.object({ storeId: id, outputId: z.number().int().min(0), connection: connectionSchema }).strict(),
  /** Connections saved per bucket (engine state dir; no secrets). */
  'connection.list': z.object({}).strict(),
  'connection.save': z.object({ bucket: z.string().min(1).max(255), connection: connectionSchema }).strict(),
  'connection.forget': z.object({ bucket: z.string().min(1).max(255) }).strict(),
  /** Actions applied to an opened store, from its undo journals: what, when, by whom, result, undo state. */
  'history.list': z.object({ storeId: id }).strict(),
  'diagnose.run': z.object({ storeId: id, at: z.string().datetime({ offset: true }).optional(), outputId: z.number().int().min(0).optional() }).strict(),
  'repair.plan': repairPlanSchema.strict(),
  /** Apply exactly the plan `planId` names (once); refused when anything it rests on changed since. */
  'repair.apply': z
    .object({
      storeId: id,
      planId,
      /** The user typed this to confirm: the plan's `confirm` phrase (the bucket name). */
      confirm: z.string().max(500),
    })
    .strict(),
  /**
   * A plan saved earlier (`--plan-out`): planned again on this store's current state and accepted
   * under a new id only when the fresh plan is the saved one (same steps, same basis).
   */
  'repair.import': z
    .object({
      storeId: id,
      plan: z.record(z.string(), z.unknown()),
      request: z.record(z.string(), z.unknown()),
      /** `apply --force` on the command line: the only source of force for a saved plan (never its file). */
      force: z.boolean().optional(),
    })
    .strict(),
  'report.export': z.object({ storeId: id, format: z.enum(['json', 'markdown']) }).strict(),
  'task.cancel': z.object({ taskId: id }).strict(),
  /**
   * Re-read only these paths of an opened folder (files or folders under its roots, e.g. what a
   * watcher saw change) and merge them into the session's report; a path under a root the report
   * does not know yet rescans the store. For long-running doors (the guard): no full rescan per change.
   */
  'store.refresh': z.object({ storeId: id, paths: z.array(path).min(1).max(10_000) }).strict(),
  /**
   * Processes (other than the engine's own) with files open, mapped or their cwd under a root of an
   * opened store. `fluentBitOnly`: look only at processes named like Fluent Bit — a cheap look for a
   * long-running door learning which process to wait for (the write pipeline always looks at all).
   */
  'store.processes': z.object({ storeId: id, rootPath: path, fluentBitOnly: z.boolean().optional() }).strict(),
  /**
   * Run the guard daemon on an opened live store (its config loaded): it keeps every `$INDEX` in a
   * shadow folder under the app's state folder and restores it when a graceful stop deletes
   * sequence/ — every write through repair.apply. `marker`: also keep a marker chunk where safe.
   */
  'guard.start': z.object({ storeId: id, marker: z.boolean().optional() }).strict(),
  'guard.stop': z.object({ storeId: id }).strict(),
  'guard.status': z.object({ storeId: id }).strict(),
  /** Summarise a folder of node reports (the guard's report.json files): the Fleet view and `store-doctor fleet`. */
  'fleet.open': z.object({ path }).strict(),
  /** The fleet from the guards' series in Prometheus: `store-doctor fleet --prometheus`, the Fleet view's Prometheus URL. */
  'fleet.prometheus': z.object({ connection: prometheusConnectionSchema }).strict(),
  /** One node of it: its index series over the last `hours` (range query) and its /report.json where reachable. */
  'fleet.prometheusNode': z
    .object({
      connection: prometheusConnectionSchema,
      instance: z.string().min(1).max(300),
      job: z.string().max(300).optional(),
      node: z.string().max(253).optional(),
      hours: z
        .number()
        .min(0.1)
        .max(24 * 31)
        .optional(),
      fetchReport: z.boolean().optional(),
    })
    .strict(),
} as const;

export type RequestName = keyof typeof requestSchemas;
/** Which door serves an engine session. */
export type Door = 'electron' | 'host' | 'cli';
/** The input of `repair.plan` without the store id: what a saved plan records it was made from. */
export type RepairPlanRequest = Omit<z.output<typeof repairPlanSchema>, 'storeId'>;
export const repairPlanRequestSchema = repairPlanSchema.omit({ storeId: true }).strict();
export type RequestInput<N extends RequestName> = z.input<(typeof requestSchemas)[N]>;

export interface OpenedStore {
  storeId: string;
  report: StoreReport;
  /** Set when the store came with a config / evidence (the demo does). */
  config?: FluentBitConfig | null;
  evidence?: S3Evidence | null;
  /** The built-in demo (as shipped, or a writable copy of it). */
  isDemo?: boolean;
  /**
   * Set when the report was sent without its chunk rows (`store.list { rows: false }`): every
   * stream's `chunks` is empty and this says, per root and stream (same order as the report), how
   * many chunks it has and how many of them each Fluent Bit action takes (in the order first met).
   */
  rowsOmitted?: StreamRowsSummary[][];
}

/** The chunk rows of one stream in a few numbers: what the Overview shows of them. */
export interface StreamRowsSummary {
  chunks: number;
  actions: [action: string, chunks: number][];
}

/** Results of every request. */
export interface RequestResults {
  'app.info': { version: string; door: Door; demoAvailable: boolean };
  'store.open': OpenedStore;
  'store.openDemo': OpenedStore;
  'store.openDemoCopy': OpenedStore & { copy: { path: string; from: string } };
  'store.storage': StorageSummary;
  'connection.describe': S3Target;
  'connection.test': ConnectionTest;
  'connection.list': { connections: SavedConnection[] };
  'connection.save': { saved: SavedConnection };
  'connection.forget': { forgotten: boolean };
  'history.list': HistoryList;
  'store.rescan': OpenedStore;
  'store.close': { closed: boolean };
  'store.recent': { recent: { path: string; openedAt: string }[] };
  'store.list': { stores: OpenedStore[] };
  /** The version every diagnosis of the store now applies (given, read from the binary, or what the store shows). */
  'store.fluentBitVersion': FluentBitVersionInfo;
  /** `layout`: the header fields and the metadata, annotated, for a hex dump. */
  'chunk.inspect': { chunk: ChunkInfo; headerHex: string; layout: ChunkLayoutField[] };
  'chunk.records': RecordPage;
  'config.load': FluentBitConfig;
  'storagePath.open': StoragePathReport;
  'storagePath.configured': { path: string | null };
  'storagePath.salvagePlan': RepairPlan;
  'storagePath.undoPlan': RepairPlan;
  'storagePath.records': RecordPage;
  'storagePath.salvageApply': RepairResult;
  'storagePath.export': { fileName: string; mimeType: string; text: string };
  'evidence.importOffline': S3Evidence;
  'evidence.live': S3Evidence;
  'diagnose.run': Diagnosis;
  'repair.plan': RepairPlan & { replayItems?: ReplayItem[] };
  'repair.apply': RepairResult;
  'repair.import': RepairPlan & { replayItems?: ReplayItem[] };
  'evidence.importFiles': S3Evidence;
  'report.export': { fileName: string; mimeType: string; text: string };
  'task.cancel': { cancelled: boolean };
  'store.refresh': { updates: StoreUpdate[]; rescanned: StoreReport | null };
  'store.processes': {
    processes: { pid: number; command: string; kind: 'fluent-bit' | 'open' | 'cwd'; paths: string[] }[];
    uninspectable: number;
    supported: boolean;
  };
  'guard.start': GuardStatus;
  'guard.stop': GuardStatus;
  'guard.status': GuardStatus;
  'fleet.open': FleetSummary;
  'fleet.prometheus': PromFleet;
  'fleet.prometheusNode': PromNodeSeries;
}

export type RequestResult<N extends RequestName> = RequestResults[N];

/** What a door sends back: never a thrown error across the boundary. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ContractError };

export interface ContractError {
  /** `invalid-input`, `not-found`, `forbidden`, `refused`, `cancelled`, `failed`. */
  code: 'invalid-input' | 'not-found' | 'forbidden' | 'refused' | 'cancelled' | 'failed';
  message: string;
  file?: string;
}

/** Events pushed to clients. */
export interface EventPayloads {
  progress: { taskId: string; request: RequestName; progress: Progress };
  'store.changed': { storeId: string; paths: string[]; at: string };
}
export type EventName = keyof EventPayloads;

/** Validate an untrusted input; the doors call this before the engine. */
export function parseRequest<N extends RequestName>(
  name: string,
  input: unknown,
): { ok: true; request: N; input: z.output<(typeof requestSchemas)[N]> } | { ok: false; error: ContractError } {
  if (!Object.prototype.hasOwnProperty.call(requestSchemas, name)) {
    return { ok: false, error: { code: 'invalid-input', message: `unknown request "${String(name).slice(0, 80)}"` } };
  }
  const schema = requestSchemas[name as N];
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path?.length ? `${first.path.join('.')}: ` : '';
    return { ok: false, error: { code: 'invalid-input', message: `${name}: ${where}${first?.message ?? 'invalid input'}` } };
  }
  return { ok: true, request: name as N, input: parsed.data as z.output<(typeof requestSchemas)[N]> };
}

/** The engine as the doors see it. Implemented by `electron/engine/index.ts` `createEngine()`. */
export interface EngineContext {
  taskId: string;
  signal: AbortSignal;
  onProgress: (p: Progress) => void;
}

export type EngineHandlers = {
  [N in RequestName]: (input: z.output<(typeof requestSchemas)[N]>, ctx: EngineContext) => Promise<RequestResults[N]>;
};

export interface Engine {
  handlers: EngineHandlers;
  /** Subscribe to store-changed events (live watch). Returns an unsubscribe function. */
  onEvent<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /** Roots and store paths the user opened: doors confine paths to these. */
  isPathInOpenedStores(absPath: string): boolean;
  dispose(): Promise<void>;
}
