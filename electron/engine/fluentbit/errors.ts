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
