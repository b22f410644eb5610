/**
 * The options every command that needs a diagnosis shares (diagnose, repair-index, replay…):
 * config, output, bucket evidence (offline files or live), assumed restart time.
 */
import { Option, type Command } from 'commander';
import { ConfigError } from '../engine/fluentbit';
import { DiagnoseInputError, runDiagnosis, type RunDiagnosisOptions } from '../engine/diagnose';
import { cancelOnSigint, clearProgress, CliError, EXIT } from './output';
import { showProgress } from './progress';

type RunDiagnosisResult = Awaited<ReturnType<typeof runDiagnosis>>;

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addEvidenceOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'Fluent Bit config (classic .conf or YAML) the store belongs to')
    .option('--output <name|id>', 'only this output: instance id (0), name (s3.0) or alias')
    .option('--listing <file>', 'bucket listing: `aws s3api list-objects-v2` JSON or a recorder listing (repeatable: pages)', collect)
    .option('--versions <file>', '`aws s3api list-object-versions` JSON (repeatable)', collect)
    .option('--multipart <file>', '`aws s3api list-multipart-uploads` JSON (repeatable)', collect)
    .option('--live', 'list the bucket live (AWS default credential chain)')
    .option('--profile <name>', 'AWS profile for --live')
    .option('--region <region>', "AWS region for --live (default: the output's region)")
    .option('--endpoint <url>', "S3 endpoint for --live (default: the output's endpoint)")
    .addOption(new Option('--path-style', 'path-style bucket addressing for --live (default on, as Fluent Bit)'))
    .option('--full-listing', 'with --live: list every key of the format, not only the time window a restart can collide with')
    .option('--at <ISO time>', 'assumed restart time for the overwrite check, UTC unless it has a zone (default: now)');
}

export interface EvidenceCliOptions {
  config?: string;
  output?: string;
  listing?: string[];
  versions?: string[];
  multipart?: string[];
  live?: boolean;
  profile?: string;
  region?: string;
  endpoint?: string;
  pathStyle?: boolean;
  fullListing?: boolean;
  at?: string;
}

/** Validate the shared options into `runDiagnosis` options (without the store path). */
export function readEvidenceOptions(opts: EvidenceCliOptions): Omit<RunDiagnosisOptions, 'storePath'> {
  const out: Omit<RunDiagnosisOptions, 'storePath'> = {};
  if (opts.config !== undefined) {
    if (!opts.config.trim()) throw new CliError('--config: give a file', EXIT.USAGE);
    out.configPath = opts.config;
  }
  if (opts.output !== undefined) {
    const o = opts.output.trim();
    if (!o) throw new CliError('--output: give an output id, name or alias', EXIT.USAGE);
    if (/^\d+$/.test(o)) out.outputId = Number(o);
    else if (/^-/.test(o)) throw new CliError(`--output ${o}: not an output id or name`, EXIT.USAGE);
    else out.output = o;
  }
  if (opts.listing?.length) out.listing = opts.listing;
  if (opts.versions?.length) out.versions = opts.versions;
  if (opts.multipart?.length) out.multipart = opts.multipart;
  const liveOnly = (['profile', 'region', 'endpoint', 'pathStyle', 'fullListing'] as const).filter((k) => opts[k] !== undefined);
  const flag = (k: (typeof liveOnly)[number]) => (k === 'pathStyle' ? '--path-style' : k === 'fullListing' ? '--full-listing' : `--${k}`);
  if (liveOnly.length && !opts.live) {
    throw new CliError(`${liveOnly.map(flag).join(', ')} only apply with --live`, EXIT.USAGE);
  }
  if (opts.live) {
    if (opts.endpoint !== undefined) {
      let u: URL;
      try {
        u = new URL(opts.endpoint);
      } catch {
        throw new CliError(`--endpoint ${opts.endpoint}: not a URL (e.g. http://127.0.0.1:9000)`, EXIT.USAGE);
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new CliError(`--endpoint ${opts.endpoint}: use http:// or https://`, EXIT.USAGE);
    }
    out.live = { enabled: true, profile: opts.profile, region: opts.region, endpoint: opts.endpoint, pathStyle: opts.pathStyle };
    if (opts.fullListing) out.fullListing = true;
  }
  if (opts.at !== undefined) {
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
    const text = opts.at.trim();
    // Key times and collision windows are UTC (spec §6.1): a date-time without a zone is UTC too,
    // not the local time Date.parse would assume.
    const m = iso.exec(text);
    const t = m ? Date.parse(m[1] && !m[4] ? `${text}Z` : text) : NaN;
    if (Number.isNaN(t)) throw new CliError(`--at ${opts.at}: not an ISO time (e.g. 2026-11-29T18:40:00Z; a time without a zone is UTC)`, EXIT.USAGE);
    out.at = new Date(t);
  }
  return out;
}

/** Bad input (config, store, evidence files, output choice) → exit 2; S3 or other failures stay as they are (exit 1). */
export function asCliError(e: unknown): unknown {
  if (e instanceof CliError) return e;
  const err = e as Error & { name?: string };
  if (e instanceof ConfigError || e instanceof DiagnoseInputError) return new CliError(err.message, EXIT.USAGE);
  if (err?.name === 'StoreError' || err?.name === 'OfflineEvidenceError') return new CliError(err.message, EXIT.USAGE);
  return e;
}

/** runDiagnosis for a command: the evidence flags, progress on stderr, Ctrl-C cancels, errors mapped to exit codes. */
export async function runDiagnosisFromCli(store: string, opts: EvidenceCliOptions, signal?: AbortSignal): Promise<RunDiagnosisResult> {
  const evidence = readEvidenceOptions(opts);
  try {
    return await runDiagnosis({
      storePath: store,
      ...evidence,
      signal: signal ?? cancelOnSigint().signal,
      onProgress: showProgress,
    });
  } catch (e) {
    throw asCliError(e);
  } finally {
    clearProgress();
  }
}
