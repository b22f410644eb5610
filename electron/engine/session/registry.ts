/**
 * The session's opened stores: storeId → path, scan report, Fluent Bit config, S3 evidence per
 * output, last diagnosis, and live-watch state. Also the confinement set the doors check paths
 * against. One registry per engine.
 */
import { randomBytes } from 'node:crypto';
import type { OpenedStore } from '../../../shared/contract';
import type { Diagnosis, FluentBitConfig, FluentBitVersionGiven, S3Evidence, StoreReport } from '../../../shared/model';
import type { OfflineDocument } from '../s3';
import { Confinement, realPathOf } from './confine';
import { EngineError } from './errors';

export interface StoreSession {
  storeId: string;
  /** Absolute path as opened (directory or archive). */
  path: string;
  realPath: string;
  isDemo: boolean;
  openedAt: number;
  report: StoreReport;
  config: FluentBitConfig | null;
  /** The Fluent Bit version set with `store.fluentBitVersion` (given, or read from a binary); null: infer from the store. */
  fluentBit: FluentBitVersionGiven | null;
  /** Evidence not tied to one output (offline import without outputId). */
  evidence: S3Evidence | null;
  evidenceByOutput: Map<number, S3Evidence>;
  diagnosis: Diagnosis | null;
  /** Live watch: set when files changed after the last scan; writes are refused until a rescan. */
  changedSinceScan: boolean;
  lastChangeAt: string | null;
  /** While a repair writes (and shortly after), changes to these paths are our own. */
  ownWrites: { paths: Set<string>; until: number } | null;
  /**
   * Paths the tool's own writes removed (replayed chunks moved out, records deleted): a change
   * reported for one of them while it is still gone is ours, however late the watch reports it.
   */
  ownGone: Set<string>;
  stopWatch: (() => Promise<void> | void) | null;
  /** Offline documents imported so far, per output id (-1: not tied to one), so a later import can add to them. */
  offlineDocs: Map<number, OfflineDocument[]>;
  /** Removes what the session made for this store (the temp folder of a demo copy) when it is closed. */
  cleanup: (() => void) | null;
  /** The tool's own last write per bucket (replay, multipart, recover-versions): evidence listed before it is stale. */
  bucketWrites: Record<string, { at: string; action: string }>;
  /** Evidence older than this is stale (`store.open` `evidenceMaxAgeMinutes`); null: no age limit. */
  evidenceMaxAgeMs: number | null;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, StoreSession>();
  readonly confinement = new Confinement();

  get(storeId: string): StoreSession {
    const s = this.sessions.get(storeId);
    if (!s) throw new EngineError('not-found', `no open store with id "${storeId.slice(0, 80)}" (it was closed, or the app restarted): open it again`);
    return s;
  }

  findByPath(p: string): StoreSession | undefined {
    const real = realPathOf(p);
    for (const s of this.sessions.values()) if (s.realPath === real) return s;
    return undefined;
  }

  add(init: { path: string; report: StoreReport; isDemo?: boolean }): StoreSession {
    const session: StoreSession = {
      storeId: `store-${randomBytes(6).toString('hex')}`,
      path: init.path,
      realPath: realPathOf(init.path) ?? init.path,
      isDemo: !!init.isDemo,
      openedAt: Date.now(),
      report: init.report,
      config: null,
      fluentBit: null,
      evidence: null,
      evidenceByOutput: new Map(),
      diagnosis: null,
      changedSinceScan: false,
      lastChangeAt: null,
      ownWrites: null,
      ownGone: new Set(),
      stopWatch: null,
      offlineDocs: new Map(),
      cleanup: null,
      bucketWrites: {},
      evidenceMaxAgeMs: null,
    };
    this.sessions.set(session.storeId, session);
    this.confinement.add(init.path);
    return session;
  }

  async remove(storeId: string): Promise<boolean> {
    const s = this.sessions.get(storeId);
    if (!s) return false;
    this.sessions.delete(storeId);
    this.confinement.remove(s.path);
    await s.stopWatch?.();
    s.cleanup?.();
    return true;
  }

  /** Most recently opened first. */
  list(): StoreSession[] {
    return [...this.sessions.values()].sort((a, b) => b.openedAt - a.openedAt);
  }

  async clear(): Promise<void> {
    for (const id of [...this.sessions.keys()]) await this.remove(id);
  }
}

/** The evidence to show/diagnose with for an output (its own, else the session-wide one). */
export function evidenceFor(s: StoreSession, outputId?: number): S3Evidence | null {
  if (outputId !== undefined && s.evidenceByOutput.has(outputId)) return s.evidenceByOutput.get(outputId)!;
  if (s.evidence) return s.evidence;
  if (s.evidenceByOutput.size === 1) return [...s.evidenceByOutput.values()][0];
  return null;
}

export function toOpened(s: StoreSession): OpenedStore {
  return { storeId: s.storeId, report: s.report, config: s.config, evidence: evidenceFor(s), ...(s.isDemo ? { isDemo: true } : {}) };
}

/** `o` without its chunk rows, summarised per stream (`store.list { rows: false }`). */
export function withoutRows(o: OpenedStore): OpenedStore {
  const rowsOmitted = o.report.roots.map((r) =>
    r.streams.map((s) => {
      const actions = new Map<string, number>();
      for (const c of s.chunks) actions.set(c.fluentBitAction, (actions.get(c.fluentBitAction) ?? 0) + 1);
      return { chunks: s.chunks.length, actions: [...actions] };
    }),
  );
  const roots = o.report.roots.map((r) => ({ ...r, streams: r.streams.map((s) => ({ ...s, chunks: [] })) }));
  return { ...o, report: { ...o.report, roots }, rowsOmitted };
}

/** The root of this store that `rootPath` names, or a `forbidden` error. */
export function requireRoot(s: StoreSession, rootPath: string) {
  const root = s.report.roots.find((r) => r.path === rootPath);
  if (!root) throw new EngineError('forbidden', `${rootPath.slice(0, 300)} is not a bucket root of the opened store ${s.path}`, rootPath);
  return root;
}
