/**
 * Which S3 outputs to diagnose and which root of the store each one uses: from the config
 * (bucket, store_dir) or, without a config, inferred from `seq_index_<id>` files.
 */
import type { FluentBitConfig, RootReport, S3Evidence, S3OutputSettings, StoreReport } from '../../../shared/model';

export interface Target {
  id: number;
  displayName: string;
  bucket: string;
  /** Empty when unknown (no config). */
  keyFormat: string;
  tagDelimiters: string;
  hasIndex: boolean;
  s3: S3OutputSettings | null;
  root: RootReport | null;
  /** Root path Fluent Bit would use (config) or the root's path (inferred). */
  rootPath: string | null;
  inferred: boolean;
}

export class DiagnoseInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiagnoseInputError';
  }
}

/** Collapse `//` and drop a trailing `/`: how the file system resolves Fluent Bit's concatenation. */
export function normalizeRootPath(p: string): string {
  const n = p.replace(/\/{2,}/g, '/');
  return n.length > 1 ? n.replace(/\/$/, '') : n;
}

function segmentsOf(p: string): string[] {
  return p.split(/[/\\!]+/).filter(Boolean);
}

/** The report root an S3 output uses: same bucket; among several, the longest matching path tail. */
export function matchRoot(report: StoreReport, s3: S3OutputSettings): RootReport | null {
  const candidates = report.roots.filter((r) => r.bucket === s3.bucket);
  if (candidates.length <= 1) return candidates[0] ?? null;
  const want = segmentsOf(normalizeRootPath(s3.rootPath));
  let best: RootReport | null = null;
  let bestScore = -1;
  for (const r of candidates) {
    const have = segmentsOf(r.path);
    let score = 0;
    while (score < want.length && score < have.length && want[want.length - 1 - score] === have[have.length - 1 - score]) score++;
    if (score > bestScore) {
      best = r;
      bestScore = score;
    }
  }
  return best;
}

export function targetsFromConfig(report: StoreReport, config: FluentBitConfig): Target[] {
  return config.outputs
    .filter((o) => o.s3)
    .map((o) => {
      const s3 = o.s3!;
      return {
        id: o.id,
        displayName: o.displayName,
        bucket: s3.bucket,
        keyFormat: s3.s3KeyFormat,
        tagDelimiters: s3.tagDelimiters,
        hasIndex: s3.hasIndex,
        s3,
        root: matchRoot(report, s3),
        rootPath: s3.rootPath,
        inferred: false,
      };
    });
}

/** Without a config: one output per `seq_index_<id>` file found in a root. */
export function inferTargets(report: StoreReport): Target[] {
  const out: Target[] = [];
  for (const root of report.roots) {
    for (const s of root.seqIndex) {
      if (s.outputId === null) continue;
      out.push({
        id: s.outputId,
        displayName: `s3.${s.outputId}`,
        bucket: root.bucket,
        keyFormat: '',
        tagDelimiters: '.',
        hasIndex: true,
        s3: null,
        root,
        rootPath: root.path,
        inferred: true,
      });
    }
  }
  return out;
}

export function selectTargets(report: StoreReport, config: FluentBitConfig | null, outputId?: number): Target[] {
  const all = config ? targetsFromConfig(report, config) : inferTargets(report);
  if (outputId === undefined) return all;
  const picked = all.filter((t) => t.id === outputId);
  if (!picked.length) {
    const o = config?.outputs.find((x) => x.id === outputId);
    if (o) throw new DiagnoseInputError(`output ${outputId} (${o.displayName}) is a ${o.plugin} output, not an S3 output with a bucket`);
    throw new DiagnoseInputError(
      config
        ? `no output with id ${outputId} in ${config.files[0] ?? 'the config'}`
        : `no seq_index_${outputId} in the store (load the Fluent Bit config to pick outputs)`,
    );
  }
  return picked;
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
        `the listing is of bucket ${evidence.bucket}, which no S3 output uses (${targets.map((x) => x.bucket).join(', ')}); choose the output it belongs to`,
      );
    return t;
  }
  return targets[0];
}
