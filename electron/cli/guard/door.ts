/**
 * `store-doctor guard`: a long-running door next to Fluent Bit. One engine session (the CLI's,
 * ../session.ts) for its whole life; every write it makes to the store is a contract request
 * through the one pipeline (repair.plan restore-index / protect-index → repair.apply), so it is
 * atomic, journalled and refused while a process uses the root. Its own state lives in the state
 * folder only (engine/guard/shadow.ts): every index value it sees, never lower, and which values
 * are final (read after Fluent Bit's exit flush).
 *
 * When a graceful stop deletes `sequence/`, it waits until no process uses the root and restores
 * the last value — the next start continues from there. It waits for a missing store, and keeps
 * its state across its own restarts.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { OpenedStore } from '../../../shared/contract';
import type { FluentBitConfig, RepairPlan, StoreReport } from '../../../shared/model';
import { mergeStoreUpdate } from '../../../shared/store-update';
import { readShadow, recordValue, shadowRootOf, shadowDirFor, finalValues } from '../../engine/guard';
import { SeqWatcher, type SeqEvent } from '../../engine/guard/seq-watch';
import { TreeWatcher } from '../../engine/guard/tree-watch';
import { writtenByRepair, type RepairWritten } from '../../engine/guard/repair-written';
import { CliSession } from '../session';
import { learnUsers, noUsers, waitForLearnt, waitForUsers, type UsersContext } from './users';
import type { GuardState } from '../../../shared/fleet';
import {
  indexOnDisk,
  checkRootIdentity,
  indexOutputsByBucket,
  isDir,
  newRootWatch,
  rootFactsOf,
  sleep,
  streamOf,
  waitOrWake,
  type GuardOptions,
  type RootWatch,
} from './root-watch';

export type { GuardOptions, OutputWatch, RootWatch } from './root-watch';

/** The first wait before planning a refused restore again (doubled each time, up to 30 s). */
const RETRY_MS = 25;

export class Guard {
  readonly session = new CliSession();
  readonly startedAt = new Date().toISOString();
  state: GuardState = 'waiting-for-store';
  /** Why the state is what it is when that is not plain (refused: each root's reason). */
  stateReason: string | null = null;
  messages: string[] = [];
  storeId: string | null = null;
  report: StoreReport | null = null;
  config: FluentBitConfig | null = null;
  lastScanSeconds: number | null = null;
  roots = new Map<string, RootWatch>();
  restores = 0;
  lastRestoreAt: string | null = null;
  lastRestoreLatencyMs: number | null = null;
  /** Every deletion → restored latency (ms), for the benchmark. */
  readonly latencies: number[] = [];
  private seq: SeqWatcher;
  private tree: TreeWatcher;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private changed = () => undefined as void;

  constructor(readonly opts: GuardOptions) {
    this.seq = new SeqWatcher((e) => this.onSeq(e), { pollMs: opts.pollMs ?? 1000 });
    this.tree = new TreeWatcher((paths) => void this.serial(() => this.refresh(paths)).catch((err: Error) => this.note(`refresh failed: ${err.message}`)), {
      debounceMs: opts.refreshDebounceMs ?? 5000,
      pollMs: (opts.pollMs ?? 1000) * 5,
    });
  }

  /** Called after anything the report shows changed. */
  onChange(fn: () => void): void {
    this.changed = fn;
  }

  private note(line: string): void {
    this.opts.log(line);
    this.messages = [...this.messages.slice(-49), `${new Date().toISOString()} ${line}`];
  }

  /** A session request, one at a time with every other (the watchers fire from anywhere). */
  private call: CliSession['call'] = (name, input) =>
    this.serial(async () => {
      const t0 = Date.now();
      try {
        return await this.session.call(name, input);
      } finally {
        if (this.opts.trace) this.opts.log(`trace: ${name} ${Date.now() - t0} ms`);
      }
    });

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  async start(): Promise<void> {
    await fsp.mkdir(this.opts.stateDir, { recursive: true, mode: 0o700 });
    const store = path.resolve(this.opts.store);
    let waited = false;
    while (!this.stopped && !(await isDir(store))) {
      if (!waited) this.note(`waiting for the store ${store} (it does not exist yet)`);
      waited = true;
      this.state = 'waiting-for-store';
      await sleep(this.opts.pollMs ?? 1000);
    }
    if (this.stopped) return;
    await this.open(store);
  }

