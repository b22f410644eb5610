/**
 * The in-memory picture of a store's entries (from a directory walk or a tar stream) and the
 * decision of what a path is: a `store_dir` (one folder per bucket root) or one root, and its roots.
 */
import type { StoreProblem, StreamInfo } from '../../../shared/model';
import type { ChunkAnalysis } from '../chunk';
import type { SeqIndexFailure } from './seq-index';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface TreeNode {
  /** Display name (escaped when the bytes are not UTF-8). */
  name: string;
  type: EntryType;
  size: number;
  mtime: string | null;
  /** Permission bits when known. */
  mode: number | null;
  /** Name bytes were not valid UTF-8. */
  badName?: boolean;
  /** Where to read it from on disk (directory sources). */
  fsPath?: string | Buffer;
  children?: Map<string, TreeNode>;
  /** Directory scans: the regular non-dot UTF-8-named files of a stream folder, by name only (not in `children`). */
  files?: string[];
  /** A directory whose listing failed (its children are unknown). */
  listError?: string;
  /** Analysis of a chunk candidate (archive scans). */
  analysis?: ChunkAnalysis;
  /** The finished report of a stream folder (directory scans: built once all its chunks are read). */
  report?: StreamInfo;
  /** Exact bytes of a small file (seq index), capped. */
  raw?: Buffer;
  /** Reading the file failed. */
  readError?: string;
  /** A seq_index entry that was not read as an index (special file, too large, unreadable). */
  seqFailure?: SeqIndexFailure;
  linkTarget?: string | null;
  /** Not writable by us (Fluent Bit would skip a stream it cannot write). Null when unknown. */
  writable?: boolean | null;
  /** A symlink to a root, followed for reading (Fluent Bit follows a symlinked root): the link's target. */
  followedLink?: string;
}

export const RESERVED_STREAMS = ['multipart_upload_metadata', 'quarantine', 'sequence'] as const;
/** `%Y-%m-%dT%H:%M:%S`, or the Windows `%H-%M-%S` variant. */
export const STREAM_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})[:-](\d{2})[:-](\d{2})$/;

export function newDir(name: string, extra: Partial<TreeNode> = {}): TreeNode {
  return { name, type: 'directory', size: 0, mtime: null, mode: null, children: new Map(), ...extra };
}

/** Reserved stream names and `%Y-%m-%dT%H:%M:%S` names: a folder holding one is a root. */
export function isStreamLikeName(name: string): boolean {
  return (RESERVED_STREAMS as readonly string[]).includes(name) || STREAM_TIME_RE.test(name);
}

function dirs(n: TreeNode): TreeNode[] {
  return n.children ? [...n.children.values()].filter((c) => c.type === 'directory' && !c.name.startsWith('.')) : [];
}

/**
 * How Fluent Bit names chunk files: out_s3's `<A>-<B>` (two decimal numbers), the engine's
 * `storage.path` chunks `<pid>-<sec>.<nsec>.flb`, and the marker Store Doctor writes.
 */
export function isChunkLikeName(name: string): boolean {
  return /^\d+-\d+(\.\d+\.flb)?$/.test(name) || name === 'store-doctor-marker';
}

/** Holds a file named the way Fluent Bit names chunks. */
function hasChunkFiles(n: TreeNode): boolean {
  if (n.files?.some(isChunkLikeName)) return true;
  return !!n.children && [...n.children.values()].some((c) => c.type === 'file' && isChunkLikeName(c.name));
}

/** Store Doctor's own folder in a root (journal, backups): what repair left in a bucket's root. */
export const OWN_DIR = '.store-doctor';

/**
 * A folder looks like a root when it holds stream-like folders (timestamp names,
 * `multipart_upload_metadata`, `quarantine`, `sequence`), Store Doctor's own `.store-doctor/`
 * folder (a root repaired and undone after a graceful stop holds nothing else), or when its
 * folders hold no folders and files named the way Fluent Bit names chunks (streams with custom
 * names). Any folder of text files is not a root.
 */
