/** A configuration problem Fluent Bit would refuse, with the file and line it is on. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number | null = null,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * A key, section or directive name as a message may quote it: only when it looks like one
 * (letters, digits, `_ . - $ { }`, at most 64). A config can include any file (`@INCLUDE
 * /etc/shadow`), so a message never quotes a line, and never a "key" that may be a line's content.
 */
export function keyName(name: string): string | null {
  return /^[A-Za-z0-9_.${}-]{1,64}$/.test(name) ? JSON.stringify(name) : null;
}
