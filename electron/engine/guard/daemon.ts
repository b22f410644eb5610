/**
 * The guard daemon: keeps every `$INDEX` of a store through Fluent Bit's graceful stops. Every write
 * it makes to the store is a contract request through its host's session (repair.plan
 * restore-index / protect-index → repair.apply: atomic, journalled, refused while a process uses
 * the root). Its own state lives in the shadow folder only (repair/shadow.ts): every index value it
 * sees, never lower, and which values are final (read after Fluent Bit's exit flush).
 *
 * When a graceful stop deletes `sequence/`, it waits until no process uses the root and restores the
 * last value (./restore.ts) — the next start continues from there. It waits for a missing store,
 * and keeps its state across its own restarts. Each root's state is ./root-state.ts; this file runs
 * the effects: watching, keeping values, the request queue. Hosted by `store-doctor guard` (the
 * CLI: flags, signals, the metrics endpoint) and by the app's session (guard.* requests).
 */
import * as path from 'node:path';
import type { FluentBitConfig, StoreReport } from '../../../shared/model';
import type { RequestInput, RequestName, RequestResult } from '../../../shared/contract';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { ensureShadowStateDir, readShadow, recordValue, shadowRootOf, shadowDirFor, finalValues } from '../repair';
import { SeqWatcher, type SeqEvent } from './seq-watch';
import { TreeWatcher } from './tree-watch';
import { writtenByRepair, type RepairWritten } from './repair-written';
import { learnUsers, noUsers, type UsersContext } from './users';
import { guardStateOf } from './root-state';
import { GuardedRoot } from './guarded-root';
import { checkRootFolder, indexOutputsByBucket, isDir, rootFactsOf, sleep, streamFolderOf } from './root-check';
import { protectRoot, restoreRoot } from './restore';
import type { GuardCall } from './call';
import type { GuardState } from '../../../shared/fleet';

export interface GuardOptions {
  /** The store folder (opened by the guard with store.open, once it exists). */
  store: string;
  /** The Fluent Bit config file (loaded with config.load). Not needed with `storeId`. */
  config?: string;
  /** A store its host already opened (with its config loaded): the guard neither waits nor opens. */
  storeId?: string;
  stateDir: string;
  /** Also keep a marker chunk in sequence/ where it is safe. */
  marker?: boolean;
  pollMs?: number;
  refreshDebounceMs?: number;
  /** First wait before a restore is tried again (doubles per attempt, up to 30 s). Default 25 ms. */
  retryMs?: number;
  /**
   * Rescan the store before each restore or marker plan: for a session whose live watch refuses
   * writes after any change it has not scanned (the app's), where the deletion being restored is
   * such a change. The CLI's session has no live watch.
   */
  rescanBeforeWrite?: boolean;
  /** Log every session request with its duration. */
  trace?: boolean;
  log: (line: string) => void;
}

/** What the guard needs of its door: a session to send contract requests to, disposed at stop when it is the guard's own. */
export interface GuardHost {
  call: GuardCall;
  dispose?: () => Promise<void>;
}

export class Guard {
  readonly startedAt = new Date().toISOString();
  private life: 'waiting-for-store' | 'open' | 'stopped' = 'waiting-for-store';
  messages: string[] = [];
  storeId: string | null = null;
  /** The session's report as the guard's requests returned it (kept in `request`, the one place). */
  report: StoreReport | null = null;
  config: FluentBitConfig | null = null;
  lastScanSeconds: number | null = null;
  readonly roots = new Map<string, GuardedRoot>();
  restores = 0;
  lastRestoreAt: string | null = null;
  lastRestoreLatencyMs: number | null = null;
  /** Every deletion → restored latency (ms), for the benchmark. */
  readonly latencies: number[] = [];
  private seq: SeqWatcher;
  private tree: TreeWatcher;
  private chain: Promise<unknown> = Promise.resolve();
  stopped = false;
  private listeners: (() => void)[] = [];

  constructor(
    readonly opts: GuardOptions,
    private readonly host: GuardHost,
  ) {
    this.seq = new SeqWatcher((e) => this.onSeq(e), { pollMs: opts.pollMs ?? 1000 });
    this.tree = new TreeWatcher((paths) => void this.serial(() => this.refresh(paths)).catch((err: Error) => this.note(`refresh failed: ${err.message}`)), {
      debounceMs: opts.refreshDebounceMs ?? 5000,
      pollMs: (opts.pollMs ?? 1000) * 5,
    });
  }

