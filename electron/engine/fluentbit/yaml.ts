/**
 * YAML Fluent Bit config: `env`, `includes` (globs, relative to the including file), `service`,
 * `pipeline.inputs/filters/outputs` (lists of maps). Only scalar values are kept (nested
 * `processors` etc. are skipped). Keys are case-insensitive.
 */
import type { Node, YAMLMap } from 'yaml';
import { ConfigError, keyName } from './errors';
import { readInclude } from './include';
import type { ConfigIo, ParsedConfig } from './sections';

/** The YAML library, loaded the first time a YAML config is read (a classic .conf or a scan never needs it). */
function yamlLib(): typeof import('yaml') {
  return require('yaml') as typeof import('yaml');
}
const isMap = (n: unknown): n is YAMLMap => yamlLib().isMap(n);
const isScalar = (n: unknown): n is import('yaml').Scalar => yamlLib().isScalar(n);
const isSeq = (n: unknown): n is import('yaml').YAMLSeq => yamlLib().isSeq(n);

const KNOWN_TOP = new Set([
  'env',
  'includes',
  'service',
  'pipeline',
  'parsers',
  'multiline_parsers',
  'customs',
  'plugins',
  'upstream_servers',
  'stream_processor',
]);

function scalarText(v: unknown): string | null {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return null;
}

const YAML_PROBLEMS: Record<string, string> = {
  MISSING_CHAR: 'a closing quote, bracket, comma or value is missing',
  BAD_INDENT: 'bad indentation',
  UNEXPECTED_TOKEN: 'unexpected token',
  DUPLICATE_KEY: 'a key appears twice in one mapping',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping where a compact mapping is',
  MULTILINE_IMPLICIT_KEY: 'an implicit key spans more than one line',
  BAD_DQ_ESCAPE: 'an invalid escape in a double-quoted string',
  BAD_SCALAR_START: 'a plain value starts with a reserved character',
  BAD_DIRECTIVE: 'an invalid % directive',
  BAD_ALIAS: 'an alias to an anchor that does not exist',
  TAG_RESOLVE_FAILED: 'an unknown tag',
  TAB_AS_INDENT: 'a tab used for indentation',
};

function yamlProblem(code: string): string {
  return YAML_PROBLEMS[code] ?? `a syntax error (${code.toLowerCase().replace(/_/g, ' ')})`;
}

export async function readYaml(file: string, text: string, io: ConfigIo, into: ParsedConfig, stack: string[] = []): Promise<void> {
  if (stack.includes(file)) throw new ConfigError(`includes cycle: ${[...stack, file].join(' → ')}`, stack[stack.length - 1] ?? file);
  if (!into.files.includes(file)) into.files.push(file);
  const { LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // The parser's messages quote the source ("Unexpected scalar token in YAML stream: \"…\""): name the kind only.
    throw new ConfigError(`invalid YAML: ${yamlProblem(e.code)}`, file, lc.linePos(e.pos[0]).line);
  }
  const lineOf = (n: Node | null | undefined) => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const root = doc.contents;
  if (root === null || root === undefined) return;
  if (!isMap(root)) throw new ConfigError('a YAML config must be a mapping at the top level', file, lineOf(root as Node));
  for (const pair of root.items) {
    const keyNode = pair.key as Node;
    const key = String(isScalar(keyNode) ? keyNode.value : keyNode).toLowerCase();
    const value = pair.value as Node | null;
    const line = lineOf(keyNode);
    if (!KNOWN_TOP.has(key)) into.warnings.push({ file, line, message: `unknown top-level key${keyName(key) ? ` ${keyName(key)}` : ''}` });
    if (key === 'env') {
      if (!isMap(value)) throw new ConfigError('env must be a mapping', file, line);
      for (const p of value.items) {
        const t = scalarText(isScalar(p.value) ? p.value.value : p.value);
        if (t === null) throw new ConfigError('env values must be scalars', file, lineOf(p.key as Node));
        into.variables.set(String(isScalar(p.key) ? p.key.value : p.key), t);
      }
    } else if (key === 'includes') {
      const list = isSeq(value) ? value.items : value ? [value] : [];
      for (const item of list) {
        const rel = isScalar(item) ? String(item.value) : null;
        if (!rel) throw new ConfigError('includes entries must be file names', file, lineOf(item as Node));
        const pattern = io.resolve(file, rel);
        // flb_cf_yaml.c: relative to the including file's directory; a glob only with a `*` (include.ts)
        await readInclude(io, into, { file, line: lineOf(item as Node), label: 'includes', rel, pattern }, (inc, body) =>
          readYaml(inc, body, io, into, [...stack, file]),
        );
      }
    } else if (key === 'service') {
      if (value && !isMap(value)) throw new ConfigError('service must be a mapping', file, line);
      if (value) into.sections.push(section('service', value as YAMLMap, file, line, lineOf));
    } else if (key === 'pipeline') {
      if (!isMap(value)) throw new ConfigError('pipeline must be a mapping', file, line);
      for (const p of value.items) {
        const kind = String(isScalar(p.key) ? p.key.value : p.key).toLowerCase();
        const name = kind === 'inputs' ? 'input' : kind === 'filters' ? 'filter' : kind === 'outputs' ? 'output' : null;
        const pLine = lineOf(p.key as Node);
        if (!name) {
          into.warnings.push({ file, line: pLine, message: `unknown pipeline key${keyName(kind) ? ` ${keyName(kind)}` : ''}` });
          continue;
        }
        if (p.value === null || p.value === undefined) continue;
        if (!isSeq(p.value)) throw new ConfigError(`pipeline.${kind} must be a list`, file, pLine);
        for (const item of p.value.items) {
          if (!isMap(item)) throw new ConfigError(`each pipeline.${kind} entry must be a mapping`, file, lineOf(item as Node));
          into.sections.push(section(name, item, file, lineOf(item as Node), lineOf));
        }
      }
    }
  }
}

function section(name: string, map: YAMLMap, file: string, line: number, lineOf: (n: Node | null | undefined) => number) {
  const entries: { key: string; value: string; line: number }[] = [];
  for (const p of map.items) {
    const k = String(isScalar(p.key) ? p.key.value : p.key).toLowerCase();
    const v = isScalar(p.value) ? scalarText(p.value.value) : p.value === null ? '' : null;
    if (v === null) continue; // nested structure (processors, …): not a plain property
    entries.push({ key: k, value: v, line: lineOf(p.key as Node) });
  }
  return { name, source: { file, line }, entries };
}
