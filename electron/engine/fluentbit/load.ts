/**
 * Read a Fluent Bit configuration (classic `.conf` or YAML) into outputs with their instance ids
 * (0-based position among ALL outputs, docs/fluent-bit-store-format.md#the-index-file) and S3 settings with defaults filled in.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FluentBitConfig, FluentBitOutput } from '../../../shared/model';
import { readClassic } from './classic';
import { ConfigError } from './errors';
import { expandGlob } from './glob';
import { noteFileRead } from './include';
import { outputPluginName, unknownOutputPlugin } from './plugins';
import { buildS3Settings, s3PropertyTypo } from './s3-settings';
import { expandVariables, type ConfigIo, type ParsedConfig } from './sections';
import { readYaml } from './yaml';
import { safeReadFile, SafeReadError } from '../store/safe-read';

export interface LoadConfigOptions {
  /** Environment for `${VAR}` (default `process.env`). */
  env?: Record<string, string | undefined>;
}

export function isYamlConfigName(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** Largest config file read (a Fluent Bit config is a few KiB; this bounds a hostile include). */
export const CONFIG_FILE_MAX = 4 * 1024 * 1024;

/**
 * Read one config file through the safe reader: a FIFO, device or socket is refused (never blocks),
 * a symlink is followed as Fluent Bit's fopen does (ConfigMaps are symlinks), at most 4 MiB.
 */
async function readConfigFile(p: string): Promise<string> {
  return (await safeReadFile(p, { maxBytes: CONFIG_FILE_MAX, follow: true })).bytes.toString('utf8');
}

const nodeIo: ConfigIo = {
  readFile: readConfigFile,
  fileId: async (p) => {
    const st = await stat(p);
    return `${st.dev}:${st.ino}`;
  },
  glob: (p) => expandGlob(p),
  resolve: (base, rel) => path.resolve(path.dirname(base), rel),
};

/** Load a config file and everything it includes. Throws ConfigError (file + line) on bad input. */
export async function loadFluentBitConfig(file: string, opts: LoadConfigOptions = {}): Promise<FluentBitConfig> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = await readConfigFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const text = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a directory, not a file' : null;
    const why = text ? `${text} (${code})` : e instanceof SafeReadError ? e.reason : (code ?? (e as Error).message);
    throw new ConfigError(`cannot read the Fluent Bit config: ${why}`, abs);
  }
  return parseFluentBitConfig(text, { fileName: abs, env: opts.env, io: nodeIo });
}

export interface ParseConfigOptions extends LoadConfigOptions {
  /** Name used in messages and to pick the syntax (`.yaml`/`.yml` → YAML). */
  fileName: string;
  /** File access for includes; without it an include is a ConfigError (a pasted document has no files). */
  io?: ConfigIo;
}

/** Parse config text (e.g. a pasted document). */
export async function parseFluentBitConfig(text: string, opts: ParseConfigOptions): Promise<FluentBitConfig> {
  const io: ConfigIo = opts.io ?? {
    readFile: async (p) => {
      throw new Error(`includes cannot be read from a pasted document (${p})`);
    },
    glob: async (p) => {
      throw new Error(`includes cannot be read from a pasted document (${p})`);
    },
    resolve: (base, rel) => (rel.startsWith('/') ? rel : `${base.replace(/[^/]*$/, '')}${rel}`),
  };
  const parsed: ParsedConfig = { files: [], sections: [], variables: new Map(), warnings: [] };
  await noteFileRead(io, parsed, opts.fileName);
  const yaml = isYamlConfigName(opts.fileName) || (!/^\s*\[/m.test(text) && /^(pipeline|service|env|includes)\s*:/m.test(text));
  if (yaml) await readYaml(opts.fileName, text, io, parsed);
  else await readClassic(opts.fileName, text, io, parsed);
  return buildConfig(parsed, yaml ? 'yaml' : 'classic', opts.env ?? process.env);
}

function buildConfig(parsed: ParsedConfig, format: 'classic' | 'yaml', env: Record<string, string | undefined>): FluentBitConfig {
  const warnings = [...parsed.warnings];
  const outputs: FluentBitOutput[] = [];
  const service: Record<string, string> = {};
  for (const s of parsed.sections) {
    if (s.name === 'service') for (const e of s.entries) service[e.key] = expandVariables(e.value, parsed.variables, env, () => {});
    if (s.name !== 'output') continue;
    const properties: Record<string, string> = {};
    for (const e of s.entries) {
      properties[e.key] = expandVariables(e.value, parsed.variables, env, (name) =>
        warnings.push({ file: s.source.file, line: e.line, message: `variable \${${name}} is not set: Fluent Bit uses an empty value` }),
      );
    }
    const id = outputs.length;
    const plugin = outputPluginName(properties['name'] ?? '');
    if (!plugin) throw new ConfigError('[OUTPUT] without a name', s.source.file, s.source.line);
    const unknown = unknownOutputPlugin(plugin);
    if (unknown) warnings.push({ file: s.source.file, line: s.source.line, message: unknown, fatal: true });
    const alias = properties['alias'] || null;
    const out: FluentBitOutput = {
      id,
      plugin,
      alias,
      displayName: alias ?? `${plugin}.${id}`,
      match: properties['match'] ?? properties['match_regex'] ?? null,
      source: s.source,
      properties,
    };
    if (plugin === 's3') {
      for (const e of s.entries) {
        const typo = s3PropertyTypo(e.key);
        if (typo) warnings.push({ file: s.source.file, line: e.line, message: `${out.displayName}: ${typo}`, fatal: true });
      }
      const s3 = buildS3Settings(properties, (message) =>
        warnings.push({ file: s.source.file, line: s.source.line, message: `${out.displayName}: ${message}` }),
      );
      if (s3) out.s3 = s3;
    }
    outputs.push(out);
  }
  return { files: parsed.files, format, outputs, warnings, service };
}