  private async open(store: string): Promise<void> {
    const t0 = Date.now();
    const opened: OpenedStore = await this.call('store.open', { path: store });
    this.lastScanSeconds = (Date.now() - t0) / 1000;
    this.storeId = opened.storeId;
    this.report = opened.report;
    this.config = await this.call('config.load', { storeId: opened.storeId, path: path.resolve(this.opts.config) });
    const byBucket = indexOutputsByBucket(this.config);
    if (!byBucket.size) this.note('the config has no S3 output with $INDEX in s3_key_format: nothing to guard (metrics only)');
    const single = opened.report.source.kind === 'root';
    for (const [bucket, outputs] of byBucket) {
      const rootPath = single && path.basename(store) === bucket ? store : path.join(store, bucket);
      const shadowDir = shadowDirFor(this.opts.stateDir, bucket);
      const sh = await readShadow(shadowDir);
      const finals = await finalValues(sh, rootPath);
      const w = newRootWatch({ bucket, rootPath, shadowDir, outputs }, sh.values, finals);
      this.roots.set(rootPath, w);
      const id = await checkRootIdentity(w); // the root's device and inode, fixed from now on
      if (id !== 'ok' && id !== 'absent') this.rootReplaced(w, id);
      for (const p of sh.problems) this.note(`state folder: ${p}`);
      this.seq.add(rootPath);
      this.tree.add(rootPath);
      // Checked after the first read: when no process uses the root, the values on disk are final.
      w.idle = await this.noProcesses(w);
      if (!w.idle) this.seq.hold(rootPath);
      else
        for (const [id, v] of rootFactsOf(this.report, rootPath))
          if (v !== null && w.outputs.some((o) => o.id === id)) await this.keep(w, id, v, true, 'no process uses the root');
      this.note(
        `guarding ${rootPath} (${outputs.map((o) => `seq_index_${o.id}`).join(', ')}; state ${shadowDir}${[...w.guarded].map(([id, g]) => `, seq_index_${id}=${g.value}${g.final ? ' final' : ''}`).join('')})`,
      );
    }
    this.state = 'watching';
    this.changed();
    if (this.opts.marker)
      for (const w of this.roots.values())
        if (w.idle && !w.replaced && this.sequencePresent(w)) await this.protect(w).catch((err: Error) => this.note(`marker: ${err.message}`));
    for (const w of this.roots.values())
      if (!this.sequencePresent(w)) void this.restore(w);
      else void this.warm(w);
  }

  /**
   * Plan a restore once, never applied: the first plan on a store walks every chunk (the
   * diagnosis and the basis keep their work per stream from then on), and that first walk
   * should not be paid between a graceful stop and the restore — 150 ms on 100k chunks.
   */
  private async warm(w: RootWatch): Promise<void> {
    const o = w.outputs[0];
    await this.call('repair.plan', { storeId: this.storeId!, action: 'restore-index', outputId: o.id, shadowDir: w.shadowDir }).catch(() => undefined);
  }

  /**
   * The root is still the folder the guard started on (device and inode), or absent. Else it was
   * replaced — by a symbolic link or another folder — and nothing is written there: logged once,
   * counted in store_doctor_root_replaced, and the output is reported at risk. A restart of the
   * guard adopts the new folder, once someone has looked at it.
   */
  private async rootStillOurs(w: RootWatch): Promise<boolean> {
    const id = await checkRootIdentity(w);
    if (id === 'ok' || id === 'absent') return true;
    this.rootReplaced(w, id);
    return false;
  }

  /** Per root: replaced since the guard started (store_doctor_root_replaced). */
  rootsReplaced(): { bucket: string; replaced: boolean }[] {
    return [...this.roots.values()].map((w) => ({ bucket: w.bucket, replaced: w.replaced !== null }));
  }

  private rootReplaced(w: RootWatch, why: string): void {
    const problem = `${why}: the guard writes nothing there (restart it to guard the new folder)`;
    if (w.replaced !== why) this.note(`ROOT REPLACED: ${problem}`);
    w.replaced = why;
    w.problem = problem;
    this.changed();
  }

  /** The root is on disk and in the session's report (a root that appeared since is rescanned in). */
  private async rootKnown(w: RootWatch): Promise<boolean> {
    if (!(await isDir(w.rootPath))) return false;
    if (!this.report?.roots.some((r) => r.path === w.rootPath))
      await this.call('store.refresh', { storeId: this.storeId!, paths: [w.rootPath] }).then((r) => {
        this.report = r.rescanned ?? mergeStoreUpdate(this.report!, r.updates);
      });
    return !!this.report?.roots.some((r) => r.path === w.rootPath);
  }

  private sequencePresent(w: RootWatch): boolean {
    return w.outputs.every((o) => this.report?.roots.find((r) => r.path === w.rootPath)?.seqIndex.some((s) => s.outputId === o.id && s.value !== null));
  }

