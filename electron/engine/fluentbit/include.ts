/**
 * One `@INCLUDE` line (classic) or `includes` entry (YAML), as `read_glob` in flb_cf_fluentbit.c
 * and flb_cf_yaml.c (v5.0.9) handles it:
 * - a glob only when the name has a `*`;
 * - `glob(…, GLOB_NOSORT, …)`: the matches come in directory order, which the host's file system
 *   decides. We read them sorted (deterministic), and warn when more than one matched file holds
 *   outputs, because their instance ids (fluent-bit-store-format.md#the-index-file) then depend on that order;
 * - GLOB_NOMATCH makes `read_glob` return -1 and the whole config fails: a ConfigError here.
 */
import { ConfigError } from './errors';
import type { ConfigIo, ParsedConfig } from './sections';

export interface IncludeLine {
  /** File holding the line, and its line number. */
  file: string;
  line: number;
  /** `@INCLUDE` or `includes`: how messages name the directive. */
  label: string;
  /** The name as written. */
  rel: string;
  /** `rel` resolved to a path (or absolute pattern). */
  pattern: string;
}

const outputCount = (into: ParsedConfig) => into.sections.reduce((n, s) => n + (s.name === 'output' ? 1 : 0), 0);

/** Fluent Bit reads at most this many config files (FLB_CF_FILE_NUM_LIMIT in flb_cf_fluentbit.c) and refuses the config beyond. */
export const CONFIG_FILE_LIMIT = 1000;

/**
 * Note one more config file read. Fluent Bit (1.9 to 5.1, checked with the real binaries) refuses
 * a config that reads the same file twice ("[config] Read twice", by inode; 1.9: "file already
 * included"), which also ends include cycles and fan-out; and it reads at most 1000 files.
 */
export async function noteFileRead(io: ConfigIo, into: ParsedConfig, file: string, inc?: IncludeLine): Promise<void> {
  const seen = (into.seen ??= new Set());
  const where = inc ? { file: inc.file, line: inc.line, what: `${inc.label} ${inc.rel}: ` } : { file, line: null, what: '' };
  const id = io.fileId ? await io.fileId(file).catch(() => null) : null;
  if (id !== null && seen.has(id)) {
    throw new ConfigError(
      `${where.what}${file} is already included (an include cycle or a file included twice: Fluent Bit refuses a file read twice, "[config] Read twice")`,
      where.file,
      where.line,
    );
  }
  if (seen.size >= CONFIG_FILE_LIMIT) {
    throw new ConfigError(
      `${where.what}more than ${CONFIG_FILE_LIMIT} config files (Fluent Bit reads at most ${CONFIG_FILE_LIMIT} and refuses the config)`,
      where.file,
      where.line,
    );
  }
  seen.add(id ?? `path:${file}`);
}

/** Expand, read and parse (through `parse`) every file an include names, in a deterministic order. */
export async function readInclude(io: ConfigIo, into: ParsedConfig, inc: IncludeLine, parse: (file: string, text: string) => Promise<void>): Promise<void> {
  const isGlob = inc.rel.includes('*');
  let matches: string[];
  try {
    matches = isGlob ? await io.glob(inc.pattern) : [inc.pattern];
  } catch (e) {
    throw new ConfigError(`cannot expand ${inc.label} ${inc.rel}: ${(e as Error).message}`, inc.file, inc.line);
  }
  if (!matches.length) {
    throw new ConfigError(
      `${inc.label} ${inc.rel}: no file matches ${inc.pattern} (Fluent Bit logs "glob: no match" and refuses the whole config)`,
      inc.file,
      inc.line,
    );
  }
  const firstId = outputCount(into);
  let filesWithOutputs = 0;
  for (const f of matches) {
    await noteFileRead(io, into, f, inc);
    let body: string;
    try {
      body = await io.readFile(f);
    } catch (e) {
      // A SafeReadError's reason is the problem without the file name (named here already).
      const why = typeof (e as { reason?: unknown }).reason === 'string' ? (e as { reason: string }).reason : (e as Error).message;
      throw new ConfigError(`cannot read ${inc.label} ${inc.rel} (${f}): ${why}`, inc.file, inc.line);
    }
    const before = outputCount(into);
    await parse(f, body);
    if (outputCount(into) > before) filesWithOutputs++;
  }
  const lastId = outputCount(into) - 1;
  if (isGlob && filesWithOutputs > 1) {
    into.warnings.push({
      file: inc.file,
      line: inc.line,
      message:
        `${inc.label} ${inc.rel}: Fluent Bit reads the ${matches.length} matching files in directory order (glob with GLOB_NOSORT), ` +
        `not sorted as here: output ids ${firstId}–${lastId} come from ${filesWithOutputs} of them and may differ on the host. ` +
        'Check which seq_index_<id> each output really uses, or include the files one by one.',
    });
  }
}