  /** The guard's state, derived from its roots' states (root-state.ts guardStateOf). */
  get state(): GuardState {
    return guardStateOf(this.life, this.roots.values()).state;
  }

  /** Why the state is what it is when that is not plain (refused: each root's reason). */
  get stateReason(): string | null {
    return guardStateOf(this.life, this.roots.values()).reason;
  }

  /** Called after anything the report shows changed. */
  onChange(fn: () => void): () => void {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((l) => l !== fn));
  }

  changed(): void {
    for (const l of this.listeners) l();
  }

  note(line: string): void {
    this.opts.log(line);
    this.messages = [...this.messages.slice(-49), `${new Date().toISOString()} ${line}`];
  }

  /** One request, not queued (already in the queue, or needing no order); what it returns about the store goes into `report` here. */
  private async request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestResult<N>> {
    const t0 = Date.now();
    try {
      const value = await this.host.call(name, input);
      if (name === 'store.open' || name === 'store.rescan') this.report = (value as RequestResult<'store.open'>).report;
      if (name === 'store.refresh') {
        const r = value as RequestResult<'store.refresh'>;
        this.report = r.rescanned ?? (this.report && mergeStoreUpdate(this.report, r.updates));
      }
      if (name === 'repair.apply') {
        const u = (value as RequestResult<'repair.apply'>).storeUpdate;
        if (u && this.report) this.report = mergeStoreUpdate(this.report, u);
      }
      return value;
    } finally {
      if (this.opts.trace) this.opts.log(`trace: ${name} ${Date.now() - t0} ms`);
    }
  }

  /** A session request, one at a time with every other (the watchers fire from anywhere). */
  call: GuardCall = (name, input) => this.serial(() => this.request(name, input));

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  async start(): Promise<void> {
    await ensureShadowStateDir(this.opts.stateDir);
    const store = path.resolve(this.opts.store);
    let waited = false;
    while (!this.opts.storeId && !this.stopped && !(await isDir(store))) {
      if (!waited) this.note(`waiting for the store ${store} (it does not exist yet)`);
      waited = true;
      await sleep(this.opts.pollMs ?? 1000);
    }
    if (this.stopped) return;
    await this.open(store);
  }

  private async openStore(store: string): Promise<{ storeId: string; report: StoreReport; config: FluentBitConfig }> {
    if (this.opts.storeId) {
      const opened = (await this.call('store.list', {})).stores.find((s) => s.storeId === this.opts.storeId);
      if (!opened?.config) throw new Error('load the Fluent Bit config first: the guard guards the index of every $INDEX output of the config');
      this.report = opened.report;
      return { storeId: opened.storeId, report: opened.report, config: opened.config };
    }
    if (!this.opts.config) throw new Error('the guard needs the Fluent Bit config');
    const t0 = Date.now();
    const opened = await this.call('store.open', { path: store });
    this.lastScanSeconds = (Date.now() - t0) / 1000;
    const config = await this.call('config.load', { storeId: opened.storeId, path: path.resolve(this.opts.config) });
    return { storeId: opened.storeId, report: opened.report, config };
  }

  private async open(store: string): Promise<void> {
    const opened = await this.openStore(store);
    this.storeId = opened.storeId;
    this.config = opened.config;
    const byBucket = indexOutputsByBucket(this.config);
    if (!byBucket.size) this.note('the config has no S3 output with $INDEX in s3_key_format: nothing to guard (metrics only)');
    const single = opened.report.source.kind === 'root';
    for (const [bucket, outputs] of byBucket) {
      const rootPath = single && path.basename(store) === bucket ? store : path.join(store, bucket);
      const shadowDir = shadowDirFor(this.opts.stateDir, bucket);
      const sh = await readShadow(shadowDir);
      const w = new GuardedRoot(bucket, rootPath, shadowDir, outputs, sh.values, await finalValues(sh, rootPath));
      this.roots.set(rootPath, w);
      await this.rootStillOurs(w); // the root's device and inode, fixed from now on
      for (const p of sh.problems) this.note(`state folder: ${p}`);
      if (this.stopped) return; // stopped while it opened: no watch is started
      this.seq.add(rootPath);
      this.tree.add(rootPath);
      // Checked after the first read: when no process uses the root, the values on disk are final.
      const idle = await this.noProcesses(w);
      w.send({ kind: 'checked', idle });
      if (!idle) this.seq.hold(rootPath);
      else
        for (const [id, v] of rootFactsOf(this.report, rootPath))
          if (v !== null && w.outputs.some((o) => o.id === id)) await this.keep(w, id, v, true, 'no process uses the root');
      this.note(
        `guarding ${rootPath} (${outputs.map((o) => `seq_index_${o.id}`).join(', ')}; state ${shadowDir}${[...w.guarded].map(([id, g]) => `, seq_index_${id}=${g.value}${g.final ? ' final' : ''}`).join('')})`,
      );
    }
    if (this.stopped) return;
    this.life = 'open';
    this.changed();
    if (this.opts.marker)
      for (const w of this.roots.values())
        if (w.phase.kind === 'watching' && w.phase.idle && this.sequencePresent(w))
          await protectRoot(this, w).catch((err: Error) => this.note(`marker: ${err.message}`));
    for (const w of this.roots.values())
      if (!this.sequencePresent(w)) this.deleted(w, null);
      else void this.warm(w);
  }

  /**
   * Plan a restore once, never applied: the first plan on a store walks every chunk (the
   * diagnosis and the basis keep their work per stream from then on), and that first walk
   * should not be paid between a graceful stop and the restore — 150 ms on 100k chunks.
   */
  private async warm(w: GuardedRoot): Promise<void> {
    const o = w.outputs[0];
    await this.call('repair.plan', { storeId: this.storeId!, action: 'restore-index', outputId: o.id, shadowDir: w.shadowDir }).catch(() => undefined);
  }

  /**
   * The root is still the folder the guard started on (device and inode), or absent. Else it was
   * replaced — by a symbolic link or another folder — and nothing is written there: logged once,
   * counted in store_doctor_root_replaced, and the output is reported at risk. A restart of the
   * guard adopts the new folder, once someone has looked at it.
   */
  async rootStillOurs(w: GuardedRoot): Promise<boolean> {
    const id = await checkRootFolder(w);
    if (id === 'ok' || id === 'absent') return w.replaced === null;
    const problem = `${id}: the guard writes nothing there (restart it to guard the new folder)`;
    if (w.replaced !== problem) this.note(`ROOT REPLACED: ${problem}`);
    w.send({ kind: 'replaced', why: problem });
    this.changed();
    return false;
  }

  /** Per root: replaced since the guard started (store_doctor_root_replaced). */
  rootsReplaced(): { bucket: string; replaced: boolean }[] {
    return [...this.roots.values()].map((w) => ({ bucket: w.bucket, replaced: w.replaced !== null }));
  }

  /** The root is on disk and in the session's report (a root that appeared since is rescanned in). */
  async rootKnown(w: GuardedRoot): Promise<boolean> {
    if (!(await isDir(w.rootPath))) return false;
    if (!this.report?.roots.some((r) => r.path === w.rootPath)) await this.call('store.refresh', { storeId: this.storeId!, paths: [w.rootPath] });
    return !!this.report?.roots.some((r) => r.path === w.rootPath);
  }

  private sequencePresent(w: GuardedRoot): boolean {
    return w.outputs.every((o) => this.report?.roots.find((r) => r.path === w.rootPath)?.seqIndex.some((s) => s.outputId === o.id && s.value !== null));
  }

  private async noProcesses(w: GuardedRoot): Promise<boolean> {
    if (!this.storeId || !this.report?.roots.some((r) => r.path === w.rootPath)) return true;
    return noUsers(this.users(), w);
  }

  users(): UsersContext {
    return { call: this.call, storeId: this.storeId!, note: (l) => this.note(l) };
  }

  private onSeq(e: SeqEvent): void {
    const w = this.roots.get(e.rootPath);
    if (!w || this.stopped) return;
    if (e.kind === 'activity') return;
    if (e.kind === 'value') {
      this.tree.touch(path.join(w.rootPath, 'sequence', 'index_metadata', `seq_index_${e.id}`));
      if (!w.outputs.some((o) => o.id === e.id)) return;
      // A value read while Fluent Bit may run is not final (its exit flush uses more) — unless
      // repair-index wrote it (its journal says so) and no process uses the root.
      void this.keepRead(w, e.id, e.value);
      // our own restore read back tells nothing about Fluent Bit: learn at its first write
      if (w.ownWrites.get(e.id) === e.value) return;
      w.ownWrites.delete(e.id);
      w.send({ kind: 'written' });
      if (!w.restoring) this.learnPids(w);
      return;
    }
    // sequence/ (or a file) deleted: the held descriptors read the exit flush's last values.
    // The folder going after its file brings nothing new to a restore already under way.
    if (w.restoring && !e.values.length) return;
    for (const v of e.values) {
      if (v.value !== null && v.held) void this.keep(w, v.id, v.value, true, 'read after the deletion');
      else if (w.outputs.some((o) => o.id === v.id))
        this.note(`seq_index_${v.id} of ${w.bucket} deleted; its last value was not held (the guard's value is final only if recorded so before)`);
    }
    this.tree.touch(path.join(w.rootPath, 'sequence'));
    if (!w.restoring) this.note(`sequence/ of ${w.rootPath} deleted (a graceful stop?): restoring once no process uses the root`);
    this.deleted(w, e.at);
  }

  /** sequence/ is gone (at: when it was seen; null: found missing at start): a restore starts, or the one under way goes round again. */
  private deleted(w: GuardedRoot, at: number | null): void {
    if (this.stopped || !this.storeId) return;
    const running = w.restoring;
    w.send({ kind: 'deleted', at });
    this.changed();
    if (!running && w.restoring) void restoreRoot(this, w).finally(() => this.changed());
  }

  /** Learn (once per run of Fluent Bit: after a restore, at its first write that finds it) which Fluent Bit uses the root. */
  private learnPids(w: GuardedRoot): void {
    if (w.users.kind !== 'unknown' || w.restoring || !this.storeId || !this.report?.roots.some((r) => r.path === w.rootPath)) return;
    learnUsers(this.users(), w);
  }

  /** Keep a value read from the index file: final when the tool's own repair wrote it on covering evidence (./repair-written.ts) and no process uses the root. */
  private async keepRead(w: GuardedRoot, id: number, value: number): Promise<void> {
    const r = await writtenByRepair(w.rootPath, id, value).catch((): RepairWritten => ({ final: false }));
    const final = r.final && (await noUsers(this.users(), w));
    if (r.why) this.note(`seq_index_${id} of ${w.bucket}: ${value} ${r.why}`);
    await this.keep(w, id, value, final, final ? 'written by repair-index on covering bucket evidence, in its journal; no process uses the root' : 'read');
  }

  /** Keep a value in the shadow folder — in the request queue, so a restore planned after it sees it. */
  keep(w: GuardedRoot, id: number, value: number, final: boolean, how: string): Promise<void> {
    return this.serial(() => this.keepNow(w, id, value, final, how));
  }

  private async keepNow(w: GuardedRoot, id: number, value: number, final: boolean, how: string): Promise<void> {
    if (!(await this.rootStillOurs(w))) return; // a value read in another folder is not this root's
    return recordValue(w.shadowDir, { rootPath: w.rootPath }, id, value, final).then(
      async (r) => {
        const before = w.guarded.get(id);
        w.guarded.set(id, { value: r.value, final: r.final });
        if (r.raised || (r.final && !before?.final)) {
          // root.json gets the device and inode too (a bind mount elsewhere is the same root)
          if (r.raised && !before) await recordValue(w.shadowDir, await shadowRootOf(w.rootPath), id, r.value, r.final);
          this.note(`seq_index_${id} of ${w.bucket}: kept ${r.value}${r.final ? ' (final)' : ''} (${how})`);
        }
        this.changed();
      },
      (err: Error) => this.note(`could not keep seq_index_${id}=${value} in ${w.shadowDir}: ${err.message}`),
    );
  }

  private async refresh(changed: string[]): Promise<void> {
    if (!this.storeId || !this.report) return;
    // A flood of changes (a backlog being sent): re-list the stream folders instead of naming every file.
    const paths = changed.length > 2000 ? [...new Set(changed.map((p) => streamFolderOf(p, [...this.roots.keys()])))] : changed;
    await this.request('store.refresh', { storeId: this.storeId, paths }); // already in the queue
    this.changed();
  }

  /** Before a plan that writes: the session's report made current where its host asks for it (rescanBeforeWrite). */
  async beforeWrite(): Promise<void> {
    if (this.opts.rescanBeforeWrite && this.storeId) await this.call('store.rescan', { storeId: this.storeId });
  }

  /** The restore of `w` ended: watched from now on (what it restored, too). */
  restoreEnded(w: GuardedRoot): void {
    this.seq.release(w.rootPath);
    this.seq.check(w.rootPath);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.life = 'stopped';
    this.seq.close();
    this.tree.close();
    for (const w of this.roots.values()) w.wake?.();
    await this.chain.catch(() => undefined);
    await this.host.dispose?.();
  }
}
