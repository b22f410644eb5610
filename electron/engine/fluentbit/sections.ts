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
  warnings: { file: string; line: number; message: string }[];
}

/** File access the readers need; injected so a config can be read from a document too. */
export interface ConfigIo {
  readFile(path: string): Promise<string>;
  /** Files matching a glob pattern (absolute), sorted; [] when none. */
  glob(pattern: string): Promise<string[]>;
  resolve(baseFile: string, relative: string): string;
}

const VAR = /\$\{([^}]*)\}/g;

/** `${NAME}` → @SET/env value, else env, else '' with a warning (Fluent Bit leaves it empty). */
export function expandVariables(
  value: string,
  vars: Map<string, string>,
  env: Record<string, string | undefined>,
  onMissing: (name: string) => void,
): string {
  return value.replace(VAR, (_m, name: string) => {
    const n = name.trim();
    if (vars.has(n)) return vars.get(n)!;
    const e = env[n];
    if (e !== undefined) return e;
    onMissing(n);
    return '';
  });
}
