/**
 * The options every command that needs a diagnosis shares (diagnose, report, repair-index,
 * replay…): config, output, bucket evidence (offline files or live), assumed restart time — and
 * the session requests they turn into: store.open → config.load → evidence → diagnose.run.
 */
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import type { OpenedStore } from '../../shared/contract';
import type { Diagnosis, FluentBitConfig, S3ConnectionOptions } from '../../shared/model';
import type { CommandContext } from '../../shared/suggest-cli';
import { findOutput } from '../../shared/outputs';
import { cancelOnSigint, clearProgress, CliError, EXIT } from './output';
import { showProgress } from './progress';
import type { CliSession } from './session';

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
    .addOption(new Option('--path-style', 'path-style bucket addressing for --live (default: on with an endpoint, as Fluent Bit)'))
    .option('--full-listing', 'with --live: list every key of the format, not only the time window a restart can collide with')
    .option('--max-evidence-age <minutes>', 'bucket evidence older than this (a listing file by its time) is stale: nothing is called safe on it')
    .option('--at <ISO time>', 'assumed restart time for the overwrite check, UTC unless it has a zone (default: now)')
    .option('--fluent-bit-version <x.y.z>', 'the Fluent Bit version that runs this store (default: what the store shows; docs/fluent-bit-versions.md)')
    .option('--fluent-bit-bin <path>', 'read the version from this Fluent Bit binary (`<path> --version`; never a file inside the store)');
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
  maxEvidenceAge?: string;
  at?: string;
  fluentBitVersion?: string;
  fluentBitBin?: string;
}

/** The evidence flags, validated. */
export interface EvidenceSources {
  configPath?: string;
  outputId?: number;
  /** `--output` by name or alias (resolved against the config once it is loaded). */
  outputName?: string;
  listing: string[];
  versions: string[];
  multipart: string[];
  live: S3ConnectionOptions | null;
  fullListing: boolean;
  /** `--max-evidence-age`: minutes. */
  maxEvidenceAgeMinutes?: number;
  at?: string;
  /** `--fluent-bit-version` (x.y.z) or `--fluent-bit-bin` (absolute path). */
  fluentBitVersion?: string;
  fluentBitBin?: string;
}

/** Validate the shared options (without touching the store). */
export function readEvidenceOptions(opts: EvidenceCliOptions): EvidenceSources {
  const out: EvidenceSources = { listing: opts.listing ?? [], versions: opts.versions ?? [], multipart: opts.multipart ?? [], live: null, fullListing: false };
  if (opts.config !== undefined) {
    if (!opts.config.trim()) throw new CliError('--config: give a file', EXIT.USAGE);
    out.configPath = opts.config;
  }
  if (opts.output !== undefined) {
    const o = opts.output.trim();
    if (!o) throw new CliError('--output: give an output id, name or alias', EXIT.USAGE);
    if (/^\d+$/.test(o)) out.outputId = Number(o);
    else if (/^-/.test(o)) throw new CliError(`--output ${o}: not an output id or name`, EXIT.USAGE);
    else out.outputName = o;
  }
  const liveOnly = (['profile', 'region', 'endpoint', 'pathStyle', 'fullListing'] as const).filter((k) => opts[k] !== undefined);
  const flag = (k: (typeof liveOnly)[number]) => (k === 'pathStyle' ? '--path-style' : k === 'fullListing' ? '--full-listing' : `--${k}`);
  if (liveOnly.length && !opts.live) throw new CliError(`${liveOnly.map(flag).join(', ')} only apply with --live`, EXIT.USAGE);
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
    out.live = { profile: opts.profile, region: opts.region, endpoint: opts.endpoint, pathStyle: opts.pathStyle };
    out.fullListing = !!opts.fullListing;
  }
  if (opts.maxEvidenceAge !== undefined) {
    const m = opts.maxEvidenceAge.trim();
    if (!/^\d{1,6}$/.test(m) || Number(m) < 1 || Number(m) > 525_600)
      throw new CliError(`--max-evidence-age ${opts.maxEvidenceAge}: give whole minutes, 1 to 525600`, EXIT.USAGE);
    out.maxEvidenceAgeMinutes = Number(m);
  }
  if (opts.at !== undefined) {
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
    const text = opts.at.trim();
    // Key times and collision windows are UTC: a date-time without a zone is UTC too, not the
    // local time Date.parse would assume.
    const m = iso.exec(text);
    const t = m ? Date.parse(m[1] && !m[4] ? `${text}Z` : text) : NaN;
    if (Number.isNaN(t)) throw new CliError(`--at ${opts.at}: not an ISO time (e.g. 2026-11-29T18:40:00Z; a time without a zone is UTC)`, EXIT.USAGE);
    out.at = new Date(t).toISOString();
  }
  if (opts.fluentBitVersion !== undefined && opts.fluentBitBin !== undefined)
    throw new CliError('give --fluent-bit-version or --fluent-bit-bin, not both', EXIT.USAGE);
  if (opts.fluentBitVersion !== undefined) {
    const v = opts.fluentBitVersion.trim();
    if (!/^v?\d{1,3}\.\d{1,3}(\.\d{1,4})?$/.test(v))
      throw new CliError(`--fluent-bit-version ${opts.fluentBitVersion}: not a version (e.g. 1.9.10)`, EXIT.USAGE);
    out.fluentBitVersion = v.replace(/^v/, '');
  }
  if (opts.fluentBitBin !== undefined) {
    if (!opts.fluentBitBin.trim()) throw new CliError('--fluent-bit-bin: give the path of the Fluent Bit binary', EXIT.USAGE);
    out.fluentBitBin = path.resolve(opts.fluentBitBin);
  }
  return out;
}

