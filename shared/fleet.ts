/**
 * Fleet reports: the guard's `/report.json` (one node) and the summary of a folder of them
 * (`store-doctor fleet`, the app's Fleet view). The one parser both use — a report.json file is
 * input from hundreds of machines, so it is validated field by field and bounded. Isomorphic.
 */
import { z } from 'zod';
import { crossNodeCollisions, reportKeyIdentities, type NodeCollision } from './fleet-collisions';

export const NODE_REPORT_SCHEMA = 'store-doctor/node-report@1';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const index = count.nullable();
const text = (max = 2000) => z.string().max(max);
const iso = z.string().datetime({ offset: true });

export const STREAM_KINDS = ['current', 'old', 'multipart', 'quarantine'] as const;
export type BacklogKind = (typeof STREAM_KINDS)[number];

export const GUARD_STATES = ['watching', 'waiting-for-store', 'restoring', 'refused', 'stopped', 'error'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

const backlogSchema = z
  .object({
    kind: z.enum(STREAM_KINDS),
    chunks: count,
    bytes: count,
    /** Age of the oldest chunk's first record (else its mtime), seconds; null with no chunk. */
    oldestAgeSeconds: z.number().min(0).max(1e12).nullable(),
  })
  .strict();

const outputSchema = z
  .object({
    id: count,
    displayName: text(200),
    bucket: text(255),
    rootPath: text(4096),
    /** The next index as Fluent Bit would read it from its file; null when the file is missing or unreadable. */
    persistedIndex: index,
    /** The highest value the guard has kept in its state. */
    guardedIndex: index,
    guardedFinal: z.boolean(),
    restores: count,
    lastRestoreAt: iso.nullable(),
    /** A marker chunk keeps `sequence/` through graceful stops. */
    sequenceProtected: z.boolean(),
    sequencePresent: z.boolean(),
    /** Why this output is at risk of overwriting objects, one sentence each (empty: none seen). */
    risks: z.array(text()).max(20),
    /** s3_key_format, endpoint (null: AWS) and whether the format renders node-unique keys (absent in reports before 0.2). */
    keyFormat: text(1024).optional(),
    endpoint: text(1024).nullable().optional(),
    keyNodeUnique: z.boolean().optional(),
  })
  .strict();

const rootSchema = z
  .object({
    bucket: text(255),
    rootPath: text(4096),
    present: z.boolean(),
    backlog: z.array(backlogSchema).max(STREAM_KINDS.length),
    quarantineChunks: count,
    damagedChunks: count,
  })
  .strict();

export const nodeReportSchema = z
  .object({
    schema: z.literal(NODE_REPORT_SCHEMA),
    node: text(253).min(1),
    generatedAt: iso,
    version: text(50),
    storePath: text(4096),
    guard: z
      .object({
        state: z.enum(GUARD_STATES),
        /** Why (refused: each root's reason); absent in reports before 0.2. */
        stateReason: text().nullable().optional(),
        startedAt: iso,
        stateDir: text(4096),
        restores: count,
        lastRestoreAt: iso.nullable(),
        /** Last deletion → restored file on disk, milliseconds. */
        lastRestoreLatencyMs: z.number().min(0).max(1e9).nullable(),
        messages: z.array(text()).max(50),
      })
      .strict(),
    lastScanSeconds: z.number().min(0).max(1e9).nullable(),
    roots: z.array(rootSchema).max(1000),
    outputs: z.array(outputSchema).max(1000),
  })
  .strict();

export type NodeReport = z.infer<typeof nodeReportSchema>;
export type NodeOutputReport = z.infer<typeof outputSchema>;
export type NodeRootReport = z.infer<typeof rootSchema>;

/** A report.json larger than this is not read (a node's report is a few KB). */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;
/**
 * At most this many bytes of reports are read from one fleet folder (a node's report is a few KB:
 * 32 MiB is thousands of nodes); the files after it are named as not read. Keeps `fleet` and the
 * Fleet view within a few hundred MB whatever the folder holds.
 */
export const MAX_FLEET_BYTES = 32 * 1024 * 1024;
/** At most this many reports in one fleet folder. */
export const MAX_FLEET_REPORTS = 10_000;

export type ParsedReport = { ok: true; report: NodeReport } | { ok: false; error: string };

/** Parse one report.json's text; the error names the problem (the caller names the file). */
export function parseNodeReport(textIn: string): ParsedReport {
  let raw: unknown;
  try {
    raw = JSON.parse(textIn);
  } catch (err) {
    return { ok: false, error: `not JSON (${(err as Error).message.slice(0, 120)})` };
  }
  const r = nodeReportSchema.safeParse(raw);
  if (r.success) return { ok: true, report: r.data };
  const first = r.error.issues[0];
  return { ok: false, error: `not a Store Doctor node report: ${first?.path.join('.') || '(top)'}: ${first?.message ?? 'invalid'}` };
}

export interface FleetNode {
  /** The file it was read from (name within the folder). */
  file: string;
  node: string;
  generatedAt: string;
  guardState: GuardState;
  outputs: number;
  outputsAtRisk: number;
  risks: string[];
  backlogChunks: number;
  backlogBytes: number;
  oldestBacklogSeconds: number | null;
  quarantineChunks: number;
  damagedChunks: number;
  restores: number;
  report: NodeReport;
}

export interface FleetSummary {
  folder: string;
  nodes: FleetNode[];
  /** Files that were not node reports, with why. */
  skipped: { file: string; error: string }[];
  /** COLLISION_ACROSS_NODES: nodes whose keys overwrite each other's. */
  collisions: NodeCollision[];
  totals: {
    nodes: number;
    nodesAtRisk: number;
    outputsAtRisk: number;
    backlogChunks: number;
    backlogBytes: number;
    quarantineChunks: number;
    damagedChunks: number;
  };
}

export function fleetNode(file: string, report: NodeReport): FleetNode {
  const at = report.outputs.filter((o) => o.risks.length);
  const backlog = report.roots.flatMap((r) => r.backlog);
  const ages = backlog.map((b) => b.oldestAgeSeconds).filter((a): a is number => a !== null);
  return {
    file,
    node: report.node,
    generatedAt: report.generatedAt,
    guardState: report.guard.state,
    outputs: report.outputs.length,
    outputsAtRisk: at.length,
    risks: at.flatMap((o) => o.risks.map((r) => `${o.displayName}: ${r}`)),
    backlogChunks: backlog.reduce((n, b) => n + b.chunks, 0),
    backlogBytes: backlog.reduce((n, b) => n + b.bytes, 0),
    oldestBacklogSeconds: ages.length ? Math.max(...ages) : null,
    quarantineChunks: report.roots.reduce((n, r) => n + r.quarantineChunks, 0),
    damagedChunks: report.roots.reduce((n, r) => n + r.damagedChunks, 0),
    restores: report.guard.restores,
    report,
  };
}

/** Nodes most at risk first: outputs at risk, then damaged, quarantine, backlog age, name. */
export function summarizeFleet(folder: string, reports: { file: string; report: NodeReport }[], skipped: FleetSummary['skipped']): FleetSummary {
  const nodes = reports.map((r) => fleetNode(r.file, r.report));
  nodes.sort(
    (a, b) =>
      b.outputsAtRisk - a.outputsAtRisk ||
      b.damagedChunks - a.damagedChunks ||
      b.quarantineChunks - a.quarantineChunks ||
      (b.oldestBacklogSeconds ?? -1) - (a.oldestBacklogSeconds ?? -1) ||
      (a.node < b.node ? -1 : a.node > b.node ? 1 : 0),
  );
  const sum = (f: (n: FleetNode) => number) => nodes.reduce((s, n) => s + f(n), 0);
  return {
    folder,
    nodes,
    skipped,
    collisions: crossNodeCollisions(reports.flatMap((r) => reportKeyIdentities(r.report))),
    totals: {
      nodes: nodes.length,
      nodesAtRisk: nodes.filter((n) => n.outputsAtRisk > 0).length,
      outputsAtRisk: sum((n) => n.outputsAtRisk),
      backlogChunks: sum((n) => n.backlogChunks),
      backlogBytes: sum((n) => n.backlogBytes),
      quarantineChunks: sum((n) => n.quarantineChunks),
      damagedChunks: sum((n) => n.damagedChunks),
    },
  };
}
