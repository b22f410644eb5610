/**
 * Walk a directory store into a {@link TreeNode} tree, a few levels deep, without following
 * symlinks and without reading file contents. Names are read as bytes so that names that are not
 * UTF-8 still open. Listing errors become problems on the node, never exceptions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreProblem } from '../../../shared/model';
import { describeFsError } from './errors';
import { nameText } from './names';
import { newDir, type EntryType, type TreeNode } from './tree';

function join(parent: string | Buffer, name: Buffer, utf8: boolean): string | Buffer {
  if (typeof parent === 'string' && utf8) return parent + path.sep + name.toString('utf8');
  return Buffer.concat([Buffer.isBuffer(parent) ? parent : Buffer.from(parent), Buffer.from(path.sep), name]);
}

function typeOf(d: fs.Dirent<Buffer>): EntryType {
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** List `node`'s children (one level). `shown` is the path used in problems. */
export async function listDir(node: TreeNode, shown: string, problems: StoreProblem[]): Promise<void> {
  if (!node.fsPath) return;
  node.children = new Map();
  let entries: fs.Dirent<Buffer>[];
  try {
    entries = await fs.promises.readdir(node.fsPath, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    node.listError = describeFsError(err, shown);
    problems.push({ severity: 'error', path: shown, message: node.listError });
    return;
  }
  for (const d of entries) {
    const raw = d.name as unknown as Buffer;
    const { text, utf8 } = nameText(raw);
    const type = typeOf(d);
    const child: TreeNode =
      type === 'directory'
        ? newDir(text, { fsPath: join(node.fsPath, raw, utf8) })
        : { name: text, type, size: 0, mtime: null, mode: null, fsPath: join(node.fsPath, raw, utf8) };
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

/** Is the directory writable by this process (Fluent Bit skips streams it cannot write)? */
export async function isWritable(p: string | Buffer): Promise<boolean | null> {
  try {
    await fs.promises.access(p, fs.constants.W_OK);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EACCES' || (err as NodeJS.ErrnoException).code === 'EROFS' ? false : null;
  }
}

/**
 * Walk `abs` (a directory) `depth` levels: the top, its children, and so on. Directories deeper
 * than that keep `children === undefined` until {@link listDir} is called on them.
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
        await listDir(item.node, item.shown, problems);
        for (const c of item.node.children?.values() ?? []) {
          if (c.type === 'directory' && !c.name.startsWith('.')) next.push({ node: c, shown: `${item.shown}/${c.name}` });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, level.length) }, work));
    level = next;
  }
  return top;
}