export function isRootLike(n: TreeNode): boolean {
  if (n.children?.get(OWN_DIR)?.type === 'directory') return true;
  const ds = dirs(n);
  if (ds.some((d) => isStreamLikeName(d.name))) return true;
  return ds.length > 0 && ds.every((d) => dirs(d).length === 0) && ds.some(hasChunkFiles);
}

/** A folder looks like a store_dir when one of its folders looks like a root or is empty. */
export function isStoreDirLike(n: TreeNode): boolean {
  return dirs(n).some((d) => isRootLike(d) || (d.children !== undefined && d.children.size === 0));
}

export interface Layout {
  kind: 'store_dir' | 'root';
  /** Path segments from the walk's top to the node that is the store_dir or the root. */
  prefix: string[];
  node: TreeNode;
  /** Other folders at the same depth that hold bucket roots too (paths from the top): not scanned. */
  others?: string[][];
}

/** Holds folders only Fluent Bit makes in a root (timestamps, multipart_upload_metadata, quarantine, sequence). */
export function hasStreamFolders(n: TreeNode): boolean {
  return dirs(n).some((d) => isStreamLikeName(d.name));
}

/**
 * The shallowest store found by positive evidence, `maxDepth` folders below `top` at most: `top`
 * itself when it holds stream folders (a root), else the first folder (by name) one of whose
 * folders holds stream folders (a store_dir). This finds `store/` in a support bundle next to
 * `etc/` and `logs/`, and the store of an archive that also holds unrelated entries.
 */
function findByEvidence(top: TreeNode, maxDepth: number): Layout | null {
  if (hasStreamFolders(top)) return { kind: 'root', prefix: [], node: top };
  let level: { node: TreeNode; prefix: string[] }[] = [{ node: top, prefix: [] }];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const hits = level.filter((x) => dirs(x.node).some(hasStreamFolders));
    if (hits.length) return { kind: 'store_dir', prefix: hits[0].prefix, node: hits[0].node, others: hits.slice(1).map((h) => h.prefix) };
    const next: { node: TreeNode; prefix: string[] }[] = [];
    for (const x of level) for (const d of dirs(x.node).sort((a, b) => (a.name < b.name ? -1 : 1))) next.push({ node: d, prefix: [...x.prefix, d.name] });
    level = next;
  }
  return null;
}

/**
 * What `top` is. First by evidence (findByEvidence: up to 2 folders deep for a directory, 4 for an
 * archive); else, for archives (`descend`), single wrapping folders are stepped into (a tar of
 * `store/` or of `data/run/store/`) until something store-like appears; else the old shapes
 * (custom stream names, an empty folder).
 */
export function detectLayout(top: TreeNode, descend: boolean): Layout | null {
  const found = findByEvidence(top, descend ? 4 : 2);
  if (found) return found;
  let node = top;
  const prefix: string[] = [];
  if (descend) {
    for (;;) {
      if (isRootLike(node) || isStoreDirLike(node)) break;
      const kids = node.children ? [...node.children.values()].filter((c) => !c.name.startsWith('.')) : [];
      if (kids.length !== 1 || kids[0].type !== 'directory' || !kids[0].children || kids[0].children.size === 0) break;
      node = kids[0];
      prefix.push(node.name);
    }
  }
  if (isRootLike(node)) return { kind: 'root', prefix, node };
  if (isStoreDirLike(node)) return { kind: 'store_dir', prefix, node };
  if (node.children && node.children.size === 0) return { kind: 'root', prefix, node };
  return null;
}

/** The bucket roots under a layout node, with their display path. */
export function rootsOf(
  layoutKind: 'store_dir' | 'root',
  node: TreeNode,
  base: string,
  problems: StoreProblem[],
): { node: TreeNode; bucket: string; path: string }[] {
  if (layoutKind === 'root') return [{ node, bucket: node.name, path: base }];
  const out: { node: TreeNode; bucket: string; path: string }[] = [];
  for (const c of [...(node.children?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (c.name.startsWith('.')) continue;
    if (c.type === 'directory') out.push({ node: c, bucket: c.name, path: `${base}/${c.name}` });
    else problems.push({ severity: 'info', path: `${base}/${c.name}`, message: `not a bucket root (a ${c.type}, not a folder): ignored` });
  }
  return out;
}
