/**
 * The shadow folder: a copy of a root's index outside the store, in one module — its layout, its
 * `root.json`, where it lives by default, how it is read and written. Two writers use it: the
 * guard daemon (`store-doctor guard --state-dir D`: per root `D/<bucket>/`, shadowDirFor) and
 * `protect-index --method shadow` (default `$XDG_STATE_HOME/store-doctor/shadow/<hash of root>/`,
 * defaultShadowDir); `restore-index` reads it. A shadow folder holds
 * - `seq_index_<id>`: the highest value of that output's index file the guard ever read (ASCII
 *   decimal, the same format as Fluent Bit's file and as `protect-index --method shadow`); never
 *   lowered;
 * - `root.json`: which root this is (path, device and inode of the root folder), so a shadow is
 *   only ever restored into its own root, also when the root is reached by another path (a bind
 *   mount in a sidecar or init container);
 * - `final.json`: `{ "<id>": value }` — the values known to be *final*: read after Fluent Bit's
 *   exit flush (from the index file's inode after the graceful stop deleted it), or after no
 *   process used the root any more. A value is final only while `seq_index_<id>` still holds it:
 *   each file is written atomically on its own, and a newer non-final value simply no longer
 *   matches its old final entry, so a crash between two writes never makes a value look final.
 *
 * Every write is atomic (temp file, fsync, rename, fsync of the folder: repair/write/atomic.ts). These
 * writes are not repairs: nothing goes into the store or its undo journal. The files are read as
 * hostile input (regular files only, never followed, small byte limits, schema-checked).
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import * as os from 'node:os';
import { atomicWriteFile, ensureStateDir, untrustedReason } from '../write';
import { safeReadFile } from '../../store/safe-read';
import { parseSeqIndex } from '../../store/seq-index';

const BUCKET_DIR = /^[a-z0-9][a-z0-9.-]{0,62}$/;
const MAX_STATE_BYTES = 64 * 1024;

/** `D/<bucket>/` (a bucket name that is not a plain S3 name gets a hashed folder name). */
export function shadowDirFor(stateDir: string, bucket: string): string {
  const name =
    BUCKET_DIR.test(bucket) && bucket !== '.' && bucket !== '..' ? bucket : `bucket-${createHash('sha256').update(bucket).digest('hex').slice(0, 16)}`;
  return path.join(path.resolve(stateDir), name);
}

/** Default shadow folder of `protect-index --method shadow` / `restore-index`: `$XDG_STATE_HOME|~/.local/state/store-doctor/shadow/<hash of root>/`. */
export async function defaultShadowDir(rootPath: string): Promise<string> {
  const real = await fsp.realpath(rootPath).catch(() => path.resolve(rootPath));
  const base = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'store-doctor', 'shadow', createHash('sha256').update(real).digest('hex').slice(0, 16));
}

/**
 * `root.json`: `{ rootPath, dev, ino, recordedAt }`. Read also in the older shape
 * `{ rootPath, updatedAt }` (protect-index before the two writers were one): without a device and
 * inode, a shadow matches its root by path only.
 */
const rootSchema = z
  .object({ rootPath: z.string().min(1).max(4096), dev: z.number().int().min(0).optional(), ino: z.number().int().min(0).optional() })
  .passthrough();
