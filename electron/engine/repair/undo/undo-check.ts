/**
 * What an undo may do, checked before it does anything. A journal entry is hostile input (anyone
 * who can write the store can write it, and undo often runs as root), so an entry is undone only
 * when every change it names passes every check below; otherwise it is reported and nothing of it
 * is applied:
 *
 * - its root is the folder whose `.store-doctor` holds the journal (as found, or its realpath);
 * - every path (file, mkdir, both ends of a move) is a normal absolute path strictly inside that
 *   root, and resolves there with no symlinked component (confine.ts); what exists there is of the
 *   kind the change expects (a regular file, a directory);
 * - a backup is exactly `.store-doctor/backups/<this action's id>/<one name>`, in trusted tool
 *   folders, a regular file with one name owned by a trusted user, whose size and sha256 are the
 *   recorded ones;
 * - a mode has no setuid, setgid or sticky bit: those are never restored;
 * - an owner is restored only when Store Doctor can vouch for it: it is the current owner of the
 *   root folder (what the tool gives files it creates, and what Fluent Bit's files have), or the
 *   file's own owner right now (nothing changes). Any other recorded uid/gid could be an
 *   attacker's choice — giving a file to root or to another user — and is refused.
 */
import * as path from 'node:path';
import type { Stats } from 'node:fs';
import { safeReadFile } from '../../store/safe-read';
import { confine, isNormalAbsolute, relativeInside, type WriteRoot } from '../write';
import { MAX_BACKUP, sha256 } from '../journal';
import type { JournalView } from '../journal';
import type { UndoChange } from '../journal';
import { TOOL_DIR, trustedOwners, untrustedReason } from '../write';

type FileChange = Extract<UndoChange, { kind: 'file' }>;

export type CheckedChange =
  | { kind: 'file'; change: FileChange; real: string; backup: Buffer | null; owner: { uid: number; gid: number } | null }
  | { kind: 'mkdir'; change: Extract<UndoChange, { kind: 'mkdir' }>; real: string }
  | { kind: 'move'; change: Extract<UndoChange, { kind: 'move' }>; realFrom: string; realTo: string };

const BACKUP_NAME = /^[^/\0]+$/;

async function inside(root: WriteRoot, p: string, what: string, want: 'file' | 'dir' | 'any'): Promise<{ real: string; leaf: Stats | null } | string> {
  const rel = relativeInside(root, p, what);
  if ('problem' in rel) return rel.problem;
  const c = await confine(root, rel.rel, what);
  if ('problem' in c) return c.problem;
  if (c.leaf && want === 'file' && !c.leaf.isFile()) return `${what} ${p} is not a regular file`;
  if (c.leaf && want === 'dir' && !c.leaf.isDirectory()) return `${what} ${p} is not a directory`;
  if (rel.rel === TOOL_DIR || rel.rel.startsWith(TOOL_DIR + '/')) return `${what} ${p} is inside ${TOOL_DIR}/, which no action changes`;
  return c;
}

/** Read and verify a backup: the one place and shape the tool writes backups in. */
async function readBackup(root: WriteRoot, id: string, c: FileChange, trusted: Set<number>): Promise<Buffer | string> {
  const b = c.before.backup;
  const label = `the backup of ${c.path}`;
  if (b === undefined || c.before.size === undefined || c.before.sha256 === undefined) return `${label} is not recorded (backup, size and sha256 are needed)`;
  const prefix = `backups/${id}/`;
  const name = b.startsWith(prefix) ? b.slice(prefix.length) : null;
  if (name === null || !BACKUP_NAME.test(name) || name === '.' || name === '..')
    return `${label} ${JSON.stringify(b)} is not in ${TOOL_DIR}/${prefix} (backups of an action are kept only there)`;
  const dirs = [TOOL_DIR, `${TOOL_DIR}/backups`, `${TOOL_DIR}/backups/${id}`];
  for (const d of dirs) {
    const r = await confine(root, d, label);
    if ('problem' in r) return r.problem;
    if (!r.leaf) return `${label}: ${path.join(root.path, d)} does not exist`;
    const why = untrustedReason(path.join(root.path, d), r.leaf, 'dir', trusted);
    if (why) return why;
  }
  const file = await confine(root, `${TOOL_DIR}/${b}`, label);
  if ('problem' in file) return file.problem;
  if (!file.leaf) return `${label} (${path.join(root.path, TOOL_DIR, b)}) is missing`;
  const why = untrustedReason(path.join(root.path, TOOL_DIR, b), file.leaf, 'file', trusted);
  if (why) return why;
  let bytes: Buffer;
  try {
    bytes = (await safeReadFile(file.real, { maxBytes: MAX_BACKUP, shown: path.join(root.path, TOOL_DIR, b) })).bytes;
  } catch (err) {
    return `${label}: ${(err as Error).message}`;
  }
  if (bytes.length !== c.before.size || sha256(bytes) !== c.before.sha256)
    return `${label} does not hold the recorded bytes (${bytes.length} bytes, sha256 ${sha256(bytes).slice(0, 12)}…; recorded ${c.before.size} bytes, ${c.before.sha256.slice(0, 12)}…)`;
  return bytes;
}

