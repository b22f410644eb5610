/**
 * Path confinement: a request may only name paths inside the stores the user opened.
 * Real paths (symlinks resolved) are compared, so `..`, symlinks and case tricks cannot escape.
 * Paths inside an archive are written `<archive>!/<inner>`; only the archive part exists on disk.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Resolve a path to its real path; for a path that does not exist yet, resolve its nearest existing parent. */
export function realPathOf(p: string): string | null {
  let abs = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync.native(abs);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      const parent = path.dirname(abs);
      if (parent === abs) return null;
      rest.push(path.basename(abs));
      abs = parent;
    }
  }
}

/** Is `child` the same as or inside `parent` (both real, absolute)? */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Split `archive.tar.gz!/store/bucket` into its file part and inner part. */
export function splitArchivePath(p: string): { file: string; inner: string | null } {
  const i = p.indexOf('!/');
  if (i < 0) return { file: p, inner: null };
  return { file: p.slice(0, i), inner: p.slice(i + 2) };
}

function innerIsClean(inner: string): boolean {
  return !inner.split('/').includes('..') && !inner.includes('\0');
}

/**
 * The set of places a session opened. `add` records an opened store (a directory or an archive);
 * `contains` answers whether a path from a request lies within one of them.
 */
export class Confinement {
  private readonly roots = new Map<string, number>();

  add(p: string): void {
    const real = realPathOf(splitArchivePath(p).file);
    if (real) this.roots.set(real, (this.roots.get(real) ?? 0) + 1);
  }

  remove(p: string): void {
    const real = realPathOf(splitArchivePath(p).file);
    if (!real) return;
    const n = this.roots.get(real) ?? 0;
    if (n <= 1) this.roots.delete(real);
    else this.roots.set(real, n - 1);
  }

  contains(p: string): boolean {
    if (typeof p !== 'string' || !p || p.includes('\0')) return false;
    const { file, inner } = splitArchivePath(p);
    if (inner !== null && !innerIsClean(inner)) return false;
    if (!path.isAbsolute(file)) return false;
    const real = realPathOf(file);
    if (!real) return false;
    for (const root of this.roots.keys()) {
      if (inner !== null ? real === root : isInside(root, real)) return true;
    }
    return false;
  }

  list(): string[] {
    return [...this.roots.keys()];
  }
}
