/**
 * The neutral form both config syntaxes are read into: sections in file order, each with its
 * entries (lower-cased names, values as written, variables not yet expanded).
 */
import type { ConfigSource } from '../../../shared/model';

export interface ConfigSection {
  /** Lower-cased: `service`, `input`, `filter`, `output`, `parser`, … */
  name: string;
  source: ConfigSource;
  entries: { key: string; value: string; line: number }[];
}

export interface ParsedConfig {
  files: string[];
  sections: ConfigSection[];
  /** `@SET` / YAML `env` variables, in definition order. */
  variables: Map<string, string>;
  warnings: { file: string; line: number; message: string; fatal?: boolean }[];
  /** Identities (device:inode, see ConfigIo.fileId) of the files read so far. */
  seen?: Set<string>;
}

/** File access the readers need; injected so a config can be read from a document too. */
export interface ConfigIo {
  readFile(path: string): Promise<string>;
  /** Files matching a glob pattern (absolute), sorted; [] when none; throws when globs cannot be read. */
  glob(pattern: string): Promise<string[]>;
  resolve(baseFile: string, relative: string): string;
  /** Identity of a file (device:inode, symlinks followed) to refuse a file read twice; absent for pasted documents. */
  fileId?(path: string): Promise<string | null>;
}

const VAR = /\$\{([^}]*)\}/g;

/**
 * `${NAME}` → @SET/env value, else the environment (an empty one counts as unset, as `getenv` is
 * read by flb_env_get), else the `${NAME:-default}` fallback, else '' with a warning.
 */
export function expandVariables(value: string, vars: Map<string, string>, env: Record<string, string | undefined>, onMissing: (name: string) => void): string {
  return value.replace(VAR, (_m, inner: string) => {
    const sep = inner.indexOf(':');
    const hasDefault = sep >= 0 && inner[sep + 1] === '-';
    const n = (hasDefault ? inner.slice(0, sep) : inner).trim();
    const fallback = hasDefault ? inner.slice(sep + 2) : null;
    const fromSet = vars.get(n);
    const e = fromSet ?? (env[n] === '' ? undefined : env[n]);
    // Fluent Bit skips an empty value when a fallback is given
    if (e !== undefined && !(fallback !== null && e === '')) return e;
    if (fallback !== null) return fallback;
    onMissing(n);
    return '';
  });
}
