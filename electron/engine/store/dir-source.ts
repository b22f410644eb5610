/**
 * Walk a directory store into a {@link TreeNode} tree, a few levels deep, without following
 * symlinks and without reading file contents. Folders holding a name that is not UTF-8 are read as
 * bytes so that such names still open. Listing errors become problems on the node, never exceptions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreProblem } from '../../../shared/model';
import { describeFsError } from './errors';
import { nameText } from './names';
import { hasStreamFolders, isStreamLikeName, newDir, type EntryType, type TreeNode } from './tree';

function join(parent: string | Buffer, name: Buffer, utf8: boolean): string | Buffer {
  if (typeof parent === 'string' && utf8) return parent + path.sep + name.toString('utf8');
  return Buffer.concat([Buffer.isBuffer(parent) ? parent : Buffer.from(parent), Buffer.from(path.sep), name]);
}

function typeOf(d: fs.Dirent | fs.Dirent<Buffer>): EntryType {
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'symlink';
  return 'other';
}

async function readEntries(dir: string | Buffer): Promise<{ entries: fs.Dirent[] | fs.Dirent<Buffer>[]; raw: boolean }> {
  if (typeof dir === 'string') {
    // Names as text (no Buffer per name); a U+FFFD means a name may not be UTF-8: read it as bytes.
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    if (!entries.some((d) => d.name.includes('\uFFFD'))) return { entries, raw: false };
  }
  return { entries: await fs.promises.readdir(dir, { withFileTypes: true, encoding: 'buffer' }), raw: true };
}

/**
 * List `node`'s children (one level). `shown` is the path used in problems. With `compact` (stream
 * folders about to be read), regular non-dot files with UTF-8 names are kept by name only in
 * `node.files` (no node each); everything else becomes a child node as usual.
 */
export async function listNode(node: TreeNode, shown: string, problems: StoreProblem[], compact = false): Promise<void> {
  if (!node.fsPath) return;
  node.children = new Map();
  const files: string[] | undefined = compact ? (node.files = []) : undefined;
  let listing: Awaited<ReturnType<typeof readEntries>>;
  try {
    listing = await readEntries(node.fsPath);
  } catch (err) {
    node.listError = describeFsError(err, shown);
    problems.push({ severity: 'error', path: shown, message: node.listError });
    return;
  }
  const prefix = typeof node.fsPath === 'string' ? node.fsPath + path.sep : '';
  for (const d of listing.entries) {
    let text: string;
    let utf8 = true;
    let fsPath: string | Buffer;
    if (listing.raw) {
      const raw = d.name as Buffer;
      ({ text, utf8 } = nameText(raw));
      fsPath = join(node.fsPath, raw, utf8);
    } else {
      text = d.name as string;
      fsPath = prefix + text;
    }
    const type = typeOf(d);
    if (files && type === 'file' && utf8 && !text.startsWith('.')) {
      files.push(text);
      continue;
    }
    const child: TreeNode = type === 'directory' ? newDir(text, { fsPath }) : { name: text, type, size: 0, mtime: null, mode: null, fsPath };
    if (!utf8) {
      child.badName = true;
      problems.push({ severity: 'warning', path: `${shown}/${text}`, message: 'name is not valid UTF-8 (shown with \\xNN escapes)' });
    }
    if (type === 'directory') child.children = undefined; // not listed yet
    if (type === 'symlink') {
      try {
        child.linkTarget = (await fs.promises.readlink(child.fsPath as string | Buffer, { encoding: 'buffer' })).toString('utf8');
      } catch {
        child.linkTarget = null;
      }
    }
    node.children.set(text, child);
  }
}

/**
 * A bucket root may be a symlink (`store_dir/<bucket>` → elsewhere): Fluent Bit opens the root by
 * path and so follows it. Such a link is followed for reading when its target is a folder that
 * holds folders only Fluent Bit makes in a root (stream folders); anything else (a link to /etc)
 * stays an ignored symlink and is never listed further. Links inside a root (symlinked streams)
 * are never followed: chunkio ignores them. Each followed link is reported.
 */
async function followRootLinks(node: TreeNode, shown: string, problems: StoreProblem[]): Promise<void> {
  // A folder with stream folders is a root: its symlinks are symlinked streams, which chunkio ignores.
  if (hasStreamFolders(node)) return;
  for (const c of node.children?.values() ?? []) {
    if (c.type !== 'symlink' || c.name.startsWith('.') || !c.fsPath) continue;
    const st = await fs.promises.stat(c.fsPath).catch(() => null);
    if (!st?.isDirectory()) continue;
    const probe = newDir(c.name, { fsPath: c.fsPath });
    await listNode(probe, `${shown}/${c.name}`, []);
    if (probe.listError || !hasStreamFolders(probe)) continue;
    Object.assign(c, { type: 'directory', children: probe.children, followedLink: c.linkTarget ?? '?' });
    problems.push({
      severity: 'info',
      path: `${shown}/${c.name}`,
      message: `a symlink to ${c.linkTarget ?? '?'}: followed and read as a bucket root (Fluent Bit follows a symlinked root)`,
    });
  }
}

/** Is the directory writable by this process? False for EACCES and a read-only file system, null when unknown. */
export async function isWritable(p: string | Buffer): Promise<boolean | null> {
  const w = await writability(p);
  return w.denied ? false : w.writable;
}

/**
 * Can Fluent Bit write a stream folder (it skips one it cannot, spec §1.2)? Only a read-only file
 * system says no for every user. When just the user running Store Doctor may not write it
 * (`denied`), whether Fluent Bit's own user can is unknown: `writable` is null then.
 */
export async function writability(p: string | Buffer): Promise<{ writable: boolean | null; denied: boolean }> {
  try {
    await fs.promises.access(p, fs.constants.W_OK);
    return { writable: true, denied: false };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return { writable: false, denied: false };
    return { writable: null, denied: code === 'EACCES' || code === 'EPERM' };
  }
}

/**
 * Walk `abs` (a directory) `depth` levels: the top, its children, and so on. Directories deeper
 * than that keep `children === undefined` until {@link listNode} is called on them, and so do the
 * folders of a directory that holds a stream-named folder: they are streams, which the layout
 * decision never looks into (the scan lists them when it reads them).
 */
export async function walkDir(abs: string, depth: number, problems: StoreProblem[], concurrency = 16): Promise<TreeNode> {
  const top = newDir(path.basename(abs), { fsPath: abs });
  let level: { node: TreeNode; shown: string }[] = [{ node: top, shown: abs }];
  for (let d = 0; d < depth && level.length; d++) {
    const next: { node: TreeNode; shown: string }[] = [];
    let i = 0;
    const work = async () => {
      while (i < level.length) {
        const item = level[i++];
        await listNode(item.node, item.shown, problems);
        // Bucket roots are one or two levels down (a store_dir, a bundle): a symlink there may be one.
        if (d <= 1) await followRootLinks(item.node, item.shown, problems);
        const kids = [...(item.node.children?.values() ?? [])];
        if (kids.some((c) => c.type === 'directory' && isStreamLikeName(c.name))) continue;
        for (const c of kids) {
          if (c.type === 'directory' && !c.name.startsWith('.')) next.push({ node: c, shown: `${item.shown}/${c.name}` });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, level.length) }, work));
    level = next;
  }
  return top;
}
