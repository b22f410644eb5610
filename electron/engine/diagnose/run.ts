/**
 * `runDiagnosis()`: scan the store, read the config, gather bucket evidence (offline files or
 * live listing) and diagnose. What the CLI, the host and the repair engine call.
 */
import type { Diagnosis, FluentBitConfig, Progress, S3ConnectionOptions, S3Evidence, StoreReport } from '../../../shared/model';
import { findOutput, loadFluentBitConfig } from '../fluentbit';
import { createS3Client, loadOfflineEvidence } from '../s3';
import { scanStore } from '../store';
import { diagnose } from './diagnose';
import { listLiveEvidence } from './live';
import { DiagnoseInputError, selectTargets, type Target } from './targets';

export interface RunDiagnosisOptions {
  storePath: string;
  configPath?: string;
  listing?: string[];
  versions?: string[];
  multipart?: string[];
  live?: (S3ConnectionOptions & { enabled: boolean }) | null;
  outputId?: number;
  /** Output by instance name (`s3.1`) or alias; resolved against the config. */
  output?: string;
  at?: Date;
  /**
   * Live only: list every key the key format can reach even when the format is time-partitioned
   * (default: a focused listing around `at` and the buffered data, see ./live.ts).
   */
  fullListing?: boolean;
  /** Environment for `${VAR}` in the config (default process.env). */
  env?: Record<string, string | undefined>;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
}

export interface DiagnosisRun {
  report: StoreReport;
  config: FluentBitConfig | null;
  evidence: Map<number, S3Evidence>;
  diagnosis: Diagnosis;
}

/** The output offline files describe: the selected one, else the S3 output of the listing's bucket, else the first. */
export function offlineTarget(targets: Target[], evidence: S3Evidence, outputId?: number): Target {
  if (outputId !== undefined) {
    const t = targets.find((x) => x.id === outputId);
    if (!t) throw new DiagnoseInputError(`output ${outputId} is not an S3 output of the config`);
    return t;
  }
  if (!targets.length)
    throw new DiagnoseInputError('the listing cannot be tied to an output: no S3 output in the config (or no seq_index file without a config)');
  if (evidence.bucket) {
    const t = targets.find((x) => x.bucket === evidence.bucket);
    if (!t)
      throw new DiagnoseInputError(
        `the listing is of bucket ${evidence.bucket}, which no S3 output uses (${targets.map((x) => x.bucket).join(', ')}); pick one with --output`,
      );
    return t;
  }
  return targets[0];
}

export async function runDiagnosis(opts: RunDiagnosisOptions): Promise<DiagnosisRun> {
  const config = opts.configPath ? await loadFluentBitConfig(opts.configPath, { env: opts.env }) : null;
  let outputId = opts.outputId;
  if (opts.output !== undefined) {
    if (/^\d+$/.test(opts.output.trim())) outputId = Number(opts.output.trim());
    else {
      if (!config) throw new DiagnoseInputError(`--output ${opts.output}: a name needs --config (or give the numeric id)`);
      const o = findOutput(config, opts.output);
      if (!o)
        throw new DiagnoseInputError(`--output ${opts.output}: no output with that name or alias (${config.outputs.map((x) => x.displayName).join(', ')})`);
      outputId = o.id;
    }
  }
  const report = await scanStore(opts.storePath, { onProgress: opts.onProgress, signal: opts.signal });
  const targets = selectTargets(report, config, outputId);
  const evidence = new Map<number, S3Evidence>();
  const evidenceArgs: string[] = [];
  const offline = [opts.listing, opts.versions, opts.multipart].some((l) => l && l.length);
  if (offline) {
    const ev = await loadOfflineEvidence({ listing: opts.listing ?? [], versions: opts.versions ?? [], multipart: opts.multipart ?? [] });
    evidence.set(offlineTarget(targets, ev, outputId).id, ev);
    for (const f of opts.listing ?? []) evidenceArgs.push('--listing', f);
    for (const f of opts.versions ?? []) evidenceArgs.push('--versions', f);
    for (const f of opts.multipart ?? []) evidenceArgs.push('--multipart', f);
  }
  if (opts.live?.enabled) {
    if (!config) throw new DiagnoseInputError('--live needs --config: the key format decides which prefixes to list');
    evidenceArgs.push('--live');
    if (opts.live.profile) evidenceArgs.push('--profile', opts.live.profile);
    if (opts.live.region) evidenceArgs.push('--region', opts.live.region);
    if (opts.live.endpoint) evidenceArgs.push('--endpoint', opts.live.endpoint);
    if (opts.fullListing) evidenceArgs.push('--full-listing');
    const at = opts.at ?? new Date();
    for (const t of targets) {
      if (evidence.has(t.id) || !t.s3) continue;
      const client = createS3Client({
        profile: opts.live.profile ?? t.s3.profile ?? undefined,
        region: opts.live.region ?? t.s3.region,
        endpoint: opts.live.endpoint ?? t.s3.endpoint ?? undefined,
        // Fluent Bit always addresses buckets path-style (spec §6.2)
        pathStyle: opts.live.pathStyle ?? true,
      });
      try {
        const { evidence: ev } = await listLiveEvidence(client, {
          bucket: t.bucket,
          keyFormat: t.keyFormat,
          tagDelimiters: t.tagDelimiters,
          root: t.root,
          at,
          fullListing: opts.fullListing,
          onProgress: opts.onProgress,
          signal: opts.signal,
        });
        evidence.set(t.id, ev);
      } finally {
        client.destroy();
      }
    }
  }
  const diagnosis = diagnose({
    report,
    config,
    evidence,
    at: opts.at,
    outputId,
    commands: { store: opts.storePath, config: opts.configPath ?? null, evidenceArgs },
  });
  return { report, config, evidence, diagnosis };
}