  private async noProcesses(w: RootWatch): Promise<boolean> {
    if (!this.storeId || !this.report?.roots.some((r) => r.path === w.rootPath)) return true;
    return noUsers(this.users(), w);
  }

  private users(): UsersContext {
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
      if (!w.restoring) this.learnPids(w);
      return;
    }
    // sequence/ (or a file) deleted: the held descriptors read the exit flush's last values.
    // The folder going after its file brings nothing new to a restore already under way.
    if (w.restoring && !e.values.length) return;
    w.deletedAt = e.at;
    for (const v of e.values) {
      if (v.value !== null && v.held) void this.keep(w, v.id, v.value, true, 'read after the deletion');
      else if (w.outputs.some((o) => o.id === v.id))
        this.note(`seq_index_${v.id} of ${w.bucket} deleted; its last value was not held (the guard's value is final only if recorded so before)`);
    }
    this.tree.touch(path.join(w.rootPath, 'sequence'));
    if (!w.restoring) this.note(`sequence/ of ${w.rootPath} deleted (a graceful stop?): restoring once no process uses the root`);
    void this.restore(w);
  }

  /** Learn (once per run of Fluent Bit: after a restore, at its first write that finds it) which Fluent Bit uses the root. */
  private learnPids(w: RootWatch): void {
    if (w.learned || w.restoring || w.pids.length || w.learning || !this.storeId || !this.report?.roots.some((r) => r.path === w.rootPath)) return;
    learnUsers(this.users(), w);
  }

  /** Keep a value read from the index file: final when the tool's own repair wrote it on covering evidence (engine/guard/repair-written.ts) and no process uses the root. */
  private async keepRead(w: RootWatch, id: number, value: number): Promise<void> {
    const r = await writtenByRepair(w.rootPath, id, value).catch((): RepairWritten => ({ final: false }));
    const final = r.final && (await noUsers(this.users(), w));
    if (r.why) this.note(`seq_index_${id} of ${w.bucket}: ${value} ${r.why}`);
    await this.keep(w, id, value, final, final ? 'written by repair-index on covering bucket evidence, in its journal; no process uses the root' : 'read');
  }

  /** Keep a value in the state folder — in the request queue, so a restore planned after it sees it. */
  private keep(w: RootWatch, id: number, value: number, final: boolean, how: string): Promise<void> {
    return this.serial(() => this.keepNow(w, id, value, final, how));
  }

  private async keepNow(w: RootWatch, id: number, value: number, final: boolean, how: string): Promise<void> {
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
    const paths = changed.length > 2000 ? [...new Set(changed.map((p) => streamOf(p, [...this.roots.keys()])))] : changed;
    const r = await this.session.call('store.refresh', { storeId: this.storeId, paths }); // already serial
    this.report = r.rescanned ?? mergeStoreUpdate(this.report, r.updates);
    this.changed();
  }

  /**
   * Restore the root's index files through the pipeline, once no process uses the root. Waits and
   * retries happen outside the request queue, so the report keeps being refreshed meanwhile.
   */
  private async restore(w: RootWatch): Promise<void> {
    if (this.stopped || !this.storeId) return;
    if (w.restoring) {
      w.again = true;
      w.wake?.();
      return;
    }
    w.restoring = true;
    this.settleState(true);
    try {
      for (let attempt = 0; !this.stopped; attempt++) {
        w.again = false;
        try {
          if (!(await this.rootStillOurs(w))) break;
          if (!(await this.rootKnown(w))) {
            this.note(`${w.rootPath} does not exist (yet): nothing to restore into; Fluent Bit creates it at its start`);
            break;
          }
          // the Fluent Bit seen while it ran: wait for it cheaply, then plan (the pipeline checks every process)
          await waitForLearnt(w);
          if ((await this.restoreOnce(w)) && !w.again) break;
          this.settleState(true);
          if (w.again || (await waitForUsers(this.users(), w))) continue;
        } catch (err) {
          const why = (err as Error).message;
          if (w.problem !== why) this.note(`restore in ${w.bucket} failed: ${why}`);
          w.problem = why;
        }
        this.settleState(true); // refused while it waits to try again: says so, and why
        await waitOrWake(w, Math.min(30_000, (this.opts.retryMs ?? RETRY_MS) * 2 ** Math.min(attempt, 10)));
      }
      w.idle = true;
      this.seq.release(w.rootPath);
      this.seq.check(w.rootPath); // what it restored is watched from now on
      if (this.opts.marker && !this.stopped && !w.replaced) await this.protect(w).catch((err: Error) => this.note(`marker: ${err.message}`));
    } finally {
      w.restoring = false;
      w.deletedAt = null;
      this.settleState(false);
    }
  }

  /**
   * The true state: a root whose restore was refused makes the guard "refused" (with each root's
   * reason) — also while it retries — never "restoring"; "restoring" only while a restore with no
   * refusal yet is under way.
   */
  private settleState(restoring: boolean): void {
    const refused = [...this.roots.values()].filter((r) => r.problem);
    this.stateReason = refused.length ? refused.map((r) => `${r.bucket}: ${r.problem}`).join(' / ') : null;
    this.state = this.stopped
      ? 'stopped'
      : refused.length
        ? 'refused'
        : restoring || [...this.roots.values()].some((r) => r.restoring)
          ? 'restoring'
          : 'watching';
    this.changed();
  }

  /** One plan + apply per output of the root. True when nothing is left to try. */
  private async restoreOnce(w: RootWatch): Promise<boolean> {
    let ok = true;
    for (const o of w.outputs) {
      const plan: RepairPlan = await this.call('repair.plan', { storeId: this.storeId!, action: 'restore-index', outputId: o.id, shadowDir: w.shadowDir });
      const unresolved = plan.details?.kind === 'restore' ? (plan.details.unresolved ?? []) : [];
      if (plan.refusals.length || unresolved.length) {
        // repaired meanwhile (restore-index, repair-index by hand): the file holds at least what the guard keeps
        const disk = await indexOnDisk(w.rootPath, o.id);
        const kept = w.guarded.get(o.id)?.value;
        if (disk !== null && (kept === undefined || disk >= kept)) continue;
        const why = unresolved.length ? `no value known for seq_index_${o.id} (the guard invents none)` : plan.refusals.map((r) => r.reason).join(' / ');
        if (w.problem !== why) this.note(`restore of seq_index_${o.id} in ${w.bucket} refused: ${why}`);
        w.problem = why;
        this.settleState(true);
        ok = false;
        continue;
      }
      if (!plan.steps.length) continue;
      if (!(await this.rootStillOurs(w))) return true; // swapped while planning: nothing is written
      const result = await this.applyPlanned(plan);
      if (!result.applied || !result.verified) {
        w.problem = `restore of seq_index_${o.id} not verified: ${result.summary}`;
        this.note(w.problem);
        ok = false;
        continue;
      }
      const latency = w.deletedAt !== null ? Date.now() - w.deletedAt : null;
      w.problem = null;
      const restored = w.guarded.get(o.id);
      if (restored) {
        w.ownWrites.set(o.id, restored.value);
        await this.keep(w, o.id, restored.value, true, 'restored after no process used the root');
      }
      w.restores.set(o.id, (w.restores.get(o.id) ?? 0) + 1);
      w.lastRestoreAt = this.lastRestoreAt = new Date().toISOString();
      this.restores++;
      if (latency !== null) {
        this.lastRestoreLatencyMs = latency;
        this.latencies.push(latency);
      }
      this.note(
        `restored seq_index_${o.id} of ${w.bucket}: ${result.summary}${latency !== null ? ` (${latency} ms after the deletion)` : ''} [journal ${result.undoId ?? '-'}]`,
      );
      for (const warning of result.warnings) this.note(`  ! ${warning}`);
    }
    // nothing left to restore (also when someone repaired the root meanwhile): no longer refused
    if (ok) w.problem = null;
    return ok;
  }

  private async protect(w: RootWatch): Promise<void> {
    const plan = await this.call('repair.plan', { storeId: this.storeId!, action: 'protect-index', method: 'marker', outputId: w.outputs[0].id });
    if (plan.refusals.length) {
      const why = `marker not placed in ${w.bucket}: ${plan.refusals.map((r) => r.reason).join(' / ')}`;
      if (!this.messages.some((m) => m.endsWith(why))) this.note(why);
      return;
    }
    if (!plan.steps.length) return;
    this.note(`marker: ${(await this.applyPlanned(plan)).summary}`);
  }

  /** Apply a reviewed plan through the pipeline and merge what it changed into the report. */
  private async applyPlanned(plan: RepairPlan) {
    const result = await this.call('repair.apply', { storeId: this.storeId!, planId: plan.planId!, confirm: plan.confirm ?? '' });
    if (result.storeUpdate && this.report) this.report = mergeStoreUpdate(this.report, result.storeUpdate);
    return result;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.state = 'stopped';
    this.seq.close();
    this.tree.close();
    await this.chain.catch(() => undefined);
    await this.session.dispose();
  }
}