const finalSchema = z.record(z.string().regex(/^\d{1,9}$/), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

/** Which root a shadow belongs to: its path, and the device and inode of its folder when known. */
export interface ShadowRoot {
  rootPath: string;
  dev?: number;
  ino?: number;
}

export interface ShadowState {
  dir: string;
  /** `seq_index_<id>` values (null: the file is there but holds no number). */
  values: Map<number, number | null>;
  /** Values recorded as final (to be compared with `values`). */
  final: Map<number, number>;
  root: ShadowRoot | null;
  /** What could not be read, one sentence each (a shadow folder is read as hostile input). */
  problems: string[];
}

async function readSmall(file: string): Promise<Buffer | null> {
  try {
    return (await safeReadFile(file, { maxBytes: MAX_STATE_BYTES })).bytes;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function readJson<T>(file: string, schema: z.ZodType<T>, problems: string[]): Promise<T | null> {
  let bytes: Buffer | null;
  const why = await untrustedStateFile(file);
  if (why) {
    problems.push(why);
    return null;
  }
  try {
    bytes = await readSmall(file);
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message}`);
    return null;
  }
  if (bytes === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(bytes.toString('utf8')));
    if (parsed.success) return parsed.data;
    problems.push(`${file}: not a guard state file (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  } catch {
    problems.push(`${file}: not valid JSON`);
  }
  return null;
}

/**
 * The users whose state folder is trusted: the caller and root. The same rules as the tool's own
 * folder in a store (repair/write/tool-dir.ts): not a symlink, not writable by group or others, files
 * with one name — a folder another user made or can write could hold a planted low "final" value.
 */
function stateOwners(): Set<number> {
  const me = process.getuid?.();
  return new Set(me === undefined ? [0] : [0, me]);
}

/** Why the state folder `dir` (or its parent, the --state-dir) is not trusted, or null (also when absent). */
async function untrustedStateDir(dir: string): Promise<string | null> {
  for (const d of [path.dirname(dir), dir]) {
    const st = await fsp.lstat(d).catch(() => null);
    if (!st) continue;
    const why = untrustedReason(d, st, 'dir', stateOwners());
    if (why) return `${why.replace('Store Doctor does not trust it', 'the guard does not trust this state folder')}: nothing in it is used`;
  }
  return null;
}

/** Why a state file is not trusted, or null (also when absent: the read says so). */
async function untrustedStateFile(file: string): Promise<string | null> {
  const st = await fsp.lstat(file).catch(() => null);
  const why = st ? untrustedReason(file, st, 'file', stateOwners()) : null;
  return why && why.startsWith(`${file} `) ? `${file}: ${why.slice(file.length + 1)}` : why;
}

/** Read a shadow folder (missing: empty state; not trusted: empty state and the reason in `problems`). */
export async function readShadow(dir: string): Promise<ShadowState> {
  const state: ShadowState = { dir, values: new Map(), final: new Map(), root: null, problems: [] };
  const distrust = await untrustedStateDir(dir);
  if (distrust) {
    state.problems.push(distrust);
    return state;
  }
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') state.problems.push(`${dir}: ${(err as Error).message}`);
    return state;
  }
  for (const n of names) {
    const m = /^seq_index_(\d{1,9})$/.exec(n);
    if (!m) continue;
    try {
      const why = await untrustedStateFile(path.join(dir, n));
      if (why) {
        state.problems.push(why);
        continue;
      }
      const bytes = await readSmall(path.join(dir, n));
      if (bytes === null) continue;
      const p = parseSeqIndex(bytes);
      const v = p.valueText === null ? null : Number(p.valueText);
      state.values.set(Number(m[1]), v !== null && Number.isSafeInteger(v) ? v : null);
    } catch (err) {
      state.problems.push(`${path.join(dir, n)}: ${(err as Error).message}`);
    }
  }
  const final = await readJson(path.join(dir, 'final.json'), finalSchema, state.problems);
  for (const [k, v] of Object.entries(final ?? {})) state.final.set(Number(k), v);
  state.root = await readJson(path.join(dir, 'root.json'), rootSchema, state.problems);
  return state;
}

/** The root at `rootPath` as root.json records it (no device and inode when it cannot be stat'ed). */
export async function shadowRootOf(rootPath: string): Promise<ShadowRoot> {
  const abs = path.resolve(rootPath);
  const st = await fsp.stat(abs).catch(() => null);
  return st ? { rootPath: abs, dev: st.dev, ino: st.ino } : { rootPath: abs };
}

/** Is the shadow's recorded root the root at `rootPath` (same path, or same device and inode)? */
export async function sameRoot(recorded: ShadowRoot | null, rootPath: string): Promise<boolean> {
  if (!recorded) return false;
  const now = await shadowRootOf(rootPath);
  if (recorded.rootPath === now.rootPath) return true;
  return recorded.dev !== undefined && recorded.ino !== undefined && recorded.dev === now.dev && recorded.ino === now.ino;
}

/**
 * The final values of `state` that hold for the root at `rootPath`: id → value, only where the
 * shadow file still holds the value recorded as final and the shadow belongs to this root.
 */
export async function finalValues(state: ShadowState, rootPath: string): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!(await sameRoot(state.root, rootPath))) return out;
  for (const [id, v] of state.final) if (state.values.get(id) === v) out.set(id, v);
  return out;
}

export interface RecordResult {
  /** The shadow value after the call (never lower than before). */
  value: number;
  /** The shadow file was written (a higher value). */
  raised: boolean;
  /** The value is now recorded as final. */
  final: boolean;
}

/**
 * Serialises the writes of one process to one shadow folder (the guard records values from
 * several watchers; `final.json` is read-modify-written).
 */
const queues = new Map<string, Promise<unknown>>();
function serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  queues.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Keep `value` for output `id` of the root: written only when higher than the shadow's (never
 * lower); with `final`, the value the shadow holds afterwards is recorded as final when it is
 * `value` (a lower final value than one already seen is not final: the shadow keeps the higher).
 */
export function recordValue(dir: string, root: ShadowRoot, id: number, value: number, final: boolean): Promise<RecordResult> {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`seq_index_${id}: ${value} is not an index value the guard keeps`);
  return serial(dir, async () => {
    await mkdirsFor(dir);
    const state = await readShadow(dir);
    const prev = state.values.get(id) ?? null;
    let raised = false;
    if (prev === null || value > prev) {
      await atomicWriteFile(dir, path.join(dir, `seq_index_${id}`), String(value), { mode: 0o600 });
      raised = true;
    }
    const now = raised ? value : (prev as number);
    if (!state.root || state.root.rootPath !== root.rootPath || state.root.dev !== root.dev || state.root.ino !== root.ino)
      await atomicWriteFile(dir, path.join(dir, 'root.json'), JSON.stringify({ ...root, recordedAt: new Date().toISOString() }, null, 2) + '\n', {
        mode: 0o600,
      });
    const isFinal = final && now === value;
    if (isFinal && state.final.get(id) !== value) {
      const next = Object.fromEntries([...state.final].filter(([k]) => k !== id && state.values.has(k)));
      next[String(id)] = value;
      await atomicWriteFile(dir, path.join(dir, 'final.json'), JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    }
    return { value: now, raised, final: isFinal || (!raised && state.final.get(id) === now) };
  });
}

async function mkdirsFor(dir: string): Promise<void> {
  await ensureStateDir(dir);
}

/** Create the guard's --state-dir (0700; a real folder, never a link) that holds its shadow folders. */
export function ensureShadowStateDir(stateDir: string): Promise<void> {
  return ensureStateDir(path.resolve(stateDir));
}

/**
 * `protect-index --method shadow`: copy the root's values into its shadow folder — each through
 * recordValue (never lower, atomic, root.json in the one shape), none of them final (a copy taken
 * while Fluent Bit may run). Returns the values the folder holds afterwards, read back.
 */
export async function copyToShadow(dir: string, rootPath: string, writes: { id: number; value: number }[]): Promise<Map<number, number | null>> {
  const root = await shadowRootOf(rootPath);
  for (const w of writes) await recordValue(dir, root, w.id, w.value, false);
  return (await readShadow(dir)).values;
}