/** The owner to restore, null for none, or the problem (see the module comment). */
function ownerToRestore(root: WriteRoot, c: FileChange, leaf: Stats | null): { uid: number; gid: number } | null | string {
  const { uid, gid } = c.before;
  if (uid === undefined && gid === undefined) return null;
  if (uid === undefined || gid === undefined) return `${c.path}: an owner needs both uid and gid`;
  const uidOk = uid === root.st.uid || (leaf !== null && uid === leaf.uid);
  const gidOk = gid === root.st.gid || (leaf !== null && gid === leaf.gid);
  if (uidOk && gidOk) return { uid, gid };
  const now = leaf ? `${leaf.uid}:${leaf.gid}` : 'none, it does not exist';
  return `${c.path}: the recorded owner ${uid}:${gid} is neither the root folder's owner (${root.st.uid}:${root.st.gid}) nor the file's owner now (${now}); Store Doctor restores only an owner it can vouch for`;
}

/** Check every change of the action (see the module comment): the resolved changes, or every problem found. */
export async function checkAction(view: JournalView, root: WriteRoot): Promise<{ problems: string[]; changes: CheckedChange[] }> {
  const e = view.entry;
  const problems: string[] = [];
  const changes: CheckedChange[] = [];
  const named = e.rootPath;
  if (!isNormalAbsolute(named) || (named !== root.path && named !== root.real))
    problems.push(`entry ${e.id} names the root ${named}, but its journal is in ${root.path}/${TOOL_DIR}: an entry may only change its own root`);
  if (problems.length) return { problems, changes };
  const trusted = await trustedOwners(root.real);
  for (const c of e.changes) {
    if (c.kind === 'mkdir') {
      const r = await inside(root, c.path, 'the folder', 'dir');
      if (typeof r === 'string') problems.push(r);
      else changes.push({ kind: 'mkdir', change: c, real: r.real });
      continue;
    }
    if (c.kind === 'move') {
      const to = await inside(root, c.to, 'the moved file', 'file');
      const from = await inside(root, c.from, 'the place to move back to', 'any');
      if (typeof to === 'string') problems.push(to);
      if (typeof from === 'string') problems.push(from);
      if (typeof to !== 'string' && typeof from !== 'string') changes.push({ kind: 'move', change: c, realFrom: from.real, realTo: to.real });
      continue;
    }
    const r = await inside(root, c.path, 'the file', 'file');
    if (typeof r === 'string') {
      problems.push(r);
      continue;
    }
    const mode = c.before.mode;
    if (mode !== undefined && mode & 0o7000) {
      const bits = [mode & 0o4000 ? 'setuid' : '', mode & 0o2000 ? 'setgid' : '', mode & 0o1000 ? 'sticky' : ''].filter(Boolean).join('/');
      problems.push(`${c.path}: the recorded mode ${mode.toString(8)} has the ${bits} bit; Store Doctor never sets setuid, setgid or sticky bits`);
    }
    const owner = c.before.exists ? ownerToRestore(root, c, r.leaf) : null;
    if (typeof owner === 'string') problems.push(owner);
    let backup: Buffer | null = null;
    if (c.before.exists) {
      const b = await readBackup(root, e.id, c, trusted);
      if (typeof b === 'string') problems.push(b);
      else backup = b;
    }
    changes.push({ kind: 'file', change: c, real: r.real, backup, owner: typeof owner === 'string' ? null : owner });
  }
  return { problems, changes };
}
