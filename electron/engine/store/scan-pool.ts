/**
 * A small pool of scan worker threads (scan-worker.ts) that read chunk files in parallel with the
 * main thread. Workers start on first use and stop after a while idle; they never keep the process
 * alive while idle. When a worker cannot start or fails, its batches are rejected and the caller
 * reads them in-thread, so the result never depends on whether workers ran.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ScanJob, WireBatch } from './scan-wire';

const IDLE_MS = 20_000;

interface Pending {
  resolve: (b: WireBatch) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** Worker code: a file (the .ts source through tsx, or a built .js), or the code itself (single executable). */
type WorkerCode = { file: string; tsx: string | null } | { source: string };

/** The single executable (Node SEA) carries the bundled worker as the asset `scan-worker.js`; never a file from disk. */
function seaEntry(): { source: string } | null | undefined {
  let sea: { isSea(): boolean; getAsset(key: string, encoding: string): string };
  try {
    sea = require('node:sea');
  } catch {
    return undefined;
  }
  if (!sea.isSea()) return undefined;
  try {
    return { source: sea.getAsset('scan-worker.js', 'utf8') };
  } catch {
    return null; // no embedded worker: scan in-thread
  }
}

/** Where the worker code is: the .ts source next to this file (run through tsx) or a built .js. */
function entry(): WorkerCode | null {
  const sea = seaEntry();
  if (sea !== undefined) return sea;
  if (typeof __dirname !== 'string') return null;
  const js = path.join(__dirname, 'scan-worker.js');
  if (fs.existsSync(js)) return { file: js, tsx: null };
  const ts = path.join(__dirname, 'scan-worker.ts');
  if (!fs.existsSync(ts)) return null;
  try {
    return { file: ts, tsx: createRequire(ts).resolve('tsx/cjs/api') };
  } catch {
    return null;
  }
}

const BOOT = `const { workerData } = require('node:worker_threads');
if (workerData.tsx) require(workerData.tsx).register();
require(workerData.file);`;

export class ScanPool {
  private slots: Slot[] = [];
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private broken = false;
  /** Batches read by workers so far (for tests and diagnostics). */
  batches = 0;

  /** `code` overrides where the worker code is (tests). */
  constructor(
    private readonly size: number,
    private readonly code: WorkerCode | null = entry(),
  ) {}

  /** Worker threads wanted by default: one per available core besides the calling thread (1..3). */
  static defaultSize(): number {
    return Math.max(1, Math.min(3, (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length) - 1));
  }

  /** False when workers cannot run here (no worker code found, or one failed before). */
  get usable(): boolean {
    return !this.broken && this.code !== null;
  }

  private start(): void {
    const e = this.code;
    if (!e) throw new Error('scan worker code not found');
    while (this.slots.length < this.size) {
      // A small young generation: a worker keeps almost nothing between files.
      const worker = new Worker('source' in e ? e.source : BOOT, {
        eval: true,
        workerData: 'source' in e ? null : e,
        execArgv: [],
        resourceLimits: { maxYoungGenerationSizeMb: 8 },
      });
      const slot: Slot = { worker, pending: new Map() };
      worker.on('message', (m: { id: number; batch?: WireBatch; error?: string }) => {
        const p = slot.pending.get(m.id);
        if (!p) return;
        slot.pending.delete(m.id);
        if (slot.pending.size === 0) worker.unref();
        if (m.batch) {
          this.batches++;
          p.resolve(m.batch);
        } else p.reject(new Error(m.error ?? 'scan worker failed'));
        this.armIdle();
      });
      const fail = (err: Error) => {
        this.broken = true;
        this.slots = this.slots.filter((s) => s !== slot);
        for (const p of slot.pending.values()) p.reject(err);
        slot.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`scan worker exited (${code})`)));
      worker.unref();
      this.slots.push(slot);
    }
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.slots.some((s) => s.pending.size > 0)) return;
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
  }

  /** Read one batch in the least busy worker. Rejects when the worker fails (read it in-thread then). */
  run(job: ScanJob): Promise<WireBatch> {
    if (this.broken) return Promise.reject(new Error('scan workers unavailable'));
    if (this.idle) clearTimeout(this.idle);
    try {
      if (this.slots.length < this.size) this.start();
    } catch (err) {
      this.broken = true;
      return Promise.reject(err as Error);
    }
    let slot = this.slots[0];
    for (const s of this.slots) if (s.pending.size < slot.pending.size) slot = s;
    if (!slot) return Promise.reject(new Error('scan workers unavailable'));
    const id = this.nextId++;
    return new Promise<WireBatch>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, job });
    });
  }

  /** Stop all workers (pending batches are rejected). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      s.worker.removeAllListeners('exit');
      for (const p of s.pending.values()) p.reject(new Error('scan workers stopped'));
      void s.worker.terminate();
    }
  }
}

const pools = new Map<number, ScanPool>();

/** The shared pool of `size` workers (kept between scans, stopped after {@link IDLE_MS} idle). */
export function scanPool(size: number): ScanPool {
  let p = pools.get(size);
  if (!p) pools.set(size, (p = new ScanPool(size)));
  return p;
}