/** The evidence flags as given, for the command lines a diagnosis recommends. */
export function evidenceArgs(src: EvidenceSources): string[] {
  const args: string[] = [];
  for (const f of src.listing) args.push('--listing', f);
  for (const f of src.versions) args.push('--versions', f);
  for (const f of src.multipart) args.push('--multipart', f);
  if (src.live) {
    args.push('--live');
    if (src.live.profile) args.push('--profile', src.live.profile);
    if (src.live.region) args.push('--region', src.live.region);
    if (src.live.endpoint) args.push('--endpoint', src.live.endpoint);
    if (src.live.pathStyle) args.push('--path-style');
    if (src.fullListing) args.push('--full-listing');
  }
  if (src.maxEvidenceAgeMinutes !== undefined) args.push('--max-evidence-age', String(src.maxEvidenceAgeMinutes));
  return args;
}

/** The Fluent Bit version flags as given, for the command lines a diagnosis recommends. */
export function fluentBitArgs(src: EvidenceSources): string[] {
  if (src.fluentBitVersion) return ['--fluent-bit-version', src.fluentBitVersion];
  if (src.fluentBitBin) return ['--fluent-bit-bin', src.fluentBitBin];
  return [];
}

export interface Diagnosed {
  opened: OpenedStore;
  config: FluentBitConfig | null;
  outputId?: number;
  diagnosis: Diagnosis;
  sources: EvidenceSources;
  /** How recommended command lines repeat this invocation. */
  commands: CommandContext;
}

/** Open the store in the session, load the config and the evidence the flags name, and diagnose. */
export async function openDiagnosed(
  session: CliSession,
  store: string,
  opts: EvidenceCliOptions,
  signal: AbortSignal = cancelOnSigint().signal,
): Promise<Diagnosed> {
  const src = readEvidenceOptions(opts);
  const work = { signal, onProgress: showProgress };
  try {
    const opened = await session.call(
      'store.open',
      { path: store, ...(src.maxEvidenceAgeMinutes !== undefined ? { evidenceMaxAgeMinutes: src.maxEvidenceAgeMinutes } : {}) },
      work,
    );
    const storeId = opened.storeId;
    if (src.fluentBitVersion || src.fluentBitBin)
      await session.call('store.fluentBitVersion', { storeId, ...(src.fluentBitBin ? { binary: src.fluentBitBin } : { version: src.fluentBitVersion }) });
    const config = src.configPath ? await session.call('config.load', { storeId, path: src.configPath }) : null;
    let outputId = src.outputId;
    if (src.outputName !== undefined) {
      if (!config) throw new CliError(`--output ${src.outputName}: a name needs --config (or give the numeric id)`, EXIT.USAGE);
      const o = findOutput(config, src.outputName);
      if (!o)
        throw new CliError(
          `--output ${src.outputName}: no output with that name or alias (${config.outputs.map((x) => x.displayName).join(', ')})`,
          EXIT.USAGE,
        );
      outputId = o.id;
    }
    const diagnose = () => session.call('diagnose.run', { storeId, at: src.at, outputId });
    // The one diagnosis of this command. It is taken early only when --live needs to know which
    // outputs the offline files already cover, and taken again only when a live listing came in.
    let diagnosis: Diagnosis | null = null;
    if (src.listing.length || src.versions.length || src.multipart.length)
      await session.call('evidence.importFiles', { storeId, outputId, listing: src.listing, versions: src.versions, multipart: src.multipart }, work);
    if (src.live) {
      if (!config) throw new CliError('--live needs --config: the key format decides which prefixes to list', EXIT.USAGE);
      const offlineIds = new Set<number>();
      if (src.listing.length || src.versions.length || src.multipart.length) {
        diagnosis = await diagnose();
        for (const o of diagnosis.outputs) if (o.indexEvidence.coverage !== 'none' && o.indexEvidence.coverage !== 'unusable') offlineIds.add(o.id);
      }
      const ids = config.outputs.filter((o) => o.s3 && (outputId === undefined || o.id === outputId) && !offlineIds.has(o.id)).map((o) => o.id);
      if (ids.length) diagnosis = null;
      for (const id of ids)
        await session.call('evidence.live', { storeId, outputId: id, connection: src.live, at: src.at, fullListing: src.fullListing || undefined }, work);
    }
    diagnosis ??= await diagnose();
    const commands: CommandContext = {
      store,
      config: src.configPath ?? null,
      evidenceArgs: evidenceArgs(src),
      fluentBitArgs: fluentBitArgs(src),
      multipleOutputs: (config?.outputs.filter((o) => o.s3).length ?? diagnosis.outputs.length) > 1,
    };
    return { opened, config, outputId, diagnosis, sources: src, commands };
  } finally {
    clearProgress();
  }
}
