/**
 * Classic Fluent Bit `.conf`: `[SECTION]` headers, indented `key value` entries, `@INCLUDE`,
 * `@SET key=value`, `#` comments. Keys are case-insensitive.
 *
 * `@INCLUDE` as `flb_cf_fluentbit.c` (v5.0.9) reads it: a relative path is relative to the MAIN
 * file's directory at every nesting level (`ctx->root_path`), a glob only when it has a `*`, and the
 * included file is read inline: its sections take their place among the outputs (ids), it starts
 * outside any section, and the including file's open section continues after the line. Globs: see
 * include.ts (directory order on the host, no match is fatal).
 */
import { ConfigError, keyName } from './errors';
import { readInclude } from './include';
import type { ConfigIo, ConfigSection, ParsedConfig } from './sections';

export const KNOWN_SECTIONS = new Set([
  'service',
  'input',
  'filter',
  'output',
  'parser',
  'multiline_parser',
  'custom',
  'plugins',
  'upstream',
  'node',
  'stream_task',
]);
const MAX_INCLUDE_DEPTH = 32;

export async function readClassic(file: string, text: string, io: ConfigIo, into: ParsedConfig, stack: string[] = []): Promise<void> {
  if (stack.includes(file)) throw new ConfigError(`@INCLUDE cycle: ${[...stack, file].join(' → ')}`, stack[stack.length - 1] ?? file);
  if (stack.length > MAX_INCLUDE_DEPTH) throw new ConfigError('@INCLUDE nested too deeply', file);
  if (!into.files.includes(file)) into.files.push(file);
  const lines = text.split(/\r?\n/);
  let current: ConfigSection | null = null;
  const mainFile = stack[0] ?? file;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i].replace(/\s+$/, '');
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indented = raw.length !== trimmed.length;
    if (trimmed.startsWith('[')) {
      const m = /^\[\s*([^\]\s]+)\s*\]$/.exec(trimmed);
      // Messages name the file and line, never the line itself (the file may be any file: @INCLUDE /etc/shadow).
      if (!m) throw new ConfigError('invalid section header (expected [NAME])', file, lineNo);
      const name = m[1].toLowerCase();
      if (!KNOWN_SECTIONS.has(name)) into.warnings.push({ file, line: lineNo, message: `unknown section${keyName(m[1]) ? ` [${m[1]}]` : ''}` });
      current = { name, source: { file, line: lineNo }, entries: [] };
      into.sections.push(current);
      continue;
    }
    if (trimmed.startsWith('@')) {
      const m = /^@(\w+)\s*(.*)$/.exec(trimmed);
      const directive = m?.[1].toUpperCase();
      const arg = (m?.[2] ?? '').trim();
      if (directive === 'INCLUDE') {
        if (!arg) throw new ConfigError('@INCLUDE without a file', file, lineNo);
        const pattern = io.resolve(mainFile, arg);
        await readInclude(io, into, { file, line: lineNo, label: '@INCLUDE', rel: arg, pattern }, (inc, body) =>
          readClassic(inc, body, io, into, [...stack, file]),
        );
        continue;
      }
      if (directive === 'SET') {
        const eq = arg.indexOf('=');
        if (eq <= 0) throw new ConfigError('@SET needs KEY=VALUE', file, lineNo);
        into.variables.set(arg.slice(0, eq).trim(), arg.slice(eq + 1).trim());
        continue;
      }
      throw new ConfigError('unknown directive (Fluent Bit knows @INCLUDE and @SET)', file, lineNo);
    }
    const key = keyName(trimmed.split(/\s/)[0]);
    if (!current) throw new ConfigError(`entry outside of any section${key && /\s/.test(trimmed) ? ` (key ${key})` : ''}`, file, lineNo);
    if (!indented) throw new ConfigError(`invalid indentation level: entries of [${current.name.toUpperCase()}] must be indented`, file, lineNo);
    const m = /^(\S+)\s+(.*)$/.exec(trimmed);
    // A key without a value is the whole line: not quoted either.
    if (!m) throw new ConfigError('undefined value for a key (a line with a key and no value)', file, lineNo);
    current.entries.push({ key: m[1].toLowerCase(), value: m[2].trim(), line: lineNo });
  }
}
