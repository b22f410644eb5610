/** Fatal store-reading errors: the path is missing, unreadable, not a store, or a broken archive. */
export class StoreError extends Error {
  constructor(
    message: string,
    /** The file or folder the error is about. */
    readonly file: string,
    /** Node error code when there was one (ENOENT, EACCES, ELOOP…). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** A sentence for a Node fs error, naming the file. */
export function describeFsError(err: unknown, file: string): string {
  const e = err as NodeJS.ErrnoException & { reason?: unknown };
  // A SafeReadError (store/safe-read.ts) carries the problem without the file name.
  if (typeof e?.reason === 'string') return `${file}: ${e.reason}`;
  switch (e?.code) {
    case 'ENOENT':
      return `${file}: no such file or directory`;
    case 'EACCES':
    case 'EPERM':
      return `${file}: permission denied (EACCES): run Store Doctor as the user Fluent Bit runs as, or as root`;
    case 'ELOOP':
      return `${file}: too many levels of symbolic links (a symlink loop)`;
    case 'ENOTDIR':
      return `${file}: a path component is not a directory`;
    case 'EISDIR':
      return `${file}: is a directory`;
    case 'EMFILE':
    case 'ENFILE':
      return `${file}: too many open files`;
    default:
      return `${file}: ${e?.message ?? String(err)}`;
  }
}
